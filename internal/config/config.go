// Package config is the server's configuration: every flag and environment
// variable is read here, once, into a Config, and checked before anything
// starts. A mistake is refused in one line that names the setting as the
// person gave it (the flag, or the variable) and says how to fix it.
package config

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
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
	// SchemaExtensions is auto, on or off (--schema-extensions,
	// MCP_SCHEMA_EXTENSIONS): whether the backend has the extensions of the
	// API's original schema, or auto to ask it at start-up.
	SchemaExtensions string
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
	// Warnings are the environment's variables that look meant for the
	// server but are not its own (EnvironmentWarnings); the command line
	// fills them in and the server logs them at start.
	Warnings []EnvWarning
	// ValidateOutput checks results against their outputSchema (tests).
	ValidateOutput bool
	// ErrorClasses map a resolver's own errorTypes to classes
	// (--error-class, ERROR_CLASSES).
	ErrorClasses tools.ErrorClasses
	// HTTP configures the HTTP service (--http and the flags beside it).
	HTTP HTTPConfig
	// Confirm is how writes are confirmed by a person (confirm.go).
	Confirm ConfirmConfig
	// Export bounds export reads and names the stdio export directory
	// (export.go).
	Export ExportConfig

	// from says how each setting was given (names.go).
	from sources
}

// ErrVersion is what Parse returns for --version: print the build and exit
// 0, whatever else the flags say.
var ErrVersion = errors.New("--version")

// repeated is a flag that may be given several times.
type repeated []string

func (r *repeated) String() string     { return strings.Join(*r, ",") }
func (r *repeated) Set(s string) error { *r = append(*r, s); return nil }

// flags are the values of the flags that Config does not hold as they are
// given: they are read into it after parsing.
type flags struct {
	auth                     string
	rateLimits, errorClasses repeated
	issuers, origins, hosts  repeated
	confirmMode, confirmKey  string
	exportLimit              string
	version                  bool
	writes, names            []string
}

