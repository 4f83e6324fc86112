package app

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/appsynclocal"
	"github.com/companyintel/mcp-server/appsynclocal/authn"
)

// oauthStack is a backend, an issuer both it and the MCP server trust, and
// a recording proxy in front of the backend. The server is a confidential
// client of the issuer, for token exchange.
type oauthStack struct {
	iss *authn.IssuerServer
	srv *appsynclocal.Server
	rec *recorder
}

const (
	exchangeClient = "mcp-server"
	exchangeSecret = "exchange-secret-7c1d"
)

func newOAuthStack(t *testing.T) *oauthStack {
	t.Helper()
	iss, err := authn.StartIssuer("127.0.0.1:0", authn.IssuerConfig{
		Clients: []authn.Client{{ID: exchangeClient, Secret: exchangeSecret}},
	})
	require.NoError(t, err)
	t.Cleanup(func() { iss.Close() })
	srv, err := appsynclocal.Start(appsynclocal.Config{
		DataDir:        t.TempDir(),
		Companies:      300,
		Authenticators: []appsynclocal.Authenticator{iss.Authenticator()},
	}, "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { srv.Close() })
	return &oauthStack{iss: iss, srv: srv, rec: newRecorder(t, srv.URL())}
}

// exchangeEnv makes the server a token-exchange client of the stack's issuer.
func (s *oauthStack) exchangeEnv() map[string]string {
	return map[string]string{
		"MCP_EXCHANGE_CLIENT_ID":     exchangeClient,
		"MCP_EXCHANGE_CLIENT_SECRET": exchangeSecret,
		"MCP_EXCHANGE_AUDIENCE":      authn.DefaultAudience,
	}
}

// start runs the server trusting the stack's issuer.
func (s *oauthStack) start(t *testing.T, env map[string]string, args ...string) *httpServer {
	t.Helper()
	srv, err := startHTTP(t, env, append([]string{"--endpoint", s.rec.URL, "--oauth-issuer", s.iss.URL()}, args...)...)
	require.NoError(t, err)
	return srv
}

// token signs an inbound token for the server at base, for user with scopes.
func (s *oauthStack) token(t *testing.T, base, user string, scopes ...string) string {
	t.Helper()
	tok, err := s.iss.Sign(authn.Claims{Subject: user, Audience: base + "/mcp", Scopes: scopes, ClientID: "https://client.example/app.json"})
	require.NoError(t, err)
	return tok
}

func bearerHeader(tok string) map[string]string {
	return map[string]string{"Authorization": "Bearer " + tok}
}

var (
	readOnly  = []string{"companies:read"}
	readWrite = []string{"companies:read", "companies:write"}
)

func TestOAuthRefusesBadTokensWithAChallenge(t *testing.T) {
	s := newOAuthStack(t)
	srv := s.start(t, s.exchangeEnv())
	good := s.token(t, srv.base, "alice", readOnly...)
	now := time.Now()
	sign := func(c authn.Claims) string {
		tok, err := s.iss.Sign(c)
		require.NoError(t, err)
		return tok
	}
	parts := strings.Split(good, ".")
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	require.NoError(t, err)
	tampered := parts[0] + "." + base64.RawURLEncoding.EncodeToString([]byte(strings.Replace(string(payload), "alice", "admin", 1))) + "." + parts[2]
	hs256 := func() string {
		h := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`))
		m := hmac.New(sha256.New, []byte("the issuer's public key is no secret"))
		m.Write([]byte(h + "." + parts[1]))
		return h + "." + parts[1] + "." + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
	}()
	none := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + parts[1] + "."

	list := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":` + modernMeta + `}}`
	tests := []struct {
		name, token, says string
	}{
		{"no token", "", ""},
		{"tampered", tampered, "signature"},
		{"expired", sign(authn.Claims{Subject: "alice", Audience: srv.base + "/mcp", Scopes: readOnly, IssuedAt: now.Add(-2 * time.Hour), Expiry: now.Add(-time.Hour)}), "expired"},
		{"wrong audience", sign(authn.Claims{Subject: "alice", Scopes: readOnly}), "not for this resource"},
		{"wrong issuer", sign(authn.Claims{Subject: "alice", Audience: srv.base + "/mcp", Issuer: "https://login.example.com"}), "issuer"},
		// go-oidc allows nbf five minutes early and reads no iat; this
		// server allows a minute of clock skew, and a day of lifetime.
		{"issued in the future", sign(authn.Claims{Subject: "alice", Audience: srv.base + "/mcp", Scopes: readOnly, IssuedAt: now.Add(3 * time.Minute), Expiry: now.Add(time.Hour)}), "issued in the future"},
		{"valid for too long", sign(authn.Claims{Subject: "alice", Audience: srv.base + "/mcp", Scopes: readOnly, IssuedAt: now, Expiry: now.Add(48 * time.Hour)}), "valid for longer than this server accepts (at most 24h0m0s"},
		{"alg none", none, "algorithm"},
		{"HS256", hs256, "algorithm"},
		{"not a JWT", "opaque-token", "not a signed JWT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hdr := modernHeaders("tools/list", "")
			if tt.token != "" {
				hdr["Authorization"] = "Bearer " + tt.token
			}
			resp := post(t, srv.base, list, hdr)
			body := readBody(t, resp)
			require.Equal(t, http.StatusUnauthorized, resp.StatusCode, body)
			challenge := resp.Header.Get("WWW-Authenticate")
			assert.Contains(t, challenge, `Bearer `)
			assert.Contains(t, challenge, `resource_metadata="`+srv.base+`/.well-known/oauth-protected-resource/mcp"`)
			if tt.token == "" {
				assert.NotContains(t, challenge, "error=", "no token is no error (RFC 6750 section 3.1)")
			} else {
				assert.Contains(t, challenge, `error="invalid_token"`)
				assert.Contains(t, body, tt.says)
				assert.NotContains(t, body, tt.token)
				assert.NotContains(t, srv.logs.String(), tt.token, "tokens never reach the log")
			}
		})
	}
	// RFC 6750 section 3.1: more than one way of sending a token in one
	// request is invalid_request, not "the first one wins".
	bob := s.token(t, srv.base, "bob", readWrite...)
	for name, send := range map[string]func(*http.Request){
		"two Authorization headers": func(r *http.Request) {
			r.Header.Add("Authorization", "Bearer "+good)
			r.Header.Add("Authorization", "Bearer "+bob)
		},
		"a header and an access_token query parameter": func(r *http.Request) {
			r.Header.Set("Authorization", "Bearer "+good)
			r.URL.RawQuery = "access_token=" + bob
		},
	} {
		t.Run(name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodPost, srv.base+"/mcp", strings.NewReader(list))
			require.NoError(t, err)
			for k, v := range modernHeaders("tools/list", "") {
				req.Header.Set(k, v)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			send(req)
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			defer resp.Body.Close()
			body := readBody(t, resp)
			assert.Equal(t, http.StatusBadRequest, resp.StatusCode, body)
			assert.Contains(t, resp.Header.Get("WWW-Authenticate"), `error="invalid_request"`)
			assert.Contains(t, body, "more than one access token")
			assert.NotContains(t, body, bob)
		})
	}
	t.Run("the good token passes", func(t *testing.T) {
		hdr := modernHeaders("tools/list", "", "Authorization", "Bearer "+good)
		resp := post(t, srv.base, list, hdr)
		assert.Equal(t, http.StatusOK, resp.StatusCode, readBody(t, resp))
	})
	assert.Empty(t, s.rec.Ops(), "no refused request reached the backend")
}

