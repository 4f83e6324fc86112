package e2e

import (
	"bytes"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHTTPScopesUnderTheMutationCeiling runs the shared service's write
// rules on the built binary with demo-token's real tokens: without
// --allow-mutations the write scope is not granted, and a write tool gets
// mutations_disabled, not a 403 for a scope no one could get (the flag is
// the ceiling); with it, a read-only token
// is refused with 403 insufficient_scope before anything runs. /healthz
// answers and /metrics counts the calls by tool.
func TestHTTPScopesUnderTheMutationCeiling(t *testing.T) {
	ctx := testContext(t)

	t.Run("ceiling off", func(t *testing.T) {
		base, _ := startHTTPProcess(t, "--oauth-issuer", "embedded")
		// The write scope is not granted while writes are off: the issuer
		// offers only what the server can honour.
		var stderr bytes.Buffer
		cmd := exec.CommandContext(ctx, serverBin, "demo-token", "--server", base+"/mcp", "--user", "alice", "--scope", "companies:read companies:write")
		cmd.Env, cmd.Stderr = childEnv(), &stderr
		require.Error(t, cmd.Run())
		assert.Contains(t, stderr.String(), `invalid_scope: scope "companies:write" is not available; available: companies:read`)
		reader := demoToken(t, ctx, base+"/mcp", "alice", "companies:read")
		for _, rev := range revisions {
			c := oauthSession(t, ctx, rev, base+"/mcp", reader)
			res, err := c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "create_collection", Arguments: map[string]any{"name": "x"}}})
			require.NoError(t, err)
			e, text := decodeFailure(t, res)
			assert.Equal(t, "mutations_disabled", e.Code, "%s: %s", rev.version, text)
		}
		metrics := get(t, base+"/metrics")
		assert.Contains(t, metrics, `companyintel_tool_calls_total{gen_ai_tool_name="create_collection",outcome="mutations_disabled"} 2`)
		assert.Equal(t, "ok\n", get(t, base+"/healthz"))
	})

	t.Run("ceiling on", func(t *testing.T) {
		base, _ := startHTTPProcess(t, "--oauth-issuer", "embedded", "--allow-mutations")
		reader := demoToken(t, ctx, base+"/mcp", "carol", "companies:read")
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/mcp",
			strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_collection","arguments":{"name":"x"}}}`))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", mcp.ProtocolVersion20251125)
		req.Header.Set("Authorization", "Bearer "+reader)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusForbidden, resp.StatusCode)
		assert.Contains(t, resp.Header.Get("WWW-Authenticate"), `error="insufficient_scope", scope="companies:read companies:write"`)
		assert.NotContains(t, get(t, base+"/metrics"), `gen_ai_tool_name="create_collection",outcome=`, "the refused call never reached the tool")
	})
}

// get fetches url and returns the body of a 200 answer.
func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s: %s", url, b)
	return string(b)
}
