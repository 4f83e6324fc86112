package cli

import (
	"bytes"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/app"
)

// run runs the command line with env, and returns the exit code, stdout
// and stderr.
func run(t *testing.T, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	var environ []string
	for k, v := range env {
		environ = append(environ, k+"="+v)
	}
	code := Main(args, environ, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

// --help is asked for, so it goes to stdout with exit 0 (mcp-server --help
// | grep finds a flag, as a person expects); stderr stays empty. -h is the
// same.
func TestHelpListsTheSubcommandsThenTheFlags(t *testing.T) {
	code, help, errOut := run(t, nil, "--help")
	assert.Equal(t, 0, code)
	assert.Empty(t, errOut, "help goes to stdout")
	_, short, _ := run(t, nil, "-h")
	assert.Equal(t, help, short, "-h is --help")
	for _, s := range []string{"Commands:", "check", "catalog", "demo-token", "--version", "Flags:", "-endpoint", "Environment", "APPSYNC_ENDPOINT"} {
		assert.Contains(t, help, s)
	}
	assert.Less(t, strings.Index(help, "demo-token"), strings.Index(help, "Flags:"), "the commands first")
}

// A mistake is one line on stderr and exit 2, never the usage, whether on
// the server's flags or a subcommand's; a near name is offered.
func TestAMistakeIsOneLineWithTheNearestName(t *testing.T) {
	tests := []struct {
		args []string
		env  map[string]string
		says []string
	}{
		{[]string{"--endpoitn", "https://x.example/graphql"}, nil, []string{"mcp-server: unknown flag --endpoitn; did you mean --endpoint?"}},
		{[]string{"--embedded", "--timeout", "soon"}, nil, []string{`--timeout "soon": not a duration`}},
		{[]string{"--embedded"}, map[string]string{"MCP_HTTP_ADDR": "8080"}, []string{"MCP_HTTP_ADDR=8080 is a port alone", "MCP_HTTP_ADDR=127.0.0.1:8080"}},
		{[]string{"chek", "--embedded"}, nil, []string{`unknown command "chek"; did you mean check?`}},
		{[]string{"catalogue"}, nil, []string{`unknown command "catalogue"; did you mean catalog?`}},
		{[]string{"catalog", "--hsah"}, nil, []string{"mcp-server catalog: unknown flag --hsah; did you mean --hash?", "mcp-server catalog --help"}},
		{[]string{"catalog", "extra"}, nil, []string{`mcp-server catalog: unexpected argument "extra"`}},
		{[]string{"demo-token", "--usr", "alice"}, nil, []string{"mcp-server demo-token: unknown flag --usr; did you mean --user?"}},
		{[]string{"demo-token", "--user", "alice"}, nil, []string{"--server is required"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, out, errOut := run(t, tt.env, tt.args...)
			assert.Equal(t, 2, code)
			assert.Empty(t, out)
			assert.Equal(t, 1, strings.Count(errOut, "\n"), "one line: %q", errOut)
			for _, s := range tt.says {
				assert.Contains(t, errOut, s)
			}
			assert.NotContains(t, errOut, "Usage")
		})
	}
	// check prints its refusal where its report goes, in one line too.
	code, out, _ := run(t, map[string]string{"MCP_HTTP_ADDR": "8080"}, "check", "--embedded")
	assert.Equal(t, 2, code)
	assert.Equal(t, "FAIL configuration: MCP_HTTP_ADDR=8080 is a port alone: give host:port, e.g. MCP_HTTP_ADDR=127.0.0.1:8080 (loopback only) or MCP_HTTP_ADDR=:8080 (every interface, which needs MCP_OAUTH_ISSUERS)\n", out)
}

func TestSubcommandHelp(t *testing.T) {
	for _, cmd := range []string{"catalog", "demo-token", "check"} {
		code, out, errOut := run(t, nil, cmd, "--help")
		assert.Equal(t, 0, code, cmd)
		assert.Empty(t, errOut, cmd)
		assert.Contains(t, out, "mcp-server "+cmd, cmd)
	}
}

// catalog prints the catalogue the hash names, and --hash that hash.
func TestCatalogPrintsTheCatalogueAndItsHash(t *testing.T) {
	want, err := app.CatalogueHash()
	require.NoError(t, err)
	code, out, _ := run(t, nil, "catalog", "--hash")
	require.Equal(t, 0, code)
	assert.Equal(t, want+"\n", out)
	code, out, _ = run(t, nil, "catalog")
	require.Equal(t, 0, code)
	doc, err := app.CatalogueJSON(false)
	require.NoError(t, err)
	assert.Equal(t, string(doc), out)

	code, out, _ = run(t, nil, "catalog", "--feedback-tool", "--hash")
	require.Equal(t, 0, code)
	assert.NotEqual(t, want+"\n", out, "the feedback tool's catalogue is another")
}

// --version prints the same version the start-up line shows and the full
// catalogue hash. A test binary has no VCS data, and says so.
func TestVersion(t *testing.T) {
	code, out, errOut := run(t, map[string]string{"ALLOW_MUTATIONS": "not_a_tool"}, "--version")
	require.Equal(t, 0, code, "a broken configuration does not hide the build")
	assert.Empty(t, errOut, "--version goes to stdout")
	hash, err := app.CatalogueHash()
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 5, out)
	assert.Equal(t, "mcp-server "+app.Version(), lines[0])
	assert.True(t, strings.HasPrefix(lines[1], "revision unknown ("), lines[1])
	assert.Equal(t, "modified unknown", lines[2])
	assert.Equal(t, "catalog "+hash, lines[3])
	assert.Equal(t, "go "+runtime.Version()+" "+runtime.GOOS+"/"+runtime.GOARCH, lines[4])
}

// A variable meant for the server but misnamed is named with the one it was
// meant for, before the mistake it may have caused; check lists it too.
func TestAMisnamedVariableIsWarnedAbout(t *testing.T) {
	code, out, errOut := run(t, map[string]string{"ALLOW_MUTATION": "true", "PATH": "/bin", "AWS_REGION": "eu-west-1"})
	assert.Equal(t, 2, code)
	assert.Empty(t, out)
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	require.Len(t, lines, 2, errOut)
	assert.Equal(t, "mcp-server: warning: ALLOW_MUTATION is set but this server does not read it; did you mean ALLOW_MUTATIONS? (mcp-server --help lists every variable)", lines[0])
	assert.Contains(t, lines[1], "no backend")

	code, out, _ = run(t, map[string]string{"ALLOW_MUTATION": "true", "MCP_HTTP_ADDR": "8080"}, "check", "--embedded")
	assert.Equal(t, 2, code)
	assert.True(t, strings.HasPrefix(out, "WARN environment: ALLOW_MUTATION is set but this server does not read it; did you mean ALLOW_MUTATIONS?"), out)

	_, _, errOut = run(t, map[string]string{"ALLOW_MUTATIONS": "true", "PATH": "/bin"})
	assert.NotContains(t, errOut, "warning", "the server's own variables are not warned about")
}

// --help's output is what a pipe to grep reads: stdout.
func TestHelpIsGreppable(t *testing.T) {
	_, out, _ := run(t, nil, "--help")
	for _, flag := range []string{"\n  --allow-mutations\n", "\n  --http string\n", "\n  --endpoint string\n", "\n  ALLOW_MUTATIONS\n", "\n  MCP_HTTP_ADDR\n"} {
		assert.Contains(t, out, flag)
	}
	_, out, _ = run(t, nil, "catalog", "--help")
	assert.Contains(t, out, "\n  --hash\n")
}
