package app

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/appsynclocal/authn"
	"github.com/companyintel/mcp-server/internal/untrusted/untrustedtest"
)

// Issue 34: text one user or the backend wrote never reaches another
// user's model as instructions. Hostile strings are planted through every
// path a user controls (collection names and descriptions, email-discovery
// roles, which the backend stores as contacts on a company every user
// reads) and through the backend's own answers (a proxy that writes hostile
// text into every company, contact, collection and error field), then read
// back by another user through every tool that shows them, over HTTP with
// OAuth (both protocol revisions) and over stdio.

func TestUntrustedTextIsInertForEveryReader(t *testing.T) {
	s := newOAuthStack(t)
	hostile := untrustedtest.NewHostileBackend(t, s.srv.URL())
	backendToken := func(user string) string {
		tok, err := s.iss.Sign(authn.Claims{Subject: user, Audience: authn.DefaultAudience, Scopes: readWrite})
		require.NoError(t, err)
		return tok
	}
	// With token exchange the server has no identity of its own to ask the
	// backend's schema with: the operator says it has the extensions.
	srv, err := startHTTP(t, s.exchangeEnv(), "--endpoint", hostile.URL, "--oauth-issuer", s.iss.URL(), "--allow-mutations", "--schema-extensions", "on")
	require.NoError(t, err)
	const company = "cmp_000001"

	// 1. Through this server, what can never be legitimate is refused, and
	// nothing reaches the backend.
	mallory := connectMCP(t, srv.base+"/mcp", "2026-07-28", bearerHeader(s.token(t, srv.base, "mallory", readWrite...)))
	before := len(hostile.Ops())
	refused := 0
	for _, p := range untrustedtest.Payloads {
		calls := map[string]map[string]any{"request_email_discovery": {"company_id": company, "roles": []any{"CEO", p}}}
		if !visibleText(p) { // markup alone is escaped on output, not refused
			calls["create_collection"] = map[string]any{"name": p}
			calls["create_collection "] = map[string]any{"name": "ok", "description": p}
		}
		for tool, args := range calls {
			sc, isErr := callTool(t, mallory, strings.TrimSpace(tool), args)
			require.True(t, isErr, "%s accepted %q: %v", tool, p, sc)
			assert.Equal(t, "invalid_arguments", obj(sc["error"])["code"], "%s %q", tool, p)
			refused++
		}
	}
	for _, p := range untrustedtest.Payloads[:10] { // prompt arguments take the same rule
		_, err := mallory.GetPrompt(t.Context(), mcp.GetPromptRequest{Params: mcp.GetPromptParams{Name: "research_company",
			Arguments: map[string]string{"company": "cmp_000001", "focus": p}}})
		require.Error(t, err, "prompt argument %q accepted", p)
		refused++
	}
	assert.Equal(t, before, len(hostile.Ops()), "no refused write reached the backend: %v", hostile.Ops()[before:])
	t.Logf("%d hostile writes refused before any backend call", refused)

	// 2. Straight to the shared backend (another client of it): hostile
	// roles stored as contacts on a company everyone reads, and hostile
	// collection names for the victim.
	for _, p := range untrustedtest.Payloads[:10] {
		untrustedtest.BackendGQL(t, s.srv.URL(), backendToken("mallory"), `mutation($c: ID!, $r: [String!]) { requestEmailDiscovery(companyId: $c, roles: $r) { id } }`,
			map[string]any{"c": company, "r": []string{p}})
	}
	created := untrustedtest.BackendGQL(t, s.srv.URL(), backendToken("victor"), `mutation($n: String!, $d: String) { createCollection(name: $n, description: $d) { collection { id } } }`,
		map[string]any{"n": untrustedtest.Payloads[0], "d": untrustedtest.Payloads[10]})
	collection := obj(obj(created["createCollection"])["collection"])["id"].(string)
	untrustedtest.BackendGQL(t, s.srv.URL(), backendToken("victor"), `mutation($c: ID!, $ids: [ID!]!) { addToCollection(collectionId: $c, companyIds: $ids) { added } }`,
		map[string]any{"c": collection, "ids": []string{company, "cmp_000009"}})

	// 3. The victim reads everything back: over HTTP with OAuth, under both
	// revisions, and over stdio.
	checker := &untrustedtest.Checker{T: t}
	for _, rev := range revisions {
		victor := connectMCP(t, srv.base+"/mcp", rev, bearerHeader(s.token(t, srv.base, "victor", readWrite...)))
		for _, c := range untrustedtest.ReadBack(company, collection) {
			text, sc := callText(t, victor, c.Tool, c.Args)
			checker.Check("http "+rev+" "+c.Tool, text, sc)
		}
		for _, uri := range []string{"companies://filters", "companies://server/status"} {
			res, err := victor.ReadResource(t.Context(), mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: uri}})
			require.NoError(t, err)
			for _, c := range res.Contents {
				if tc, ok := c.(mcp.TextResourceContents); ok {
					var v any
					_ = json.Unmarshal([]byte(tc.Text), &v)
					checker.Check("http "+rev+" "+uri, "", v)
				}
			}
		}
	}
	stdio, err := startAt(t, hostile.URL, map[string]string{
		"OIDC_ISSUER": s.iss.URL(), "OIDC_AUDIENCE": authn.DefaultAudience, "OIDC_TOKEN": backendToken("victor"),
	}, "--schema-extensions", "on") // the hostile proxy rewrites introspection's strings too
	require.NoError(t, err)
	for _, c := range untrustedtest.ReadBack(company, collection) {
		stdio.id++
		stdio.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, stdio.id, c.Tool, c.Args))
		res := obj(stdio.read()["result"])
		text, _ := obj(list(res["content"])[0])["text"].(string)
		checker.Check("stdio "+c.Tool, text, res["structuredContent"])
	}
	require.Greater(t, checker.SawPWN, checker.Answers/2, "the hostile text did reach the answers (escaped), so the check checked something")
	fmt.Printf("untrusted text: %d answers checked (HTTP+OAuth under %d revisions, and stdio), %d carried attacker text, all inert\n",
		checker.Answers, len(revisions), checker.SawPWN)
}

// visibleText says whether p holds only visible text on one line.
func visibleText(p string) bool {
	for _, r := range p {
		if untrustedtest.Hidden(r) {
			return false
		}
	}
	return true
}

// callText runs a tool and returns its text and structuredContent, failure
// or not.
func callText(t *testing.T, c *client.Client, tool, args string) (string, any) {
	t.Helper()
	var a map[string]any
	require.NoError(t, json.Unmarshal([]byte(args), &a))
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = tool, a
	res, err := c.CallTool(t.Context(), req)
	require.NoError(t, err)
	require.NotEmpty(t, res.Content)
	text, _ := res.Content[0].(mcp.TextContent)
	var sc any
	if res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		_ = json.Unmarshal(b, &sc)
	}
	return text.Text, sc
}