// newFlagSet registers every flag on a new flag set, with its built-in
// default: the environment is read after parsing (fromEnvironment), so
// that --help shows the defaults and never a value from the environment,
// which may be a secret. It prints nothing itself: a mistake is refused in
// one line (FlagError), and --help is printed by PrintUsage.
func newFlagSet(c *Config, catalogue []tools.Facts) (*flag.FlagSet, *flags) {
	fs := flag.NewFlagSet("mcp-server", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	f := &flags{}
	for _, t := range catalogue {
		f.names = append(f.names, t.Name)
		if t.Writes() {
			f.writes = append(f.writes, t.Name)
		}
	}
	c.Mutations = Mutations{writes: f.writes}
	fs.StringVar(&c.Endpoint, "endpoint", "", "AppSync GraphQL URL")
	fs.BoolVar(&c.Embedded, "embedded", false, "start the embedded local backend in-process and use it (a complete demo)")
	fs.StringVar(&c.DataDir, "data-dir", "", "embedded backend: where its database lives (default: the user cache dir)")
	fs.IntVar(&c.Companies, "companies", defaultCompanies, companiesUsage)
	fs.StringVar(&f.auth, "auth", "", "force one auth method: oidc, sigv4 or apikey (default: the chain OIDC, SigV4, API key)")
	fs.Var(&c.Mutations, "allow-mutations", "enable write tools: no value for all, or a comma-separated list of "+strings.Join(f.writes, ", "))
	fs.BoolVar(&c.HideDisabledTools, "hide-disabled-tools", false, "leave disabled write tools out of tools/list")
	fs.BoolVar(&c.FeedbackTool, "feedback-tool", false, "also serve report_missing_capability, with which a model records a need no tool meets (a log record and a metric; no backend call)")
	fs.StringVar(&c.SchemaExtensions, "schema-extensions", "auto", "whether the backend has the extensions of the API's original schema (removeFromCollection, search sort/bounds): auto asks it at start-up (introspection, else a validation-only probe), on or off says so; tools that need one are served only where it is present")
	fs.Var(&f.rateLimits, "rate-limit", "per-tool, per-caller limit TOOL=COUNT/PERIOD, e.g. ai_search=5/m; repeatable")
	fs.Var(&f.errorClasses, "error-class", "map a resolver's own errorType to a class, TYPE=CLASS (TYPE may end in *); repeatable")
	fs.StringVar(&c.RedisURL, "redis-url", "", "keep rate-limit buckets in this Redis, shared by all replicas: redis://[user:password@]host:port[/db] or rediss://… (default: in this process)")
	fs.DurationVar(&c.RedisTimeout, "redis-timeout", ratelimit.DefaultRedisTimeout, "deadline for each rate-limit check in Redis; a limited call is refused when Redis does not answer in time")
	fs.DurationVar(&c.Timeout, "timeout", 15*time.Second, "deadline for each backend call")
	fs.IntVar(&c.MaxAnswerBytes, "max-answer-bytes", tools.DefaultAnswerBound, maxAnswerUsage)
	fs.StringVar(&c.LogFormat, "log-format", "text", "log format on stderr: text or json")
	fs.StringVar(&c.LogLevel, "log-level", "info", "log level: debug, info, warn or error")
	fs.BoolVar(&f.version, "version", false, "print the version, the VCS revision, whether the tree was modified and the catalogue hash, then exit")
	httpFlags(fs, &c.HTTP, f)
	confirmFlags(fs, f)
	exportFlags(fs, &c.Export, f)
	// --help says which variable stands in for each flag.
	for _, b := range bindings {
		if fl := fs.Lookup(b.flag); fl != nil {
			if b.list {
				fl.Usage += " (env " + b.env + ", comma-separated)"
			} else {
				fl.Usage += " (env " + b.env + ")"
			}
		}
	}
	return fs, f
}

// Parse reads flags from args, with the environment (through getenv) as the
// fallback for each: a flag given explicitly wins over its variable, except
// for the list flags, where the two add up. catalogue is every tool the
// server can serve (the names --rate-limit and --allow-mutations accept):
// the tools are assembled elsewhere, and configuration only needs their
// facts. It returns flag.ErrHelp for --help (PrintUsage prints it) and
// ErrVersion for --version.
func Parse(args []string, getenv func(string) string, catalogue []tools.Facts) (Config, error) {
	var c Config
	fs, f := newFlagSet(&c, catalogue)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return c, err
		}
		return c, FlagError(fs, err)
	}
	if f.version {
		return c, ErrVersion // whatever else is set: a version is always printable
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected argument %q; flags start with --", fs.Arg(0))
	}
	c.from = sources{flags: map[string]bool{}, env: map[string]bool{}, envItems: map[string]map[string]bool{}}
	fs.Visit(func(fl *flag.Flag) { c.from.flags[fl.Name] = true })
	if err := c.fromEnvironment(fs, getenv); err != nil {
		return c, err
	}
	if err := c.readFlags(f, getenv); err != nil {
		return c, err
	}
	if !c.Embedded && c.Endpoint == "" {
		return c, errors.New("no backend: set --endpoint (or APPSYNC_ENDPOINT) to the AppSync GraphQL URL, or use --embedded (or MCP_EMBEDDED=true) for the local demo backend")
	}
	if c.Embedded && c.Endpoint != "" {
		return c, fmt.Errorf("%s and %s exclude each other: the embedded backend chooses its own endpoint; drop one", c.from.name("embedded"), c.from.name("endpoint"))
	}
	if err := validateHTTP(&c); err != nil {
		return c, err
	}
	if err := c.checkConfirm(); err != nil {
		return c, err
	}
	if err := c.readExport(f); err != nil {
		return c, err
	}
	return c, c.check(getenv, f.names)
}

