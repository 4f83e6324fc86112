// Package config is the server's configuration: every flag and environment
// variable is read here, once, into a Config, and checked before anything
// starts. An error names the setting and says how to fix it, in one line.
package config

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/companyintel/mcp-server/auth"
	"github.com/companyintel/mcp-server/internal/suggest"
	"github.com/companyintel/mcp-server/ratelimit"
	"github.com/companyintel/mcp-server/tools"
)

// Config is the server's configuration, from flags and the environment.
type Config struct {
	// Endpoint is the AppSync GraphQL URL (--endpoint, APPSYNC_ENDPOINT).
	Endpoint string
	// Embedded starts the local backend in-process and uses it (--embedded).
	Embedded bool
	// DataDir and Companies configure the embedded backend's data set.
	DataDir   string
	Companies int
	// Auth forces one auth method (--auth); empty walks the chain.
	Auth auth.Method
	// Mutations says which write tools are enabled (--allow-mutations).
	Mutations Mutations
	// HideDisabledTools leaves disabled write tools out of tools/list.
	HideDisabledTools bool
	// FeedbackTool serves report_missing_capability (--feedback-tool,
	// MCP_FEEDBACK_TOOL): off by default, so the catalogue is the default tools.
	FeedbackTool bool
	// RateLimits are TOOL=LIMIT specs (--rate-limit, RATE_LIMITS) over the defaults.
	RateLimits []string
	// RedisURL, when set, keeps the rate-limit buckets in that Redis, shared
	// by every replica pointed at it (--redis-url, REDIS_URL).
	RedisURL string
	// RedisTimeout bounds each rate-limit check in Redis (--redis-timeout).
	RedisTimeout time.Duration
	// Timeout bounds each backend call (--timeout).
	Timeout time.Duration
	// MaxAnswerBytes bounds each tool answer, both renderings counted
	// (--max-answer-bytes, MCP_MAX_ANSWER_BYTES; tools.Render).
	MaxAnswerBytes int
	// LogFormat is text or json; LogLevel a slog level name.
	LogFormat, LogLevel string
	// ValidateOutput checks results against their outputSchema (tests).
	ValidateOutput bool
	// ErrorClasses map a resolver's own errorTypes to classes
	// (--error-class, ERROR_CLASSES).
	ErrorClasses tools.ErrorClasses
	// HTTP configures the HTTP service (--http and the flags beside it).
	HTTP HTTPConfig
	// Confirm is how writes are confirmed by a person (config_confirm.go).
	Confirm ConfirmConfig
}

// ErrVersion is what Parse returns for --version: print the build and exit
// 0, whatever else the flags say.
var ErrVersion = errors.New("--version")

// repeated is a flag that may be given several times.
type repeated []string

func (r *repeated) String() string     { return strings.Join(*r, ",") }
func (r *repeated) Set(s string) error { *r = append(*r, s); return nil }

