package authn_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/companyintel/mcp-server/appsynclocal/authn"
	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/oauth2"
)

// resource is the MCP server the demo authorization server issues tokens for.
const resource = "https://mcp.example.test/mcp"

// asFixture is an issuer configured as the demo authorization server, with
// the demo-token client allowlisted and a confidential client for exchange.
type asFixture struct {
	iss   *authn.IssuerServer
	clock *clock
}

func startAS(t *testing.T, edit func(*authn.IssuerConfig)) *asFixture {
	t.Helper()
	clk := newClock()
	c := authn.IssuerConfig{
		Now:             clk.Now,
		Resources:       []string{resource},
		ClientDocuments: []authn.ClientDocument{authn.DemoTokenClient()},
		Clients:         []authn.Client{{ID: "mcp-server", Secret: "exchange-secret-value"}},
	}
	if edit != nil {
		edit(&c)
	}
	return &asFixture{iss: startIssuer(t, c), clock: clk}
}

// oauthConfig is the demo-token client as golang.org/x/oauth2 sees it.
func (f *asFixture) oauthConfig(redirect string) *oauth2.Config {
	return &oauth2.Config{
		ClientID:    authn.DemoTokenClientID,
		RedirectURL: redirect,
		Endpoint: oauth2.Endpoint{
			AuthURL: f.iss.URL() + "/authorize", TokenURL: f.iss.URL() + "/token",
			AuthStyle: oauth2.AuthStyleInParams,
		},
	}
}

// authorize sends an authorization request without following the redirect
// and returns the status and the Location (or the body, for a refusal
// answered in place).
func authorize(t *testing.T, authURL string) (int, *url.URL, string) {
	t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(authURL)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusFound {
		return resp.StatusCode, nil, string(body)
	}
	loc, err := url.Parse(resp.Header.Get("Location"))
	require.NoError(t, err)
	return resp.StatusCode, loc, ""
}

// login runs the authorization code flow with PKCE for user and scope.
func (f *asFixture) login(t *testing.T, user, scope string) *oauth2.Token {
	t.Helper()
	conf := f.oauthConfig(authn.DemoTokenRedirectURI)
	verifier := oauth2.GenerateVerifier()
	status, loc, body := authorize(t, conf.AuthCodeURL("st4te", oauth2.S256ChallengeOption(verifier),
		oauth2.SetAuthURLParam("resource", resource), oauth2.SetAuthURLParam("login_hint", user),
		oauth2.SetAuthURLParam("scope", scope)))
	require.Equal(t, http.StatusFound, status, body)
	require.Empty(t, loc.Query().Get("error"), loc.Query().Get("error_description"))
	assert.Equal(t, "st4te", loc.Query().Get("state"))
	assert.Equal(t, f.iss.URL(), loc.Query().Get("iss"), "RFC 9207 iss parameter")
	tok, err := conf.Exchange(context.Background(), loc.Query().Get("code"), oauth2.VerifierOption(verifier),
		oauth2.SetAuthURLParam("resource", resource))
	require.NoError(t, err)
	return tok
}

// accessClaims verifies a token's signature, issuer, audience and expiry
// with go-oidc, the way a resource server does, and returns its claims.
func (f *asFixture) accessClaims(t *testing.T, tok, audience string) (sub string, claims map[string]any) {
	t.Helper()
	p, err := oidc.NewProvider(context.Background(), f.iss.URL())
	require.NoError(t, err)
	idt, err := p.Verifier(&oidc.Config{ClientID: audience, Now: f.clock.Now}).Verify(context.Background(), tok)
	require.NoError(t, err)
	require.NoError(t, idt.Claims(&claims))
	return idt.Subject, claims
}

func TestAuthorizationServerMetadata(t *testing.T) {
	f := startAS(t, nil)
	for _, path := range []string{"/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"} {
		resp, err := http.Get(f.iss.URL() + path)
		require.NoError(t, err)
		var m map[string]any
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&m))
		resp.Body.Close()
		assert.Equal(t, f.iss.URL(), m["issuer"], path)
		assert.Equal(t, f.iss.URL()+"/authorize", m["authorization_endpoint"], path)
		assert.Equal(t, f.iss.URL()+"/token", m["token_endpoint"], path)
		assert.Equal(t, []any{"S256"}, m["code_challenge_methods_supported"], path)
		assert.Equal(t, []any{"companies:read", "companies:write"}, m["scopes_supported"], path)
		assert.Equal(t, true, m["client_id_metadata_document_supported"], path)
		assert.ElementsMatch(t, []any{"authorization_code", "refresh_token", "client_credentials", authn.GrantTokenExchange}, m["grant_types_supported"], path)
		assert.Equal(t, f.iss.URL()+"/register", m["registration_endpoint"], path)
	}
}

