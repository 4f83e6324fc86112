package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A mistake on the command line is one line naming what was written and
// the fix (Parse prints nothing; the command line prints the line).
func TestFlagMistakesGetOneLine(t *testing.T) {
	tests := []struct {
		args []string
		says []string
	}{
		{[]string{"--endpoitn", "https://x.example/graphql"}, []string{"unknown flag --endpoitn", "did you mean --endpoint?"}},
		{[]string{"--alow-mutations"}, []string{"unknown flag --alow-mutations", "did you mean --allow-mutations?"}},
		{[]string{"--http-addr", "127.0.0.1:8080"}, []string{"unknown flag --http-addr", "did you mean --http?"}},
		{[]string{"--zzzzzz"}, []string{"unknown flag --zzzzzz", "mcp-server --help lists every flag"}},
		{[]string{"--timeout", "abc"}, []string{`--timeout "abc": not a duration`, "deadline for each backend call"}},
		{[]string{"--companies", "lots"}, []string{`--companies "lots": not a whole number`}},
		{[]string{"--embedded=maybe"}, []string{`--embedded "maybe"`, "--embedded alone for true"}},
		{[]string{"--allow-mutations=delete_all"}, []string{`--allow-mutations "delete_all": unknown write tool "delete_all"`, "create_collection"}},
		{[]string{"--endpoint"}, []string{"--endpoint needs a value"}},
		{append(append([]string{}, endpoint...), "--http", "8080"), []string{"--http 8080 is a port alone", "--http 127.0.0.1:8080"}},
		{append(append([]string{}, endpoint...), "--http", "8080:"), []string{"--http 8080: is a port alone", "--http 127.0.0.1:8080"}},
		{append(append([]string{}, endpoint...), "--http", ":8080"), []string{"--http :8080 listens on every interface", "--oauth-issuer URL"}},
		{append(append([]string{}, endpoint...), "--http", "127.0.0.1:http"), []string{"--http 127.0.0.1:http is not host:port with a numeric port"}},
		{append(append([]string{}, endpoint...), "extra"), []string{`unexpected argument "extra"`}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, err := parse(tt.args, func(string) string { return "" })
			require.Error(t, err)
			for _, s := range tt.says {
				assert.Contains(t, err.Error(), s)
			}
			assert.NotContains(t, err.Error(), "\n", "one line")
			assert.NotContains(t, err.Error(), "Usage", "never the usage")
		})
	}
}

// A port given alone is called that, whichever way it was given, and never
// "not a loopback address" (it names no address at all).
func TestABarePortIsNeverCalledNotLoopback(t *testing.T) {
	for _, port := range []string{"8080", "0", "8080:", "65535"} {
		for _, given := range []struct {
			args []string
			env  map[string]string
		}{
			{append(append([]string{}, endpoint...), "--http", port), nil},
			{endpoint, map[string]string{"MCP_HTTP_ADDR": port}},
			{append(append([]string{}, endpoint...), "--http", port, "--oauth-issuer", "https://login.example.com"), nil},
		} {
			_, err := parseWith(given.args, given.env)
			require.Error(t, err, port)
			assert.Contains(t, err.Error(), "is a port alone", port)
			assert.NotContains(t, err.Error(), "loopback address", port)
		}
	}
}

// mistake is a setting given a value that means nothing, with what else a
// configuration needs for that setting to be read: its message must name
// the setting as it was given (the variable, or the flag) and not the other.
type mistake struct {
	flag, env string
	value     string
	// base is the rest of the command line (an endpoint or --embedded, the
	// HTTP service the setting belongs to).
	base []string
}