// Parse reads flags from args, with the environment (through getenv) as the
// fallback for each. A flag given explicitly wins over the environment.
// --help writes the usage to usage. catalogue is every tool the server can
// serve (the names --rate-limit and --allow-mutations accept): the tools are
// assembled elsewhere, and configuration only needs their facts.
func Parse(args []string, getenv func(string) string, usage io.Writer, catalogue []tools.Facts) (Config, error) {
	fs := flag.NewFlagSet("mcp-server", flag.ContinueOnError)
	// The flag package prints the whole usage after any mistake; a mistake
	// gets one line here instead (flagError), and --help the usage.
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	var c Config
	var names, writes []string
	for _, f := range catalogue {
		names = append(names, f.Name)
		if f.Writes() {
			writes = append(writes, f.Name)
		}
	}
	c.Mutations = Mutations{writes: writes}
	var rateLimits, errorClasses repeated
	var authFlag string
	env := &envReader{getenv: getenv}
	fs.StringVar(&c.Endpoint, "endpoint", getenv("APPSYNC_ENDPOINT"), "AppSync GraphQL URL (env APPSYNC_ENDPOINT)")
	fs.BoolVar(&c.Embedded, "embedded", env.bool("MCP_EMBEDDED"), "start the embedded local backend in-process and use it (a complete demo)")
	fs.StringVar(&c.DataDir, "data-dir", getenv("MCP_DATA_DIR"), "embedded backend: where its database lives (default: the user cache dir)")
	companies := defaultCompanies
	if strings.TrimSpace(getenv("MCP_COMPANIES")) != "" {
		companies = env.int("MCP_COMPANIES") // 0 is refused, not read as the default
	}
	fs.IntVar(&c.Companies, "companies", companies, companiesUsage)
	fs.StringVar(&authFlag, "auth", getenv("MCP_AUTH"), "force one auth method: oidc, sigv4 or apikey (default: the chain OIDC, SigV4, API key)")
	mutationsErr := c.Mutations.Set(getenv("ALLOW_MUTATIONS"))
	fs.Var(&c.Mutations, "allow-mutations", "enable write tools: no value for all, or a comma-separated list of "+strings.Join(writes, ", ")+" (env ALLOW_MUTATIONS)")
	fs.BoolVar(&c.HideDisabledTools, "hide-disabled-tools", env.bool("HIDE_DISABLED_TOOLS"), "leave disabled write tools out of tools/list")
	fs.BoolVar(&c.FeedbackTool, "feedback-tool", env.bool("MCP_FEEDBACK_TOOL"), "also serve report_missing_capability, with which a model records a need no tool meets (a log record and a metric; no backend call) (env MCP_FEEDBACK_TOOL)")
	fs.Var(&rateLimits, "rate-limit", "per-tool, per-caller limit TOOL=COUNT/PERIOD, e.g. ai_search=5/m; repeatable (env RATE_LIMITS, comma-separated)")
	fs.Var(&errorClasses, "error-class", "map a resolver's own errorType to a class, TYPE=CLASS (TYPE may end in *); repeatable (env ERROR_CLASSES, comma-separated)")
	fs.StringVar(&c.RedisURL, "redis-url", getenv("REDIS_URL"), "keep rate-limit buckets in this Redis, shared by all replicas: redis://[user:password@]host:port[/db] or rediss://… (env REDIS_URL; default: in this process)")
	fs.DurationVar(&c.RedisTimeout, "redis-timeout", ratelimit.DefaultRedisTimeout, "deadline for each rate-limit check in Redis; a limited call is refused when Redis does not answer in time")
	fs.DurationVar(&c.Timeout, "timeout", 15*time.Second, "deadline for each backend call")
	answerBytes := tools.DefaultAnswerBound
	if strings.TrimSpace(getenv("MCP_MAX_ANSWER_BYTES")) != "" {
		answerBytes = env.int("MCP_MAX_ANSWER_BYTES")
	}
	fs.IntVar(&c.MaxAnswerBytes, "max-answer-bytes", answerBytes, maxAnswerUsage)
	fs.StringVar(&c.LogFormat, "log-format", envOr(getenv("LOG_FORMAT"), "text"), "log format on stderr: text or json")
	fs.StringVar(&c.LogLevel, "log-level", envOr(getenv("LOG_LEVEL"), "info"), "log level: debug, info, warn or error")
	version := fs.Bool("version", false, "print the version, the VCS revision, whether the tree was modified and the catalogue hash, then exit")
	finishHTTP := httpFlags(fs, &c.HTTP, getenv)
	finishConfirm := confirmFlags(fs, &c.Confirm, getenv)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(usage)
			usageWithEnvironment(fs, usage)()
			return c, err
		}
		return c, flagError(fs, err)
	}
	if *version {
		return c, ErrVersion // whatever else is set: a version is always printable
	}
	if mutationsErr != nil {
		return c, fmt.Errorf("ALLOW_MUTATIONS: %w", mutationsErr)
	}
	finishHTTP()
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected argument %q; flags start with --", fs.Arg(0))
	}
	if env.err != nil {
		return c, env.err
	}
	if env := getenv("RATE_LIMITS"); env != "" {
		c.RateLimits = append(c.RateLimits, env)
	}
	c.RateLimits = append(c.RateLimits, rateLimits...)
	switch m := auth.Method(strings.ToLower(authFlag)); m {
	case "", auth.OIDC, auth.SigV4, auth.APIKey:
		c.Auth = m
	default:
		return c, fmt.Errorf("--auth: %q is not oidc, sigv4 or apikey", authFlag)
	}
	if !c.Embedded && c.Endpoint == "" {
		return c, errors.New("no backend: set --endpoint (or APPSYNC_ENDPOINT) to the AppSync GraphQL URL, or use --embedded for the local demo backend")
	}
	if c.Embedded && c.Endpoint != "" {
		return c, errors.New("--embedded and --endpoint exclude each other: the embedded backend chooses its own endpoint")
	}
	var err error
	if c.ErrorClasses, err = parseErrorClasses(getenv("ERROR_CLASSES"), errorClasses); err != nil {
		return c, err
	}
	if err := validateHTTP(&c); err != nil {
		return c, err
	}
	if err := finishConfirm(); err != nil {
		return c, err
	}
	if err := c.checkConfirm(); err != nil {
		return c, err
	}
	return c, c.check(getenv, names)
}

func envOr(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// maxAnswerBytes is the largest --max-answer-bytes: an answer past a
// megabyte is no longer something a model reads.
const maxAnswerBytes = 1 << 20

// maxAnswerUsage describes --max-answer-bytes in --help.
var maxAnswerUsage = fmt.Sprintf("the most bytes one tool answer may carry, its structured JSON and its text counted; "+
	"a list answer past it is cut at a whole record, with truncated: true, a note and a cursor to the rest; %d to %d (env MCP_MAX_ANSWER_BYTES)",
	tools.MinAnswerBound, maxAnswerBytes)

// flagError rewrites the flag package's errors as one line that names the
// flag as the person wrote it and what to do: a misspelt flag gets the
// closest real one, a bad value what the flag takes.
func flagError(fs *flag.FlagSet, err error) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		name = strings.TrimLeft(name, "-")
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		if near := suggest.Near(name, names, 1); len(near) > 0 {
			return fmt.Errorf("unknown flag --%s; did you mean --%s? (mcp-server --help lists every flag)", name, near[0])
		}
		return fmt.Errorf("unknown flag --%s; mcp-server --help lists every flag", name)
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: "); ok {
		return fmt.Errorf("--%s needs a value: --%s VALUE (mcp-server --help says what it takes)", strings.TrimLeft(name, "-"), strings.TrimLeft(name, "-"))
	}
	// invalid value "x" for flag -name: why
	if rest, ok := strings.CutPrefix(msg, "invalid value "); ok {
		if value, tail, ok := strings.Cut(rest, " for flag -"); ok {
			name, why, _ := strings.Cut(tail, ": ")
			name = strings.TrimLeft(name, "-")
			if f := fs.Lookup(name); f != nil {
				return fmt.Errorf("--%s %s: %s; it takes %s", name, value, why, strings.TrimSuffix(f.Usage, "."))
			}
		}
	}
	if rest, ok := strings.CutPrefix(msg, "invalid boolean value "); ok {
		if value, name, ok := strings.Cut(rest, " for -"); ok {
			name, _, _ = strings.Cut(name, ":")
			return fmt.Errorf("--%s %s: not true or false; write --%s alone for true, or --%s=false", name, value, name, name)
		}
	}
	return err
}
