package e2e

import (
	"bytes"
	"context"
	"net/http"
	"os/exec"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// demoToken runs `mcp-server demo-token` and returns what it printed: the
// access token alone.
func demoToken(t *testing.T, ctx context.Context, mcpURL, user, scope string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, serverBin, "demo-token", "--server", mcpURL, "--user", user, "--scope", scope)
	cmd.Env = childEnv()
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "demo-token for %s: %s", user, stderr.String())
	tok := strings.TrimSuffix(stdout.String(), "\n")
	require.NotEmpty(t, tok)
	require.NotContains(t, tok, "\n", "stdout holds the token alone")
	return tok
}

// oauthSession connects mcp-go's Streamable HTTP client under rev, sending
// token as a bearer token on every request.
func oauthSession(t *testing.T, ctx context.Context, rev revision, mcpURL, token string) *client.Client {
	t.Helper()
	tr, err := transport.NewStreamableHTTP(mcpURL, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token}))
	require.NoError(t, err)
	c := client.NewClient(tr, rev.options...)
	t.Cleanup(func() { _ = c.Close() })
	require.NoError(t, c.Start(ctx))
	_, err = c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{
		ClientInfo: mcp.Implementation{Name: "mcp-server-e2e", Version: "1.0.0"},
	}})
	require.NoError(t, err, "connecting under %s", rev.version)
	require.Equal(t, rev.version, c.ProtocolVersion(), "negotiated protocol revision")
	return c
}

// postToolsList sends tools/list with an Authorization header (none when
// token is empty) and returns the status and WWW-Authenticate.
func postToolsList(t *testing.T, ctx context.Context, mcpURL, token string) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, mcpURL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", mcp.ProtocolVersion20251125)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("WWW-Authenticate")
}

// TestDemoTokenOverHTTP is docs/team-service.md's demo of the shared service, run on
// the built binary: `demo-token` signs alice and bob in through the embedded
// issuer's authorization code flow; their tokens open tools/list and
// search_companies under both protocol revisions; a tampered token or none
// is refused with a pointer to the resource metadata; and a collection
// alice creates is invisible to bob, since each reaches the backend as
// themselves by token exchange.
func TestDemoTokenOverHTTP(t *testing.T) {
	ctx := testContext(t)
	base, _ := startHTTPProcess(t, "--oauth-issuer", "embedded", "--allow-mutations")
	mcpURL := base + "/mcp"
	alice := demoToken(t, ctx, mcpURL, "alice", "companies:read companies:write")
	bob := demoToken(t, ctx, mcpURL, "bob", "companies:read companies:write")
	require.NotEqual(t, alice, bob)

	tampered := alice[:len(alice)-4] + "AAAA"
	if strings.HasSuffix(alice, "AAAA") {
		tampered = alice[:len(alice)-4] + "BBBB"
	}
	for name, tok := range map[string]string{"no token": "", "tampered token": tampered} {
		status, challenge := postToolsList(t, ctx, mcpURL, tok)
		assert.Equal(t, http.StatusUnauthorized, status, name)
		assert.Contains(t, challenge, `resource_metadata="`+base+`/.well-known/oauth-protected-resource`, name)
	}
	status, _ := postToolsList(t, ctx, mcpURL, bob)
	assert.Equal(t, http.StatusOK, status)

	for _, rev := range revisions {
		t.Run(rev.version, func(t *testing.T) {
			a := oauthSession(t, ctx, rev, mcpURL, alice)
			tools, err := a.ListTools(ctx, mcp.ListToolsRequest{})
			require.NoError(t, err)
			assert.NotEmpty(t, tools.Tools)
			res, err := a.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "search_companies", Arguments: map[string]any{"query": "software", "limit": 1}}})
			require.NoError(t, err)
			decodeOK[map[string]any](t, res)

			name := "alice only " + rev.version
			res, err = a.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "create_collection", Arguments: map[string]any{"name": name}}})
			require.NoError(t, err)
			decodeOK[map[string]any](t, res)

			type listed struct {
				Collections []struct {
					Name string `json:"name"`
				} `json:"collections"`
			}
			names := func(c *client.Client) []string {
				res, err := c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "list_collections", Arguments: map[string]any{}}})
				require.NoError(t, err)
				var out []string
				for _, col := range decodeOK[listed](t, res).Collections {
					out = append(out, col.Name)
				}
				return out
			}
			assert.Contains(t, names(a), name)
			assert.NotContains(t, names(oauthSession(t, ctx, rev, mcpURL, bob)), name)
		})
	}
}