// mistakes covers every flag that has a variable (bindings); the embedded
// backend's own (embeddedMistakes) only in a build that has it.
var mistakes = append([]mistake{
	{"endpoint", "APPSYNC_ENDPOINT", "abc.example.com/graphql", nil},
	{"embedded", "MCP_EMBEDDED", "maybe", endpoint},
	{"auth", "MCP_AUTH", "password", endpoint},
	{"allow-mutations", "ALLOW_MUTATIONS", "delete_everything", endpoint},
	{"hide-disabled-tools", "HIDE_DISABLED_TOOLS", "perhaps", endpoint},
	{"feedback-tool", "MCP_FEEDBACK_TOOL", "perhaps", endpoint},
	{"schema-extensions", "MCP_SCHEMA_EXTENSIONS", "maybe", endpoint},
	{"rate-limit", "RATE_LIMITS", "ai_search=lots", endpoint},
	{"error-class", "ERROR_CLASSES", "OrderStateConflict=gone", endpoint},
	{"redis-url", "REDIS_URL", "redis://:secret@cache.example:6379", endpoint},
	{"max-answer-bytes", "MCP_MAX_ANSWER_BYTES", "100", endpoint},
	{"log-format", "LOG_FORMAT", "xml", endpoint},
	{"log-level", "LOG_LEVEL", "loud", endpoint},
	{"http", "MCP_HTTP_ADDR", "8080", endpoint},
	{"public-url", "MCP_PUBLIC_URL", "http://mcp.example.com/mcp", withHTTP},
	{"oauth-issuer", "MCP_OAUTH_ISSUERS", "http://login.example.com", withHTTP},
	{"read-scope", "MCP_READ_SCOPE", "companies:write", withHTTP},
	{"write-scope", "MCP_WRITE_SCOPE", "companies write", withHTTP},
	{"upstream-auth", "MCP_UPSTREAM_AUTH", "mine", append(append([]string{}, withHTTP...), "--oauth-issuer", "https://login.example.com")},
	{"allowed-origins", "MCP_ALLOWED_ORIGINS", "app.example.com", withHTTP},
	{"allowed-hosts", "MCP_ALLOWED_HOSTS", "https://mcp.example.com/mcp", withHTTP},
	{"confirm-writes", "CONFIRM_WRITES", "maybe", endpoint},
	{"confirm-state-key", "CONFIRM_STATE_KEY", "hunter2hunter2", endpoint},
	{"export-dir", "MCP_EXPORT_DIR", "/nonexistent/exports", endpoint},
	{"export-limit", "MCP_EXPORT_LIMIT", "lots", endpoint},
	{"max-concurrent-exports", "MCP_MAX_CONCURRENT_EXPORTS", "0", endpoint},
}, embeddedMistakes...)

// endpoint and withHTTP are configurations that need nothing more, for the
// setting under test to be read: a backend, and a backend served over HTTP.
var (
	endpoint = []string{"--endpoint", "https://abc.example.com/graphql"}
	withHTTP = []string{"--endpoint", "https://abc.example.com/graphql", "--http", "127.0.0.1:8080"}
)

// Every variable set to a value that means nothing is refused in one line
// that names the variable, not the flag it stands in for; and the same
// value given as the flag names the flag, not the variable. The table
// covers every binding, so a new flag with a variable must join it.
func TestEachSettingIsNamedAsItWasGiven(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a-file")
	require.NoError(t, os.WriteFile(file, nil, 0o600))
	covered := map[string]bool{}
	for _, m := range mistakes {
		covered[m.flag] = true
		value := m.value
		if m.flag == "data-dir" {
			value = file
		}
		t.Run(m.env, func(t *testing.T) {
			_, err := parseWith(m.base, map[string]string{m.env: value})
			require.Error(t, err, "%s=%s", m.env, value)
			msg := err.Error()
			assert.Contains(t, msg, m.env)
			assert.NotContains(t, msg, "--"+m.flag+" ", "the flag was not given")
			assert.NotContains(t, msg, "--"+m.flag+":", "the flag was not given")
			assert.NotContains(t, msg, "--"+m.flag+"=", "the flag was not given")
			assert.NotContains(t, msg, "\n", "one line")
			assert.NotContains(t, msg, "secret", "a password is not repeated")
		})
		t.Run("--"+m.flag, func(t *testing.T) {
			_, err := parseWith(append(append([]string{}, m.base...), "--"+m.flag+"="+value), nil)
			require.Error(t, err, "--%s=%s", m.flag, value)
			msg := err.Error()
			assert.Contains(t, msg, "--"+m.flag)
			assert.NotContains(t, msg, m.env, "the variable was not set")
			assert.NotContains(t, msg, "\n", "one line")
			assert.NotContains(t, msg, "secret", "a password is not repeated")
		})
	}
	for _, b := range bindings {
		if why, ok := unreadable[b.flag]; ok {
			t.Logf("--%s (%s) has no case in this build: %s", b.flag, b.env, why)
			continue
		}
		assert.True(t, covered[b.flag], "--%s (%s) has no case in mistakes", b.flag, b.env)
	}
}

// The variables without a flag are named when they are wrong too.
func TestVariablesWithoutAFlagAreNamed(t *testing.T) {
	exchange := append(append([]string{}, endpoint...), "--http", "127.0.0.1:8080", "--oauth-issuer", "https://login.example.com", "--upstream-auth", "exchange")
	tests := []struct {
		args []string
		env  map[string]string
		says string
	}{
		{endpoint, map[string]string{"OIDC_ISSUER": "http://idp.example.com"}, "OIDC_ISSUER: "},
		{exchange, map[string]string{"MCP_EXCHANGE_CLIENT_ID": "mcp"}, "needs MCP_EXCHANGE_CLIENT_ID and MCP_EXCHANGE_CLIENT_SECRET"},
		{exchange, map[string]string{"MCP_EXCHANGE_CLIENT_ID": "mcp", "MCP_EXCHANGE_CLIENT_SECRET": "s", "MCP_EXCHANGE_AUDIENCE": "a",
			"MCP_EXCHANGE_TOKEN_URL": "http://idp.example.com/token"}, "MCP_EXCHANGE_TOKEN_URL: "},
	}
	for _, tt := range tests {
		_, err := parseWith(tt.args, tt.env)
		require.Error(t, err)
		assert.Contains(t, err.Error(), tt.says)
	}
}