// fromEnvironment sets each flag not given on the command line from its
// variable, when that is set. A variable whose value means nothing is a
// mistake to report, never a silent fall back to the default. The list
// flags are read in readFlags.
func (c *Config) fromEnvironment(fs *flag.FlagSet, getenv func(string) string) error {
	for _, b := range bindings {
		raw := getenv(b.env)
		v := strings.TrimSpace(raw)
		if b.list || v == "" || c.from.flags[b.flag] {
			continue
		}
		c.from.env[b.flag] = true
		fl := fs.Lookup(b.flag)
		getter, _ := fl.Value.(flag.Getter)
		var get any
		if getter != nil {
			get = getter.Get()
		}
		switch get.(type) {
		case bool:
			on, ok := envBool(v)
			if !ok {
				return fmt.Errorf("%s: %q is not true or false; set %s=true or unset it", b.env, v, b.env)
			}
			_ = fl.Value.Set(strconv.FormatBool(on))
		case int:
			n, err := strconv.Atoi(v)
			if err != nil {
				if ne, ok := errors.AsType[*strconv.NumError](err); ok && errors.Is(ne.Err, strconv.ErrRange) {
					return fmt.Errorf("%s: %q is out of range; set it like %s=%s", b.env, v, b.env, fl.DefValue)
				}
				return fmt.Errorf("%s: %q is not a whole number; set it like %s=%s", b.env, v, b.env, fl.DefValue)
			}
			_ = fl.Value.Set(strconv.Itoa(n))
		case string:
			_ = fl.Value.Set(raw)
		default:
			// A value of its own kind (--allow-mutations) says what is
			// wrong in its own words.
			if err := fl.Value.Set(v); err != nil {
				return fmt.Errorf("%s=%s: %w", b.env, v, err)
			}
		}
	}
	return nil
}

// envBool reads a boolean variable in the spellings people use.
func envBool(v string) (on, ok bool) {
	switch strings.ToLower(v) {
	case "1", "t", "true", "yes", "y", "on":
		return true, true
	case "0", "f", "false", "no", "n", "off":
		return false, true
	}
	return false, false
}

// readFlags reads into c the flags it does not hold as given: the list
// flags (the variable's items first, then the flags'), --auth, and the
// confirmation settings.
func (c *Config) readFlags(f *flags, getenv func(string) string) error {
	list := func(flag string, given []string) []string {
		items := splitList([]string{getenv(envOf(flag))})
		if len(items) > 0 {
			c.from.env[flag] = true
			c.from.envItems[flag] = map[string]bool{}
			for _, it := range items {
				c.from.envItems[flag][it] = true
			}
		}
		return append(items, splitList(given)...)
	}
	c.HTTP.Issuers = list("oauth-issuer", f.issuers)
	c.HTTP.AllowedOrigins = list("allowed-origins", f.origins)
	c.HTTP.AllowedHosts = list("allowed-hosts", f.hosts)
	c.HTTP.Exchange = ExchangeSettings{
		ClientID:     getenv("MCP_EXCHANGE_CLIENT_ID"),
		ClientSecret: getenv("MCP_EXCHANGE_CLIENT_SECRET"),
		Audience:     getenv("MCP_EXCHANGE_AUDIENCE"),
		TokenURL:     getenv("MCP_EXCHANGE_TOKEN_URL"),
	}
	// Each spec is checked where it was given, so that a refusal names
	// the variable or the flag.
	if env := getenv("RATE_LIMITS"); strings.TrimSpace(env) != "" {
		c.from.env["rate-limit"] = true
		if _, err := ratelimit.ParseSpecs([]string{env}, f.names); err != nil {
			return fmt.Errorf("RATE_LIMITS: %s", strings.TrimPrefix(err.Error(), "ratelimit: "))
		}
		c.RateLimits = append(c.RateLimits, env)
	}
	if _, err := ratelimit.ParseSpecs(f.rateLimits, f.names); err != nil {
		return fmt.Errorf("--rate-limit: %s", strings.TrimPrefix(err.Error(), "ratelimit: "))
	}
	c.RateLimits = append(c.RateLimits, f.rateLimits...)
	if _, err := ratelimit.ParseSpecs(c.RateLimits, f.names); err != nil {
		// Each is good alone, but together they limit a tool twice.
		return fmt.Errorf("RATE_LIMITS and --rate-limit: %s", strings.TrimPrefix(err.Error(), "ratelimit: "))
	}
	var err error
	if c.ErrorClasses, err = parseErrorClasses(getenv("ERROR_CLASSES"), f.errorClasses); err != nil {
		return err
	}
	switch c.SchemaExtensions = strings.ToLower(strings.TrimSpace(c.SchemaExtensions)); c.SchemaExtensions {
	case "", "auto":
		c.SchemaExtensions = "auto"
	case "on", "off":
	default:
		return fmt.Errorf("%s: %q is not auto, on or off; auto asks the backend at start-up", c.from.name("schema-extensions"), c.SchemaExtensions)
	}
	switch m := auth.Method(strings.ToLower(f.auth)); m {
	case "", auth.OIDC, auth.SigV4, auth.APIKey:
		c.Auth = m
	default:
		return fmt.Errorf("%s: %q is not oidc, sigv4 or apikey; give one of them, or none for the chain", c.from.name("auth"), f.auth)
	}
	return c.readConfirm(f)
}