// TestOAuthProtectedResourceMetadata: the RFC 9728 document names the
// write scope only when --allow-mutations enables a write tool: a scope
// the server would refuse is never advertised.
func TestOAuthProtectedResourceMetadata(t *testing.T) {
	s := newOAuthStack(t)
	srv := s.start(t, s.exchangeEnv())
	resp, err := http.Get(srv.base + "/.well-known/oauth-protected-resource/mcp")
	require.NoError(t, err)
	var doc map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&doc))
	resp.Body.Close()
	assert.Equal(t, []any{"companies:read"}, doc["scopes_supported"], "writes are off")

	srv = s.start(t, s.exchangeEnv(), "--allow-mutations")
	for _, path := range []string{"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"} {
		resp, err := http.Get(srv.base + path)
		require.NoError(t, err)
		defer resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode, path)
		var doc map[string]any
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&doc))
		assert.Equal(t, srv.base+"/mcp", doc["resource"], path)
		assert.Equal(t, []any{s.iss.URL()}, doc["authorization_servers"], path)
		assert.Equal(t, []any{"companies:read", "companies:write"}, doc["scopes_supported"], path)
		assert.Equal(t, []any{"header"}, doc["bearer_methods_supported"], path)
	}
}

func TestOAuthScopesNarrowUnderTheMutationCeiling(t *testing.T) {
	s := newOAuthStack(t)
	create := modernCall("create_collection", `{"name":"Alice's list"}`)
	createHdr := func(tok string) map[string]string {
		return modernHeaders("tools/call", "create_collection", "Authorization", "Bearer "+tok)
	}

	t.Run("ceiling off: mutations_disabled even with the write scope", func(t *testing.T) {
		srv := s.start(t, s.exchangeEnv())
		for _, scopes := range [][]string{readOnly, readWrite} {
			resp := post(t, srv.base, create, createHdr(s.token(t, srv.base, "alice", scopes...)))
			body := readBody(t, resp)
			require.Equal(t, http.StatusOK, resp.StatusCode, body)
			assert.Contains(t, body, `"code":"mutations_disabled"`, "scopes %v", scopes)
		}
	})
	t.Run("ceiling on: a read-only token gets 403 insufficient_scope", func(t *testing.T) {
		before := len(s.rec.Ops())
		srv := s.start(t, s.exchangeEnv(), "--allow-mutations")
		resp := post(t, srv.base, create, createHdr(s.token(t, srv.base, "alice", readOnly...)))
		body := readBody(t, resp)
		require.Equal(t, http.StatusForbidden, resp.StatusCode, body)
		challenge := resp.Header.Get("WWW-Authenticate")
		assert.Contains(t, challenge, `error="insufficient_scope"`)
		assert.Contains(t, challenge, `scope="companies:read companies:write"`, "every scope the call needs, in one challenge")
		assert.Contains(t, challenge, `resource_metadata="`+srv.base+`/.well-known/oauth-protected-resource/mcp"`)
		// The 2025-11-25 revision is decided from the same body.
		legacy := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"create_collection","arguments":{"name":"x"}}}`
		resp = post(t, srv.base, legacy, map[string]string{"Authorization": "Bearer " + s.token(t, srv.base, "alice", readOnly...), "MCP-Protocol-Version": "2025-11-25"})
		assert.Equal(t, http.StatusForbidden, resp.StatusCode)
		// A header naming a read tool does not change what the body asks.
		hdr := createHdr(s.token(t, srv.base, "alice", readOnly...))
		hdr["Mcp-Name"] = "get_company"
		resp = post(t, srv.base, create, hdr)
		assert.Equal(t, http.StatusForbidden, resp.StatusCode)
		assert.Len(t, s.rec.Ops(), before, "no request reached the backend")
	})
	t.Run("ceiling on: the write scope writes", func(t *testing.T) {
		srv := s.start(t, s.exchangeEnv(), "--allow-mutations")
		resp := post(t, srv.base, create, createHdr(s.token(t, srv.base, "alice", readWrite...)))
		body := readBody(t, resp)
		require.Equal(t, http.StatusOK, resp.StatusCode, body)
		assert.Contains(t, body, `"created":true`)
	})
	t.Run("no read scope: reads are refused too", func(t *testing.T) {
		srv := s.start(t, s.exchangeEnv())
		resp := post(t, srv.base, modernCall("get_company", `{"id":"cmp_000001"}`),
			modernHeaders("tools/call", "get_company", "Authorization", "Bearer "+s.token(t, srv.base, "alice")))
		assert.Equal(t, http.StatusForbidden, resp.StatusCode)
		assert.Contains(t, resp.Header.Get("WWW-Authenticate"), `scope="companies:read"`)
	})
}

func TestOAuthUsersSeeOnlyTheirOwnCollections(t *testing.T) {
	s := newOAuthStack(t)
	srv := s.start(t, s.exchangeEnv(), "--allow-mutations")
	alice := bearerHeader(s.token(t, srv.base, "alice", readWrite...))
	bob := bearerHeader(s.token(t, srv.base, "bob", readWrite...))
	for _, rev := range revisions {
		t.Run(rev, func(t *testing.T) {
			a := connectMCP(t, srv.base+"/mcp", rev, alice)
			b := connectMCP(t, srv.base+"/mcp", rev, bob)
			made, isErr := callTool(t, a, "create_collection", map[string]any{"name": "Alice's list " + rev})
			require.False(t, isErr, "%v", made)
			colID := made["collection"].(map[string]any)["id"].(string)
			got, isErr := callTool(t, b, "list_collections", map[string]any{})
			require.False(t, isErr, "%v", got)
			assert.Contains(t, fmt.Sprint(got), "total:0", "bob sees none of alice's collections")
			got, isErr = callTool(t, b, "get_collection_items", map[string]any{"collection_id": colID})
			require.True(t, isErr)
			assert.Equal(t, "not_found", got["error"].(map[string]any)["code"])
			got, isErr = callTool(t, a, "get_collection_items", map[string]any{"collection_id": colID})
			require.False(t, isErr, "alice sees her own: %v", got)
		})
	}
	sent := 0
	for _, h := range s.rec.Auth() {
		if h == "" {
			continue // a readiness ping, which carries no credential
		}
		sent++
		assert.NotContains(t, alice["Authorization"], h, "the user's own token never reaches the backend")
		assert.NotContains(t, bob["Authorization"], h)
	}
	assert.NotZero(t, sent, "the backend saw exchanged tokens")
	assert.Contains(t, srv.logs.String(), `user=alice client=https://client.example/app.json`, "the audit record names user and client")
}

