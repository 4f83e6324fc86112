package config

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/companyintel/mcp-server/auth"
	"github.com/companyintel/mcp-server/ratelimit"
	"github.com/companyintel/mcp-server/tools"
)

// Misconfiguration stops start-up before anything starts (no backend, no
// issuer, no port), with one line that names the flag or variable and the
// fix; cmd/server exits 2 on it.

// endpointExample is a correct --endpoint, shown with every endpoint error.
const endpointExample = "--endpoint https://abc123example.appsync-api.eu-west-1.amazonaws.com/graphql"

// maxTimeout bounds --timeout: a backend call longer than this holds an
// agent's turn for minutes, which no deployment wants.
const maxTimeout = 10 * time.Minute

// check validates what ParseConfig read, in the order an operator would fix
// it: where the backend is, then sizes, then the specs.
func (c Config) check(getenv func(string) string, toolNames []string) error {
	if !c.Embedded {
		if err := checkEndpoint(c.Endpoint); err != nil {
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
	if c.Timeout <= 0 || c.Timeout > maxTimeout {
		return fmt.Errorf("--timeout: %s is out of range; give a duration above 0 and at most %s, e.g. --timeout 15s", c.Timeout, maxTimeout)
	}
	if c.MaxAnswerBytes < tools.MinAnswerBound || c.MaxAnswerBytes > maxAnswerBytes {
		return fmt.Errorf("--max-answer-bytes (MCP_MAX_ANSWER_BYTES): %d is out of range; give %d to %d, e.g. --max-answer-bytes %d",
			c.MaxAnswerBytes, tools.MinAnswerBound, maxAnswerBytes, tools.DefaultAnswerBound)
	}
	if _, err := NewLogger(nil, c.LogFormat, c.LogLevel); err != nil {
		return err
	}
	// Rate-limit specs are checked here, before the embedded backend
	// builds its database, not after.
	if _, err := ratelimit.ParseSpecs(c.RateLimits, toolNames); err != nil {
		return fmt.Errorf("--rate-limit: %w", err)
	}
	return c.checkRedis()
}

// checkRedis checks --redis-url without connecting: Redis being down at
// start-up is an outage the server rides out, a URL that cannot work is not.
func (c Config) checkRedis() error {
	if c.RedisURL != "" {
		if _, err := ratelimit.ParseRedisURL(c.RedisURL); err != nil {
			return fmt.Errorf("--redis-url (REDIS_URL): %w", err)
		}
	}
	if c.RedisTimeout <= 0 || c.RedisTimeout > time.Minute {
		return fmt.Errorf("--redis-timeout: %s is out of range; give a duration above 0 and at most 1m, e.g. --redis-timeout 50ms", c.RedisTimeout)
	}
	return nil
}

// checkEndpoint checks --endpoint: an absolute https URL with a host and a
// path (AppSync's ends in /graphql); plain http only to loopback, since the
// credentials ride on every request.
func checkEndpoint(raw string) error {
	s := strings.TrimSpace(raw)
	fail := func(problem string) error {
		return fmt.Errorf("--endpoint (APPSYNC_ENDPOINT): %s; give the API's full GraphQL URL, e.g. %s", problem, endpointExample)
	}
	if !strings.Contains(s, "://") {
		return fail(fmt.Sprintf("%q has no scheme", s))
	}
	u, err := url.Parse(s)
	if err != nil {
		return fail(fmt.Sprintf("%q is not a URL", s))
	}
	if err := auth.CheckSecureURL(s); err != nil {
		return fail(err.Error())
	}
	if u.Path == "" || u.Path == "/" {
		return fail(fmt.Sprintf("%q has no path", s))
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return fail(fmt.Sprintf("%q carries a query or fragment", s))
	}
	return nil
}

// parseErrorClasses reads ERROR_CLASSES (comma-separated) and the repeated
// --error-class flags, the flags last so they win for the same type.
func parseErrorClasses(env string, flags []string) (tools.ErrorClasses, error) {
	var specs []string
	for spec := range strings.SplitSeq(env, ",") {
		if strings.TrimSpace(spec) != "" {
			specs = append(specs, spec)
		}
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
		return ec, fmt.Errorf("--error-class (ERROR_CLASSES): %w", err)
	}
	return ec, nil
}

// envReader reads typed environment variables, keeping the first that does
// not parse: a variable set to a value that means nothing is a mistake to
// report, never a silent fall back to the default.
type envReader struct {
	getenv func(string) string
	err    error
}

func (e *envReader) bool(name string) bool {
	v := strings.TrimSpace(e.getenv(name))
	if v == "" {
		return false
	}
	switch strings.ToLower(v) {
	case "1", "t", "true", "yes", "y", "on":
		return true
	case "0", "f", "false", "no", "n", "off":
		return false
	}
	if e.err == nil {
		e.err = fmt.Errorf("%s: %q is not true or false; set %s=true or unset it", name, v, name)
	}
	return false
}

func (e *envReader) int(name string) int {
	v := strings.TrimSpace(e.getenv(name))
	if v == "" {
		return 0
	}
	n, err := strconv.Atoi(v)
	if err != nil && e.err == nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
			e.err = fmt.Errorf("%s: %q is out of range", name, v)
		} else {
			e.err = fmt.Errorf("%s: %q is not a whole number; set it like %s=20000", name, v, name)
		}
	}
	return n
}

// misconfiguration is a start-up failure the operator fixes in flags or
// the environment, as opposed to a failure while serving.
type misconfiguration struct{ err error }

func (m misconfiguration) Error() string { return m.err.Error() }
func (m misconfiguration) Unwrap() error { return m.err }

// Misconfigured marks err as the operator's to fix in the flags or the
// environment.
func Misconfigured(err error) error { return misconfiguration{err} }

// IsMisconfiguration reports whether an error from ParseConfig or Run is the
// operator's to fix (cmd/server exits 2 for it, 1 for anything else).
func IsMisconfiguration(err error) bool {
	var m misconfiguration
	return errors.As(err, &m)
}
