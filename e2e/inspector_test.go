package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// installHint is how to get the Inspector CLI the test runs.
const installHint = "the MCP Inspector CLI is not installed: run `npm ci --prefix e2e/inspector` from the repository root"

// inspectorCLI returns the pinned Inspector CLI (e2e/inspector/package.json).
// Without it the test is skipped on a developer's machine but fails in CI
// (CI set), where the check is required.
func inspectorCLI(t *testing.T) string {
	t.Helper()
	bin, err := filepath.Abs(filepath.Join("inspector", "node_modules", ".bin", "mcp-inspector-cli"))
	require.NoError(t, err)
	_, statErr := os.Stat(bin)
	_, nodeErr := exec.LookPath("node")
	if statErr == nil && nodeErr == nil {
		return bin
	}
	msg := installHint
	if nodeErr != nil {
		msg = "node is not on PATH; " + installHint
	}
	if os.Getenv("CI") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// TestInspectorCLI validates the server with the MCP Inspector CLI, as an
// operator would before connecting a model: the catalogue, one read call,
// one write call refused because writes are off.
func TestInspectorCLI(t *testing.T) {
	cli := inspectorCLI(t)

	for _, tc := range []struct {
		name  string
		args  []string
		check func(t *testing.T, out []byte)
	}{
		{
			name: "tools/list",
			args: []string{"--method", "tools/list"},
			check: func(t *testing.T, out []byte) {
				var res struct {
					Tools []struct {
						Name string `json:"name"`
					} `json:"tools"`
				}
				require.NoError(t, json.Unmarshal(out, &res), "Inspector output: %s", out)
				assert.Len(t, res.Tools, 10)
			},
		},
		{
			name: "read call",
			args: []string{"--method", "tools/call", "--tool-name", "search_companies", "--tool-arg", "query=robotics"},
			check: func(t *testing.T, out []byte) {
				var res struct {
					IsError           bool `json:"isError"`
					StructuredContent struct {
						Total *int `json:"total"`
					} `json:"structuredContent"`
				}
				require.NoError(t, json.Unmarshal(out, &res), "Inspector output: %s", out)
				assert.False(t, res.IsError, "Inspector output: %s", out)
				assert.NotNil(t, res.StructuredContent.Total, "structuredContent.total: %s", out)
			},
		},
		{
			name: "refused write",
			args: []string{"--method", "tools/call", "--tool-name", "create_collection", "--tool-arg", "name=x"},
			check: func(t *testing.T, out []byte) {
				var res struct {
					IsError bool `json:"isError"`
				}
				require.NoError(t, json.Unmarshal(out, &res), "Inspector output: %s", out)
				assert.True(t, res.IsError, "Inspector output: %s", out)
				assert.Contains(t, string(out), "--allow-mutations")
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := testContext(t)
			// Server flags in --flag=value form: the Inspector reads options
			// of its own (--log-level, --header…) anywhere on its command line.
			args := append(append([]string{"--cli", serverBin}, embeddedArgs()...), tc.args...)
			cmd := exec.CommandContext(ctx, cli, args...)
			cmd.Env = childEnv() // the Inspector passes HOME and PATH on to the server
			cmd.Dir = t.TempDir()
			// The server is the Inspector's child and shares its stderr: bound the
			// wait should it outlive the Inspector.
			cmd.WaitDelay = 10 * time.Second
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			require.NoError(t, err, "inspector %v\nstdout:\n%s\nstderr:\n%s", args, stdout.String(), stderr.String())
			tc.check(t, stdout.Bytes())
		})
	}
}