// maxAnswerBytes is the largest --max-answer-bytes: an answer past a
// megabyte is no longer something a model reads.
const maxAnswerBytes = 1 << 20

// maxAnswerUsage describes --max-answer-bytes in --help.
var maxAnswerUsage = fmt.Sprintf("the most bytes one tool answer may carry, its structured JSON and its text counted; "+
	"a list answer past it is cut at a whole record, with truncated: true, a note and a cursor to the rest; %d to %d",
	tools.MinAnswerBound, maxAnswerBytes)

// FlagError rewrites the flag package's errors as one line that names the
// flag as the person wrote it and what to do: a misspelt flag gets the
// closest real one, a bad value what the flag takes. fs's name is the
// command ("mcp-server", "mcp-server catalog"), whose --help lists them.
func FlagError(fs *flag.FlagSet, err error) error {
	msg := err.Error()
	help := fs.Name() + " --help"
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		name = strings.TrimLeft(name, "-")
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		if near := suggest.Near(name, names, 1); len(near) > 0 {
			return fmt.Errorf("unknown flag --%s; did you mean --%s? (%s lists every flag)", name, near[0], help)
		}
		return fmt.Errorf("unknown flag --%s; %s lists every flag", name, help)
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: "); ok {
		name = strings.TrimLeft(name, "-")
		return fmt.Errorf("--%s needs a value: --%s VALUE (%s says what it takes)", name, name, help)
	}
	// invalid value "x" for flag -name: why
	// invalid boolean value "x" for -name: why
	rest, ok := strings.CutPrefix(msg, "invalid value ")
	sep := " for flag -"
	if !ok {
		rest, ok = strings.CutPrefix(msg, "invalid boolean value ")
		sep = " for -"
	}
	if !ok {
		return err
	}
	value, tail, ok := strings.Cut(rest, sep)
	name, why, _ := strings.Cut(tail, ": ")
	name = strings.TrimLeft(name, "-")
	f := fs.Lookup(name)
	if !ok || f == nil {
		return err
	}
	getter, builtin := f.Value.(flag.Getter)
	if !builtin {
		// A value of its own kind says what is wrong in its own words.
		return fmt.Errorf("--%s %s: %s", name, value, why)
	}
	switch getter.Get().(type) {
	case bool:
		return fmt.Errorf("--%s %s: not true or false; write --%s alone for true, or --%s=false", name, value, name, name)
	case time.Duration:
		why = "not a duration such as 15s or 2m"
	case int:
		why = "not a whole number"
	}
	usage, _, _ := strings.Cut(f.Usage, " (env ") // the flag's error names the flag only
	return fmt.Errorf("--%s %s: %s (--%s: %s)", name, value, why, name, strings.TrimSuffix(usage, "."))
}
