package e2e

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/appsynclocal"
	"github.com/companyintel/mcp-server/appsynclocal/authn"
	"github.com/companyintel/mcp-server/internal/untrusted/untrustedtest"
)

// TestUntrustedTextIsInertInTheBuiltBinary is issue 34's "must show" on the
// built binary: hostile strings planted through every path a user controls
// (collection name and description, email-discovery roles stored as
// contacts on a shared company) and through a hostile backend (a proxy
// writing them into every text field of every answer and error) are read
// back by another user through every tool that shows them, over HTTP with
// OAuth (token exchange to the backend) under both revisions and over
// stdio. None stays live; the count of answers checked is printed. The same
// strings sent through the server are refused before any backend call.
func TestUntrustedTextIsInertInTheBuiltBinary(t *testing.T) {
	ctx := testContext(t)
	const exchangeClient, exchangeSecret = "mcp-server", "exchange-secret-e2e-34"
	iss, err := authn.StartIssuer("127.0.0.1:0", authn.IssuerConfig{Clients: []authn.Client{{ID: exchangeClient, Secret: exchangeSecret}}})
	require.NoError(t, err)
	t.Cleanup(func() { iss.Close() })
	srv, err := appsynclocal.Start(appsynclocal.Config{DataDir: t.TempDir(), Companies: 300,
		Authenticators: []appsynclocal.Authenticator{iss.Authenticator()}}, "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { srv.Close() })
	hostile := untrustedtest.NewHostileBackend(t, srv.URL())
	rw := []string{"companies:read", "companies:write"}
	backendToken := func(user string) string {
		tok, err := iss.Sign(authn.Claims{Subject: user, Audience: authn.DefaultAudience, Scopes: rw})
		require.NoError(t, err)
		return tok
	}
	base, _, _ := startHTTPProcessArgs(t, []string{
		"MCP_EXCHANGE_CLIENT_ID=" + exchangeClient, "MCP_EXCHANGE_CLIENT_SECRET=" + exchangeSecret, "MCP_EXCHANGE_AUDIENCE=" + authn.DefaultAudience,
	}, "--endpoint", hostile.URL, "--oauth-issuer", iss.URL(), "--allow-mutations",
		"--schema-extensions", "on") // token exchange leaves the server no identity to introspect with
	userToken := func(user string) string {
		tok, err := iss.Sign(authn.Claims{Subject: user, Audience: base + "/mcp", Scopes: rw, ClientID: "https://client.example/app.json"})
		require.NoError(t, err)
		return tok
	}
	const company = "cmp_000001"

	// Through the server: refused, and nothing reaches the backend.
	mallory := oauthSession(t, ctx, revisions[0], base+"/mcp", userToken("mallory"))
	before := len(hostile.Ops())
	refused := 0
	for _, p := range untrustedtest.Payloads {
		res, err := mallory.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "request_email_discovery",
			Arguments: map[string]any{"company_id": company, "roles": []any{p}}}})
		require.NoError(t, err)
		e, text := decodeFailure(t, res)
		assert.Equal(t, "invalid_arguments", e.Code, "role %q: %s", p, text)
		refused++
	}
	assert.Len(t, hostile.Ops(), before, "a refused write reached the backend")

	// Straight to the shared backend, as another of its clients can.
	for _, p := range untrustedtest.Payloads[:10] {
		untrustedtest.BackendGQL(t, srv.URL(), backendToken("mallory"),
			`mutation($c: ID!, $r: [String!]) { requestEmailDiscovery(companyId: $c, roles: $r) { id } }`, map[string]any{"c": company, "r": []string{p}})
	}
	created := untrustedtest.BackendGQL(t, srv.URL(), backendToken("victor"),
		`mutation($n: String!, $d: String) { createCollection(name: $n, description: $d) { collection { id } } }`,
		map[string]any{"n": untrustedtest.Payloads[1], "d": untrustedtest.Payloads[3]})
	collection := created["createCollection"].(map[string]any)["collection"].(map[string]any)["id"].(string)
	untrustedtest.BackendGQL(t, srv.URL(), backendToken("victor"),
		`mutation($c: ID!, $ids: [ID!]!) { addToCollection(collectionId: $c, companyIds: $ids) { added } }`,
		map[string]any{"c": collection, "ids": []string{company, "cmp_000009"}})

	checker := &untrustedtest.Checker{T: t}
	read := func(where string, call func(name string, args map[string]any) (*mcp.CallToolResult, error)) {
		for _, c := range untrustedtest.ReadBack(company, collection) {
			var args map[string]any
			require.NoError(t, json.Unmarshal([]byte(c.Args), &args))
			res, err := call(c.Tool, args)
			require.NoError(t, err, "%s %s", where, c.Tool)
			text := ""
			if len(res.Content) > 0 {
				if tc, ok := res.Content[0].(mcp.TextContent); ok {
					text = tc.Text
				}
			}
			var sc any
			if res.StructuredContent != nil {
				b, _ := json.Marshal(res.StructuredContent)
				_ = json.Unmarshal(b, &sc)
			}
			checker.Check(where+" "+c.Tool, text, sc)
		}
	}
	for _, rev := range revisions {
		victor := oauthSession(t, ctx, rev, base+"/mcp", userToken("victor"))
		read("http "+rev.version, func(name string, args map[string]any) (*mcp.CallToolResult, error) {
			return victor.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: name, Arguments: args}})
		})
	}
	stdio := startSessionWith(t, ctx, serverBin, revisions[0], []string{"--endpoint", hostile.URL, "--allow-mutations", "--schema-extensions", "on"},
		[]string{"OIDC_ISSUER=" + iss.URL(), "OIDC_AUDIENCE=" + authn.DefaultAudience, "OIDC_TOKEN=" + backendToken("victor")})
	read("stdio "+revisions[0].version, func(name string, args map[string]any) (*mcp.CallToolResult, error) {
		return stdio.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: name, Arguments: args}})
	})
	require.Greater(t, checker.SawPWN, checker.Answers/2, "the hostile text reached the answers (inert), so the check checked something")
	fmt.Printf("untrusted text, built binary: %d answers checked over HTTP+OAuth (%d revisions) and stdio, %d carried attacker text, none live; %d hostile roles refused before the backend\n",
		checker.Answers, len(revisions), checker.SawPWN, refused)
}
