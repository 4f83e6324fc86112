package demotoken_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/companyintel/mcp-server/appsynclocal/authn"
	"github.com/companyintel/mcp-server/internal/oauth/demotoken"
	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// demo is a stand-in MCP server that serves only its protected resource
// metadata (RFC 9728), pointing at a real embedded issuer.
type demo struct {
	iss      *authn.IssuerServer
	server   *httptest.Server
	resource string
}

// startDemo starts the issuer and the server; prm edits the metadata.
func startDemo(t *testing.T, users []string, prm func(map[string]any)) *demo {
	t.Helper()
	iss, err := authn.StartIssuer("127.0.0.1:0", authn.IssuerConfig{
		ClientDocuments: []authn.ClientDocument{authn.DemoTokenClient()},
		Users:           users,
	})
	require.NoError(t, err)
	t.Cleanup(func() { iss.Close() })
	d := &demo{iss: iss}
	serve := func(w http.ResponseWriter, _ *http.Request) {
		m := map[string]any{
			"resource":                 d.resource,
			"authorization_servers":    []string{iss.URL()},
			"scopes_supported":         []string{authn.ScopeRead, authn.ScopeWrite},
			"bearer_methods_supported": []string{"header"},
		}
		if prm != nil {
			prm(m)
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(m)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/oauth-protected-resource/mcp", serve)
	mux.HandleFunc("GET /.well-known/oauth-protected-resource", serve)
	d.server = httptest.NewServer(mux)
	t.Cleanup(d.server.Close)
	d.resource = d.server.URL + "/mcp"
	require.NoError(t, iss.AllowResource(d.resource))
	return d
}

// verify checks the token as the MCP server would (signature, issuer,
// audience = its resource, expiry) and returns its subject and scope.
func (d *demo) verify(t *testing.T, tok string) (string, string) {
	t.Helper()
	p, err := oidc.NewProvider(context.Background(), d.iss.URL())
	require.NoError(t, err)
	idt, err := p.Verifier(&oidc.Config{ClientID: d.resource}).Verify(context.Background(), tok)
	require.NoError(t, err)
	var c struct {
		Scope    string `json:"scope"`
		ClientID string `json:"client_id"`
	}
	require.NoError(t, idt.Claims(&c))
	assert.Equal(t, demotoken.ClientID, c.ClientID)
	return idt.Subject, c.Scope
}

func TestClientMatchesIssuerAllowlist(t *testing.T) {
	assert.Equal(t, authn.DemoTokenClientID, demotoken.ClientID)
	assert.Equal(t, authn.DemoTokenRedirectURI, demotoken.RedirectURI)
}

// TestTokensForAliceAndBob runs discovery and the authorization code flow
// against the real issuer for two users, by the server's /mcp URL and by
// its origin alone.
func TestTokensForAliceAndBob(t *testing.T) {
	d := startDemo(t, []string{"alice", "bob"}, nil)
	tok, err := demotoken.Token(context.Background(), demotoken.Options{Server: d.resource, User: "alice", Scope: "companies:read companies:write"})
	require.NoError(t, err)
	sub, scope := d.verify(t, tok)
	assert.Equal(t, "alice", sub)
	assert.Equal(t, "companies:read companies:write", scope)

	tok, err = demotoken.Token(context.Background(), demotoken.Options{Server: d.server.URL, User: "bob"})
	require.NoError(t, err)
	sub, scope = d.verify(t, tok)
	assert.Equal(t, "bob", sub)
	assert.Equal(t, "companies:read", scope, "the default scope")
}

// TestRefusals: each failure says what went wrong.
func TestRefusals(t *testing.T) {
	cases := []struct {
		name  string
		users []string
		prm   func(map[string]any)
		opts  func(*demotoken.Options)
		want  string
	}{
		{"unknown user", []string{"alice"}, nil, func(o *demotoken.Options) { o.User = "mallory" }, `access_denied: "mallory" is not a demo user`},
		{"unknown scope", nil, nil, func(o *demotoken.Options) { o.Scope = "companies:admin" }, "invalid_scope"},
		{"resource of another server", nil, func(m map[string]any) { m["resource"] = "https://elsewhere.example/mcp" }, nil, "refusing a token for another server"},
		{"no authorization server", nil, func(m map[string]any) { delete(m, "authorization_servers") }, nil, "names no authorization_servers"},
		{"not a server", nil, nil, func(o *demotoken.Options) { o.Server = "http://127.0.0.1:1/mcp" }, "unreachable"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := startDemo(t, tc.users, tc.prm)
			o := demotoken.Options{Server: d.resource}
			if tc.opts != nil {
				tc.opts(&o)
			}
			if o.Scope == "" {
				o.Scope = demotoken.DefaultScope
			}
			tok, err := demotoken.Token(context.Background(), o)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Empty(t, tok)
		})
	}
}

// TestRefusesServerWithoutMetadata: a server that is not an OAuth protected
// resource is named as such.
func TestRefusesServerWithoutMetadata(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(srv.Close)
	_, err := demotoken.Token(context.Background(), demotoken.Options{Server: srv.URL + "/mcp"})
	assert.ErrorContains(t, err, "publishes no OAuth protected resource metadata")
}

// TestRefusesIssuerWithoutMetadataDocuments: an authorization server that
// does not take Client ID Metadata Documents is not the demo issuer.
func TestRefusesIssuerWithoutMetadataDocuments(t *testing.T) {
	var as *httptest.Server
	as = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{
			"issuer": as.URL, "authorization_endpoint": as.URL + "/authorize", "token_endpoint": as.URL + "/token",
			"code_challenge_methods_supported": []string{"S256"},
		})
	}))
	t.Cleanup(as.Close)
	d := startDemo(t, nil, func(m map[string]any) { m["authorization_servers"] = []string{as.URL} })
	_, err := demotoken.Token(context.Background(), demotoken.Options{Server: d.resource})
	assert.ErrorContains(t, err, "does not accept Client ID Metadata Documents")
}