func TestOAuthServiceIdentityRefusesPerUserTools(t *testing.T) {
	s := newOAuthStack(t)
	svc, err := s.iss.Mint("mcp-service", time.Hour)
	require.NoError(t, err)
	env := map[string]string{"OIDC_ISSUER": s.iss.URL(), "OIDC_AUDIENCE": authn.DefaultAudience, "OIDC_TOKEN": svc}
	srv := s.start(t, env, "--upstream-auth", "service", "--allow-mutations")
	c := connectMCP(t, srv.base+"/mcp", "2026-07-28", bearerHeader(s.token(t, srv.base, "alice", readWrite...)))
	before := len(s.rec.Ops())
	for tool, args := range map[string]map[string]any{
		"list_collections":  {},
		"create_collection": {"name": "x"},
	} {
		got, isErr := callTool(t, c, tool, args)
		require.True(t, isErr, tool)
		e := got["error"].(map[string]any)
		assert.Equal(t, "forbidden", e["code"], tool)
		assert.Contains(t, e["message"], "--upstream-auth exchange", tool)
	}
	assert.Len(t, s.rec.Ops(), before, "refused calls send nothing")
	got, isErr := callTool(t, c, "get_company", map[string]any{"id": "cmp_000001"})
	require.False(t, isErr, "catalogue reads work as the service: %v", got)
}