// TestAuthorizationCodeFlow logs alice in through the real endpoints: the
// token names her, the requested resource is its audience, the scopes are
// its scope claim, and the refresh token renews it with the same audience.
func TestAuthorizationCodeFlow(t *testing.T) {
	f := startAS(t, nil)
	tok := f.login(t, "alice", "companies:read companies:write")
	assert.Equal(t, "companies:read companies:write", tok.Extra("scope"))
	sub, claims := f.accessClaims(t, tok.AccessToken, resource)
	assert.Equal(t, "alice", sub)
	assert.Equal(t, "companies:read companies:write", claims["scope"])
	assert.Equal(t, authn.DemoTokenClientID, claims["client_id"])
	require.NotEmpty(t, tok.RefreshToken)

	f.clock.Add(2 * time.Hour) // the access token has expired
	renewed, err := f.oauthConfig(authn.DemoTokenRedirectURI).TokenSource(context.Background(), &oauth2.Token{RefreshToken: tok.RefreshToken}).Token()
	require.NoError(t, err)
	sub, claims = f.accessClaims(t, renewed.AccessToken, resource)
	assert.Equal(t, "alice", sub)
	assert.Equal(t, "companies:read companies:write", claims["scope"])
}

// TestAuthorizeDefaults: no user, scope or resource named gives the default
// user, the read scope alone, and the one configured resource.
func TestAuthorizeDefaults(t *testing.T) {
	f := startAS(t, nil)
	conf := f.oauthConfig(authn.DemoTokenRedirectURI)
	v := oauth2.GenerateVerifier()
	_, loc, body := authorize(t, conf.AuthCodeURL("s", oauth2.S256ChallengeOption(v)))
	require.NotNil(t, loc, body)
	tok, err := conf.Exchange(context.Background(), loc.Query().Get("code"), oauth2.VerifierOption(v))
	require.NoError(t, err)
	sub, claims := f.accessClaims(t, tok.AccessToken, resource)
	assert.Equal(t, authn.DefaultDemoUser, sub)
	assert.Equal(t, "companies:read", claims["scope"])
}

// TestAuthorizeRefusals: client and redirect problems are answered in
// place (the redirect is not trusted); the rest go back to the client.
func TestAuthorizeRefusals(t *testing.T) {
	f := startAS(t, func(c *authn.IssuerConfig) { c.Users = []string{"alice", "bob"} })
	challenge := oauth2.S256ChallengeFromVerifier(oauth2.GenerateVerifier())
	base := url.Values{
		"response_type": {"code"}, "client_id": {authn.DemoTokenClientID}, "redirect_uri": {authn.DemoTokenRedirectURI},
		"code_challenge": {challenge}, "code_challenge_method": {"S256"}, "login_hint": {"alice"}, "state": {"s"},
	}
	cases := []struct {
		name      string
		edit      func(url.Values)
		inPlace   string // a 400 answered in place, containing this
		errorCode string // else the error redirected to the client
	}{
		{"unlisted client", func(v url.Values) { v.Set("client_id", "https://evil.example/client.json") }, "not known to this server", ""},
		{"unregistered redirect", func(v url.Values) { v.Set("redirect_uri", "https://evil.example/cb") }, "not registered", ""},
		{"other loopback path", func(v url.Values) { v.Set("redirect_uri", "http://127.0.0.1:5555/other") }, "not registered", ""},
		{"token response type", func(v url.Values) { v.Set("response_type", "token") }, "", "unsupported_response_type"},
		{"no PKCE", func(v url.Values) { v.Del("code_challenge") }, "", "invalid_request"},
		{"plain PKCE", func(v url.Values) { v.Set("code_challenge_method", "plain") }, "", "invalid_request"},
		{"unknown scope", func(v url.Values) { v.Set("scope", "companies:read admin") }, "", "invalid_scope"},
		{"foreign resource", func(v url.Values) { v.Set("resource", "https://other.example/mcp") }, "", "invalid_target"},
		{"unknown user", func(v url.Values) { v.Set("login_hint", "mallory") }, "", "access_denied"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := url.Values{}
			for k, vals := range base {
				v[k] = append([]string(nil), vals...)
			}
			tc.edit(v)
			status, loc, body := authorize(t, f.iss.URL()+"/authorize?"+v.Encode())
			if tc.inPlace != "" {
				assert.Equal(t, http.StatusBadRequest, status)
				assert.Contains(t, body, tc.inPlace)
				return
			}
			require.NotNil(t, loc, body)
			assert.Equal(t, "127.0.0.1", loc.Hostname())
			assert.Equal(t, tc.errorCode, loc.Query().Get("error"))
			assert.Equal(t, "s", loc.Query().Get("state"))
			assert.Empty(t, loc.Query().Get("code"))
		})
	}
}

