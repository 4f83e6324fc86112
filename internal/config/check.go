package config

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/companyintel/mcp-server/auth"
	"github.com/companyintel/mcp-server/ratelimit"
	"github.com/companyintel/mcp-server/tools"
)

// Misconfiguration stops start-up before anything starts (no backend, no
// issuer, no port), with one line that names the flag or variable and the
// fix; the command line exits 2 on it.

// endpointExample is a correct --endpoint, shown with every endpoint error.
const endpointExample = "https://abc123example.appsync-api.eu-west-1.amazonaws.com/graphql"

// maxTimeout bounds --timeout: a backend call longer than this holds an
// agent's turn for minutes, which no deployment wants.
const maxTimeout = 10 * time.Minute

// check validates what Parse read, in the order an operator would fix it:
// where the backend is, then sizes, then the specs.
func (c Config) check(getenv func(string) string, toolNames []string) error {
	s := c.from
	if !c.Embedded {
		if err := checkEndpoint(c.Endpoint, s); err != nil {
			return err
		}
	}
	if iss := strings.TrimSpace(getenv("OIDC_ISSUER")); iss != "" {
		if err := auth.CheckSecureURL(iss); err != nil {
			return fmt.Errorf("OIDC_ISSUER: %s; set it to the issuer's https URL, e.g. OIDC_ISSUER=https://login.example.com/realms/main", err)
		}
	}
	if err := checkEmbedded(c); err != nil {
		return err
	}
	if c.DataDir != "" {
		// A missing directory is made at start; a file in its place is a
		// mistake to name now, not after the backend began.
		if fi, err := os.Stat(c.DataDir); err == nil && !fi.IsDir() {
			return fmt.Errorf("%s is a file, not a directory; give a directory for the embedded backend's database, or unset it for the user cache dir", s.setting("data-dir", c.DataDir))
		}
	}
	if c.Timeout <= 0 || c.Timeout > maxTimeout {
		return fmt.Errorf("--timeout %s is out of range; give a duration above 0 and at most %s, e.g. --timeout 15s", c.Timeout, maxTimeout)
	}
	if c.MaxAnswerBytes < tools.MinAnswerBound || c.MaxAnswerBytes > maxAnswerBytes {
		return fmt.Errorf("%s is out of range; give %d to %d, e.g. %s",
			s.setting("max-answer-bytes", strconv.Itoa(c.MaxAnswerBytes)), tools.MinAnswerBound, maxAnswerBytes, s.setting("max-answer-bytes", strconv.Itoa(tools.DefaultAnswerBound)))
	}
	if !validLevel(c.LogLevel) {
		return fmt.Errorf("%s: %q is not one of debug, info, warn, error", s.name("log-level"), c.LogLevel)
	}
	if !validFormat(c.LogFormat) {
		return fmt.Errorf("%s: %q is not text or json", s.name("log-format"), c.LogFormat)
	}
	return c.checkRedis()
}

// checkRedis checks --redis-url without connecting: Redis being down at
// start-up is an outage the server rides out, a URL that cannot work is not.
func (c Config) checkRedis() error {
	if c.RedisURL != "" {
		if _, err := ratelimit.ParseRedisURL(c.RedisURL); err != nil {
			return fmt.Errorf("%s: %w", c.from.name("redis-url"), err)
		}
	}
	if c.RedisTimeout <= 0 || c.RedisTimeout > time.Minute {
		return fmt.Errorf("--redis-timeout %s is out of range; give a duration above 0 and at most 1m, e.g. --redis-timeout 50ms", c.RedisTimeout)
	}
	return nil
}

// checkEndpoint checks --endpoint: an absolute https URL with a host and a
// path (AppSync's ends in /graphql); plain http only to loopback, since the
// credentials ride on every request.
func checkEndpoint(raw string, s sources) error {
	v := strings.TrimSpace(raw)
	fail := func(problem string) error {
		return fmt.Errorf("%s: %s; give the API's full GraphQL URL, e.g. %s", s.name("endpoint"), problem, s.setting("endpoint", endpointExample))
	}
	if !strings.Contains(v, "://") {
		return fail(fmt.Sprintf("%q has no scheme", v))
	}
	u, err := url.Parse(v)
	if err != nil {
		return fail(fmt.Sprintf("%q is not a URL", v))
	}
	if err := auth.CheckSecureURL(v); err != nil {
		return fail(err.Error())
	}
	if u.Path == "" || u.Path == "/" {
		return fail(fmt.Sprintf("%q has no path", v))
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return fail(fmt.Sprintf("%q carries a query or fragment", v))
	}
	return nil
}

// parseErrorClasses reads ERROR_CLASSES (comma-separated) and the repeated
// --error-class flags, the flags last so they win for the same type. Each
// is checked where it was given, so that a refusal names it.
func parseErrorClasses(env string, flags []string) (tools.ErrorClasses, error) {
	var specs []string
	for spec := range strings.SplitSeq(env, ",") {
		if strings.TrimSpace(spec) != "" {
			specs = append(specs, spec)
		}
	}
	if _, err := tools.ParseErrorClasses(specs); err != nil {
		return tools.ErrorClasses{}, fmt.Errorf("ERROR_CLASSES: %w", err)
	}
	if _, err := tools.ParseErrorClasses(flags); err != nil {
		return tools.ErrorClasses{}, fmt.Errorf("--error-class: %w", err)
	}
	fromEnv := len(specs)
	specs = append(specs, flags...)
	// A flag may remap a type the environment mapped: drop the earlier one.
	seen := map[string]bool{}
	var kept []string
	for i := len(specs) - 1; i >= 0; i-- {
		typ, _, _ := strings.Cut(specs[i], "=")
		key := strings.ToLower(strings.TrimSpace(typ))
		if seen[key] && i < fromEnv {
			continue
		}
		seen[key] = true
		kept = append([]string{specs[i]}, kept...)
	}
	ec, err := tools.ParseErrorClasses(kept)
	if err != nil {
		return ec, fmt.Errorf("ERROR_CLASSES and --error-class: %w", err)
	}
	return ec, nil
}

// misconfiguration is a start-up failure the operator fixes in flags or
// the environment, as opposed to a failure while serving.
type misconfiguration struct{ err error }

func (m misconfiguration) Error() string { return m.err.Error() }
func (m misconfiguration) Unwrap() error { return m.err }

// Misconfigured marks err as the operator's to fix in the flags or the
// environment.
func Misconfigured(err error) error { return misconfiguration{err} }

// IsMisconfiguration reports whether an error from Parse, or from starting
// the server, is the operator's to fix (the command line exits 2 for it, 1
// for anything else).
func IsMisconfiguration(err error) bool {
	var m misconfiguration
	return errors.As(err, &m)
}
