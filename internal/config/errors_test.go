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
		{[]string{"--embedded", "--http", "8080"}, []string{"--http 8080 is a port alone", "--http 127.0.0.1:8080"}},
		{[]string{"--embedded", "--http", "8080:"}, []string{"--http 8080: is a port alone", "--http 127.0.0.1:8080"}},
		{[]string{"--embedded", "--http", ":8080"}, []string{"--http :8080 listens on every interface", "--oauth-issuer URL"}},
		{[]string{"--embedded", "--http", "127.0.0.1:http"}, []string{"--http 127.0.0.1:http is not host:port with a numeric port"}},
		{[]string{"--embedded", "extra"}, []string{`unexpected argument "extra"`}},
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
			{[]string{"--embedded", "--http", port}, nil},
			{[]string{"--embedded"}, map[string]string{"MCP_HTTP_ADDR": port}},
			{[]string{"--embedded", "--http", port, "--oauth-issuer", "https://login.example.com"}, nil},
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

// mistakes covers every flag that has a variable (bindings).
var mistakes = []mistake{
	{"endpoint", "APPSYNC_ENDPOINT", "abc.example.com/graphql", nil},
	{"embedded", "MCP_EMBEDDED", "maybe", []string{"--endpoint", "https://abc.example.com/graphql"}},
	{"data-dir", "MCP_DATA_DIR", "", []string{"--embedded"}}, // value: a file, made by the test
	{"companies", "MCP_COMPANIES", "0", []string{"--embedded"}},
	{"auth", "MCP_AUTH", "password", []string{"--embedded"}},
	{"allow-mutations", "ALLOW_MUTATIONS", "delete_everything", []string{"--embedded"}},
	{"hide-disabled-tools", "HIDE_DISABLED_TOOLS", "perhaps", []string{"--embedded"}},
	{"feedback-tool", "MCP_FEEDBACK_TOOL", "perhaps", []string{"--embedded"}},
	{"rate-limit", "RATE_LIMITS", "ai_search=lots", []string{"--embedded"}},
	{"error-class", "ERROR_CLASSES", "OrderStateConflict=gone", []string{"--embedded"}},
	{"redis-url", "REDIS_URL", "redis://:secret@cache.example:6379", []string{"--embedded"}},
	{"max-answer-bytes", "MCP_MAX_ANSWER_BYTES", "100", []string{"--embedded"}},
	{"log-format", "LOG_FORMAT", "xml", []string{"--embedded"}},
	{"log-level", "LOG_LEVEL", "loud", []string{"--embedded"}},
	{"http", "MCP_HTTP_ADDR", "8080", []string{"--embedded"}},
	{"public-url", "MCP_PUBLIC_URL", "http://mcp.example.com/mcp", []string{"--embedded", "--http", "127.0.0.1:8080"}},
	{"oauth-issuer", "MCP_OAUTH_ISSUERS", "http://login.example.com", []string{"--embedded", "--http", "127.0.0.1:8080"}},
	{"read-scope", "MCP_READ_SCOPE", "companies:write", []string{"--embedded", "--http", "127.0.0.1:8080"}},
	{"write-scope", "MCP_WRITE_SCOPE", "companies write", []string{"--embedded", "--http", "127.0.0.1:8080"}},
	{"upstream-auth", "MCP_UPSTREAM_AUTH", "mine", []string{"--embedded", "--http", "127.0.0.1:8080", "--oauth-issuer", "https://login.example.com"}},
	{"allowed-origins", "MCP_ALLOWED_ORIGINS", "app.example.com", []string{"--embedded", "--http", "127.0.0.1:8080"}},
	{"allowed-hosts", "MCP_ALLOWED_HOSTS", "https://mcp.example.com/mcp", []string{"--embedded", "--http", "127.0.0.1:8080"}},
	{"confirm-writes", "CONFIRM_WRITES", "maybe", []string{"--embedded"}},
	{"confirm-state-key", "CONFIRM_STATE_KEY", "hunter2hunter2", []string{"--embedded"}},
}

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
		assert.True(t, covered[b.flag], "--%s (%s) has no case in mistakes", b.flag, b.env)
	}
}

// The variables without a flag are named when they are wrong too.
func TestVariablesWithoutAFlagAreNamed(t *testing.T) {
	exchange := []string{"--embedded", "--http", "127.0.0.1:8080", "--oauth-issuer", "https://login.example.com", "--upstream-auth", "exchange"}
	tests := []struct {
		args []string
		env  map[string]string
		says string
	}{
		{[]string{"--embedded"}, map[string]string{"OIDC_ISSUER": "http://idp.example.com"}, "OIDC_ISSUER: "},
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
	_, err := parseWith([]string{"--embedded"}, map[string]string{"MCP_HTTP_ADDR": "0.0.0.0:8080"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "MCP_HTTP_ADDR=0.0.0.0:8080 is not a loopback address")
	assert.Contains(t, err.Error(), "set MCP_OAUTH_ISSUERS=URL and MCP_PUBLIC_URL=URL")
	_, err = parseWith([]string{"--embedded", "--http", "0.0.0.0:8080"}, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "set --oauth-issuer URL and --public-url URL")

	_, err = parseWith([]string{"--embedded"}, map[string]string{"MCP_PUBLIC_URL": "https://mcp.example.com/mcp"})
	require.Error(t, err)
	assert.Equal(t, "MCP_PUBLIC_URL applies to HTTP mode only: add MCP_HTTP_ADDR=ADDR", err.Error())

	_, err = parseWith([]string{"--endpoint", "https://abc.example.com/graphql"}, map[string]string{"MCP_EMBEDDED": "true"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "MCP_EMBEDDED and --endpoint exclude each other")
}

// A flag given explicitly wins over its variable, and a variable the flag
// overrides is not read (so its mistakes do not matter).
func TestAFlagWinsOverItsVariable(t *testing.T) {
	c, err := parseWith([]string{"--embedded", "--http", "127.0.0.1:8080"}, map[string]string{"MCP_HTTP_ADDR": "8080", "MCP_COMPANIES": "20k", "LOG_LEVEL": "debug"})
	require.Error(t, err, "MCP_COMPANIES is still read: no flag overrides it")
	assert.Contains(t, err.Error(), "MCP_COMPANIES")
	c, err = parseWith([]string{"--embedded", "--http", "127.0.0.1:8080", "--companies", "50"}, map[string]string{"MCP_HTTP_ADDR": "8080", "MCP_COMPANIES": "20k", "LOG_LEVEL": "debug"})
	require.NoError(t, err)
	assert.Equal(t, "127.0.0.1:8080", c.HTTP.Addr)
	assert.Equal(t, 50, c.Companies)
	assert.Equal(t, "debug", c.LogLevel)
	assert.Equal(t, "--http", c.Name("http"))
	assert.Equal(t, "LOG_LEVEL", c.Name("log-level"))
	assert.Equal(t, "LOG_LEVEL=warn", c.Setting("log-level", "warn"))

	// The credential chain names a forced method this way when it is not
	// configured (auth.Options.ForcedBy).
	c, err = parseWith([]string{"--embedded"}, map[string]string{"MCP_AUTH": "APIKey"})
	require.NoError(t, err)
	assert.Equal(t, "MCP_AUTH=apikey", c.Setting("auth", string(c.Auth)))
	c, err = parseWith([]string{"--embedded", "--auth", "apikey"}, map[string]string{"MCP_AUTH": "oidc"})
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
	_, err = parseWith([]string{"--embedded"}, env)
	assert.ErrorContains(t, err, "ALLOW_MUTATIONS", "without --version the bad variable is still refused")
}