func TestOAuthStartUpRefusals(t *testing.T) {
	s := newOAuthStack(t)
	_, err := startHTTP(t, nil, "--endpoint", s.srv.URL(), "--oauth-issuer", s.iss.URL(), "--upstream-auth", "exchange")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "MCP_EXCHANGE_CLIENT_ID")
	_, err = startHTTP(t, nil, "--endpoint", s.srv.URL(), "--oauth-issuer", "http://login.example.com")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "https")
	_, err = startHTTP(t, nil, "--endpoint", s.srv.URL(), "--oauth-issuer", "embedded")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "--embedded")
}

func TestOAuthOneExchangePerUserBucketsAndMetrics(t *testing.T) {
	s := newOAuthStack(t)
	srv := s.start(t, s.exchangeEnv(), "--rate-limit", "get_company=3/m")
	call := func(tok string) string {
		resp := post(t, srv.base, modernCall("get_company", `{"id":"cmp_000001"}`),
			modernHeaders("tools/call", "get_company", "Authorization", "Bearer "+tok))
		body := readBody(t, resp)
		require.Equal(t, http.StatusOK, resp.StatusCode, body)
		return body
	}
	alice, bob := s.token(t, srv.base, "alice", readOnly...), s.token(t, srv.base, "bob", readOnly...)
	for i := range 3 {
		assert.NotContains(t, call(alice), `"isError":true`, "alice's call %d", i+1)
	}
	assert.Contains(t, call(alice), `"code":"rate_limited"`, "alice's fourth call in the minute")
	assert.NotContains(t, call(bob), `"isError":true`, "bob has a bucket of his own")

	resp, err := http.Get(srv.base + "/metrics")
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	page := readBody(t, resp)
	for _, want := range []string{
		`companyintel_token_exchanges_total{result="ok"} 2`, // one per user, however many calls
		`companyintel_token_cache_lookups_total{result="hit"} 2`,
		`companyintel_token_cache_lookups_total{result="miss"} 2`,
		`companyintel_tool_calls_total{gen_ai_tool_name="get_company",outcome="ok"} 4`,
		`companyintel_tool_calls_total{gen_ai_tool_name="get_company",outcome="rate_limited"} 1`,
		`companyintel_rate_limit_refusals_total{gen_ai_tool_name="get_company"} 1`,
		`mcp_server_operation_duration_seconds_count{error_type="",gen_ai_tool_name="get_company",mcp_method_name="tools/call",mcp_protocol_version="2026-07-28",network_transport="tcp",rpc_response_status_code=""} 4`,
		`mcp_server_operation_duration_seconds_count{error_type="tool_error",gen_ai_tool_name="get_company",mcp_method_name="tools/call",mcp_protocol_version="2026-07-28",network_transport="tcp",rpc_response_status_code=""} 1`,
		`http_client_request_duration_seconds_count{error_type="",graphql_operation_name="GetCompany",http_response_status_code="200"} 4`,
	} {
		assert.Contains(t, page, want)
	}
}

func TestOAuthMetricsCountRefusalsAndUnknownTools(t *testing.T) {
	s := newOAuthStack(t)
	srv := s.start(t, s.exchangeEnv())
	post(t, srv.base, modernCall("get_company", `{"id":"cmp_000001"}`), modernHeaders("tools/call", "get_company"))
	post(t, srv.base, modernCall("no_such_tool", `{}`),
		modernHeaders("tools/call", "no_such_tool", "Authorization", "Bearer "+s.token(t, srv.base, "alice", readOnly...)))
	resp, err := http.Get(srv.base + "/metrics")
	require.NoError(t, err)
	defer resp.Body.Close()
	page := readBody(t, resp)
	assert.Contains(t, page, `mcp_server_operation_duration_seconds_count{error_type="401",gen_ai_tool_name="get_company",mcp_method_name="tools/call"`)
	assert.Contains(t, page, `mcp_server_operation_duration_seconds_count{error_type="-32602",gen_ai_tool_name="_OTHER",mcp_method_name="tools/call"`)
	assert.NotContains(t, page, "no_such_tool", "a client's tool name never becomes a label")
}