// TestLoopbackRedirectAnyPort: a native client listens on whatever port is
// free, so a registered loopback redirect matches on any port (RFC 8252).
func TestLoopbackRedirectAnyPort(t *testing.T) {
	f := startAS(t, nil)
	conf := f.oauthConfig("http://127.0.0.1:49152/callback")
	v := oauth2.GenerateVerifier()
	_, loc, body := authorize(t, conf.AuthCodeURL("s", oauth2.S256ChallengeOption(v)))
	require.NotNil(t, loc, body)
	assert.Equal(t, "49152", loc.Port())
	_, err := conf.Exchange(context.Background(), loc.Query().Get("code"), oauth2.VerifierOption(v))
	assert.NoError(t, err)
}

// TestCodeRedemptionRefusals: a code works once, only with its verifier,
// its redirect URI and its client, and only for a minute.
func TestCodeRedemptionRefusals(t *testing.T) {
	f := startAS(t, nil)
	conf := f.oauthConfig(authn.DemoTokenRedirectURI)
	code := func(verifier string) string {
		_, loc, body := authorize(t, conf.AuthCodeURL("s", oauth2.S256ChallengeOption(verifier)))
		require.NotNil(t, loc, body)
		return loc.Query().Get("code")
	}
	ctx := context.Background()

	v := oauth2.GenerateVerifier()
	c := code(v)
	_, err := conf.Exchange(ctx, c, oauth2.VerifierOption(oauth2.GenerateVerifier()))
	assert.Equal(t, "invalid_grant", oauthCode(err), "wrong verifier")
	_, err = conf.Exchange(ctx, c, oauth2.VerifierOption(v))
	assert.Equal(t, "invalid_grant", oauthCode(err), "a code presented once is spent, even by a failed attempt")

	_, err = conf.Exchange(ctx, code(v))
	assert.Equal(t, "invalid_grant", oauthCode(err), "no verifier")

	other := f.oauthConfig("http://127.0.0.1:1234/callback")
	_, err = other.Exchange(ctx, code(v), oauth2.VerifierOption(v))
	assert.Equal(t, "invalid_grant", oauthCode(err), "redirect_uri differs")

	c = code(v)
	f.clock.Add(61 * time.Second)
	_, err = conf.Exchange(ctx, c, oauth2.VerifierOption(v))
	assert.Equal(t, "invalid_grant", oauthCode(err), "expired code")

	// Another client (the confidential one) cannot redeem the demo client's code.
	c = code(v)
	form := url.Values{"grant_type": {"authorization_code"}, "code": {c}, "redirect_uri": {authn.DemoTokenRedirectURI}, "code_verifier": {v}}
	req, _ := http.NewRequest(http.MethodPost, f.iss.URL()+"/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth("mcp-server", "exchange-secret-value")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	var e map[string]string
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&e))
	resp.Body.Close()
	assert.Equal(t, "invalid_grant", e["error"])
}

// TestAllowResourceLater: a resource added while the issuer serves is
// accepted from then on; before, the request is refused.
func TestAllowResourceLater(t *testing.T) {
	f := startAS(t, func(c *authn.IssuerConfig) { c.Resources = nil })
	conf := f.oauthConfig(authn.DemoTokenRedirectURI)
	v := oauth2.GenerateVerifier()
	url := conf.AuthCodeURL("s", oauth2.S256ChallengeOption(v), oauth2.SetAuthURLParam("resource", "http://127.0.0.1:8080/mcp"))
	_, loc, body := authorize(t, url)
	require.NotNil(t, loc, body)
	assert.Equal(t, "invalid_target", loc.Query().Get("error"))

	require.NoError(t, f.iss.AllowResource("http://127.0.0.1:8080/mcp"))
	assert.Error(t, f.iss.AllowResource("not a url"))
	_, loc, body = authorize(t, url)
	require.NotNil(t, loc, body)
	assert.NotEmpty(t, loc.Query().Get("code"), loc.Query().Get("error_description"))
}

// TestMetadataForIssuerWithPath: an issuer URL with a path has its RFC 8414
// metadata at /.well-known/oauth-authorization-server<path> (section 3.1)
// as well as under the path, when the mux routes both to the handler.
func TestMetadataForIssuerWithPath(t *testing.T) {
	mux := http.NewServeMux()
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	iss, err := authn.NewIssuer(authn.IssuerConfig{URL: ts.URL + "/oidc"})
	require.NoError(t, err)
	mux.Handle("/oidc/", iss.Handler())
	mux.Handle("/.well-known/oauth-authorization-server/oidc", iss.Handler())
	for _, path := range []string{"/.well-known/oauth-authorization-server/oidc", "/oidc/.well-known/oauth-authorization-server"} {
		resp, err := http.Get(ts.URL + path)
		require.NoError(t, err)
		var m map[string]any
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&m), path)
		resp.Body.Close()
		assert.Equal(t, ts.URL+"/oidc", m["issuer"], path)
		assert.Equal(t, ts.URL+"/oidc/authorize", m["authorization_endpoint"], path)
	}
}
