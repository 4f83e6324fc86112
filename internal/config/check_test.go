package config

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func parseWith(args []string, env map[string]string) (Config, error) {
	return parse(args, func(k string) string { return env[k] })
}

func TestEndpointMustBeHTTPSExceptLoopback(t *testing.T) {
	for _, ok := range []string{
		"https://abc.appsync-api.eu-west-1.amazonaws.com/graphql",
		"http://127.0.0.1:8080/graphql",
		"http://127.9.9.9/graphql",
		"http://localhost:4000/graphql",
		"http://[::1]:4000/graphql",
	} {
		_, err := parseWith([]string{"--endpoint", ok}, nil)
		assert.NoError(t, err, ok)
	}
	for endpoint, problem := range map[string]string{
		"http://api.example.com/graphql":          "plain http to api.example.com, which would send credentials in clear",
		"http://10.0.0.5/graphql":                 "plain http to 10.0.0.5",
		"http://localhost.evil.example/graphql":   "plain http to localhost.evil.example",
		"abc.appsync-api.eu-west-1.amazonaws.com": "has no scheme",
		"abc.example.com/graphql":                 "has no scheme",
		"https://abc.example.com":                 "has no path",
		"https:///graphql":                        "has no host",
		"ftp://abc.example.com/graphql":           "scheme ftp",
		"https://user:pw@abc.example.com/graphql": "user name or password",
		"https://abc.example.com/graphql?x=1":     "query or fragment",
	} {
		_, err := parseWith([]string{"--endpoint", endpoint}, nil)
		require.Error(t, err, endpoint)
		msg := err.Error()
		assert.True(t, strings.HasPrefix(msg, "--endpoint: "), msg)
		assert.Contains(t, msg, problem)
		assert.Contains(t, msg, "e.g. --endpoint https://", "the message shows a correct example")
		assert.NotContains(t, msg, "\n", "one line")
		assert.NotContains(t, msg, "pw", "a password in the URL is not repeated")
	}
	_, err := parseWith(nil, map[string]string{"APPSYNC_ENDPOINT": "http://api.example.com/graphql"})
	assert.ErrorContains(t, err, "plain http", "the variable is checked as the flag is")
	assert.ErrorContains(t, err, "APPSYNC_ENDPOINT: ", "and named")
	assert.ErrorContains(t, err, "e.g. APPSYNC_ENDPOINT=https://", "with an example in its own form")
}

func TestMisconfigurationStopsStartUpWithOneLine(t *testing.T) {
	tests := append([]refusedConfig{
		{"unparseable bool variable", endpoint, map[string]string{"HIDE_DISABLED_TOOLS": "maybe"}, `HIDE_DISABLED_TOOLS: "maybe" is not true or false`},
		{"unparseable number variable", []string{"--embedded"}, map[string]string{"MCP_COMPANIES": "20k"}, `MCP_COMPANIES: "20k" is not a whole number`},
		{"number variable out of range", []string{"--embedded"}, map[string]string{"MCP_COMPANIES": "99999999999999999999"}, "MCP_COMPANIES: \"99999999999999999999\" is out of range"},
		{"timeout zero", append([]string{"--timeout", "0s"}, endpoint...), nil, "--timeout 0s is out of range"},
		{"answer bound below one record's room", append([]string{"--max-answer-bytes", "100"}, endpoint...), nil, "--max-answer-bytes 100 is out of range; give 2048 to 1048576"},
		{"answer bound from the environment", endpoint, map[string]string{"MCP_MAX_ANSWER_BYTES": "99999999"}, "MCP_MAX_ANSWER_BYTES=99999999 is out of range"},
		{"timeout an hour", append([]string{"--timeout", "1h"}, endpoint...), nil, "--timeout 1h0m0s is out of range"},
		{"rate-limit spec, before the embedded backend starts", []string{"--embedded", "--rate-limit", "ai_search=lots"}, nil, "--rate-limit"},
		{"rate-limit spec from the environment", endpoint, map[string]string{"RATE_LIMITS": "no_such_tool=1/m"}, "no_such_tool"},
		{"unknown error class", append([]string{"--error-class", "OrderStateConflict=gone"}, endpoint...), nil, `--error-class: "OrderStateConflict=gone": unknown class "gone"`},
		{"unknown error class from the environment", endpoint, map[string]string{"ERROR_CLASSES": "A=not_found,B=nope"}, `unknown class "nope"`},
		{"log level", append([]string{"--log-level", "loud"}, endpoint...), nil, "--log-level"},
		{"plain http OIDC issuer", endpoint, map[string]string{"OIDC_ISSUER": "http://idp.example.com/realms/main"}, "OIDC_ISSUER: \"http://idp.example.com/realms/main\" is plain http"},
	}, embeddedMisconfigurations...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseWith(tt.args, tt.env)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.mention)
			assert.NotContains(t, err.Error(), "\n")
		})
	}
}

func TestErrorClassFlagsOverTheEnvironment(t *testing.T) {
	c, err := parseWith([]string{"--endpoint", "https://abc.example.com/graphql", "--error-class", "OrderStateConflict=invalid_arguments", "--error-class", "Lambda:*=rate_limited"},
		map[string]string{"ERROR_CLASSES": "OrderStateConflict=not_found, Gone=not_found"})
	require.NoError(t, err)
	assert.Equal(t, 3, c.ErrorClasses.Len())
}

func TestBoolVariablesAcceptCommonSpellings(t *testing.T) {
	for v, want := range map[string]bool{"true": true, "1": true, "yes": true, "ON": true, "false": false, "0": false, "no": false, "off": false} {
		c, err := parseWith([]string{"--endpoint", "https://abc.example.com/graphql"}, map[string]string{"HIDE_DISABLED_TOOLS": v})
		require.NoError(t, err, v)
		assert.Equal(t, want, c.HideDisabledTools, v)
	}
}

// TestHelpListsEveryVariableTheServerReads reads the sources of the server's
// own packages for the variables they read and checks that --help lists each.
func TestHelpListsEveryVariableTheServerReads(t *testing.T) {
	var usage bytes.Buffer
	PrintUsage(&usage, catalogue())
	help := usage.String()
	for _, b := range bindings {
		assert.Contains(t, help, b.env, "--%s reads %s, which --help does not list", b.flag, b.env)
	}
	read := regexp.MustCompile(`[gG]etenv\("([A-Z0-9_]+)"\)`)
	found := 0
	for _, dir := range []string{".", "../cli", "../edge", "../../app", "../../auth", "../../cmd/server", "../../tools", "../../graphql"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		require.NoError(t, err)
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(f)
			require.NoError(t, err)
			for _, m := range read.FindAllStringSubmatch(string(src), -1) {
				found++
				assert.Contains(t, help, m[1], "%s reads %s, which --help does not list", f, m[1])
			}
		}
	}
	assert.Greater(t, found, 5, "the scan finds the variables")
	assert.Contains(t, help, "--endpoint", "flags are listed too")
}

// refusedConfig is a configuration refused at start-up, and what its
// one line must mention.
type refusedConfig struct {
	name    string
	args    []string
	env     map[string]string
	mention string
}