// A fix names the other settings it asks for the way the person gave the
// one refused: whoever configures through the environment is told which
// variables to set.
func TestAFixNamesOtherSettingsTheSameWay(t *testing.T) {
	_, err := parseWith(endpoint, map[string]string{"MCP_HTTP_ADDR": "0.0.0.0:8080"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "MCP_HTTP_ADDR=0.0.0.0:8080 is not a loopback address")
	assert.Contains(t, err.Error(), "set MCP_OAUTH_ISSUERS=URL and MCP_PUBLIC_URL=URL")
	_, err = parseWith(append(append([]string{}, endpoint...), "--http", "0.0.0.0:8080"), nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "set --oauth-issuer URL and --public-url URL")

	_, err = parseWith(endpoint, map[string]string{"MCP_PUBLIC_URL": "https://mcp.example.com/mcp"})
	require.Error(t, err)
	assert.Equal(t, "MCP_PUBLIC_URL applies to HTTP mode only: add MCP_HTTP_ADDR=ADDR", err.Error())

	_, err = parseWith([]string{"--endpoint", "https://abc.example.com/graphql"}, map[string]string{"MCP_EMBEDDED": "true"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "MCP_EMBEDDED and --endpoint exclude each other")
}

// A flag given explicitly wins over its variable, and a variable the flag
// overrides is not read (so its mistakes do not matter).
func TestAFlagWinsOverItsVariable(t *testing.T) {
	http := append(append([]string{}, endpoint...), "--http", "127.0.0.1:8080")
	env := map[string]string{"MCP_HTTP_ADDR": "8080", "MCP_MAX_ANSWER_BYTES": "20k", "LOG_LEVEL": "debug"}
	c, err := parseWith(http, env)
	require.Error(t, err, "MCP_MAX_ANSWER_BYTES is still read: no flag overrides it")
	assert.Contains(t, err.Error(), "MCP_MAX_ANSWER_BYTES")
	c, err = parseWith(append(http, "--max-answer-bytes", "4096"), env)
	require.NoError(t, err)
	assert.Equal(t, "127.0.0.1:8080", c.HTTP.Addr)
	assert.Equal(t, 4096, c.MaxAnswerBytes)
	assert.Equal(t, "debug", c.LogLevel)
	assert.Equal(t, "--http", c.Name("http"))
	assert.Equal(t, "LOG_LEVEL", c.Name("log-level"))
	assert.Equal(t, "LOG_LEVEL=warn", c.Setting("log-level", "warn"))

	// The credential chain names a forced method this way when it is not
	// configured (auth.Options.ForcedBy).
	c, err = parseWith(endpoint, map[string]string{"MCP_AUTH": "APIKey"})
	require.NoError(t, err)
	assert.Equal(t, "MCP_AUTH=apikey", c.Setting("auth", string(c.Auth)))
	c, err = parseWith(append(append([]string{}, endpoint...), "--auth", "apikey"), map[string]string{"MCP_AUTH": "oidc"})
	require.NoError(t, err)
	assert.Equal(t, "--auth apikey", c.Setting("auth", string(c.Auth)))
}

// --help shows each flag's built-in default and the variable beside it,
// never a value from the environment (which may be a secret).
func TestUsageShowsDefaultsAndVariables(t *testing.T) {
	var out strings.Builder
	PrintUsage(&out, catalogue())
	help := out.String()
	for _, s := range []string{"-endpoint", "(env APPSYNC_ENDPOINT)", "(env RATE_LIMITS, comma-separated)", `(default "ask")`, "Environment", "create_collection, add_to_collection"} {
		assert.Contains(t, help, s)
	}
}

// --version is answered whatever else the flags and the environment say:
// a broken configuration must not hide which build is installed.
func TestVersionFlagWinsOverTheRest(t *testing.T) {
	env := map[string]string{"ALLOW_MUTATIONS": "not_a_tool"}
	_, err := parseWith([]string{"--version"}, env)
	assert.ErrorIs(t, err, ErrVersion, "no endpoint, a bad ALLOW_MUTATIONS")
	_, err = parseWith(endpoint, env)
	assert.ErrorContains(t, err, "ALLOW_MUTATIONS", "without --version the bad variable is still refused")
}
