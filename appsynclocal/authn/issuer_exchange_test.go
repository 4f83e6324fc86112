package authn_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/companyintel/mcp-server/appsynclocal/authn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// exchange asks the issuer's token endpoint for a token exchange as the
// confidential client, the way the MCP server does.
func (f *asFixture) exchange(subjectToken string, params map[string]string, scopes ...string) (*oauth2.Token, error) {
	ep := map[string][]string{
		"grant_type":         {authn.GrantTokenExchange},
		"subject_token":      {subjectToken},
		"subject_token_type": {"urn:ietf:params:oauth:token-type:access_token"},
	}
	for k, v := range params {
		ep[k] = []string{v}
	}
	cc := clientcredentials.Config{
		ClientID: "mcp-server", ClientSecret: "exchange-secret-value", TokenURL: f.iss.URL() + "/token",
		AuthStyle: oauth2.AuthStyleInHeader, EndpointParams: ep, Scopes: scopes,
	}
	return cc.Token(context.Background())
}

// TestTokenExchange trades alice's token for the MCP server for one with the
// backend's audience: same subject, same scopes, no later expiry.
func TestTokenExchange(t *testing.T) {
	f := startAS(t, nil)
	in := f.login(t, "alice", "companies:read companies:write")
	f.clock.Add(50 * time.Minute) // ten minutes of the inbound token left

	out, err := f.exchange(in.AccessToken, map[string]string{"audience": authn.DefaultAudience})
	require.NoError(t, err)
	assert.Equal(t, "urn:ietf:params:oauth:token-type:access_token", out.Extra("issued_token_type"))
	assert.EqualValues(t, 600, out.Extra("expires_in"), "no later than the subject token")
	sub, claims := f.accessClaims(t, out.AccessToken, authn.DefaultAudience)
	assert.Equal(t, "alice", sub)
	assert.Equal(t, "companies:read companies:write", claims["scope"])
	assert.Equal(t, "mcp-server", claims["client_id"])

	// The backend's own verifier accepts it as alice.
	id, ok, err := f.iss.Authenticator().Authenticate(authRequest(out.AccessToken), nil)
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, "alice", id.Subject)

	// Narrowing keeps a subset.
	out, err = f.exchange(in.AccessToken, map[string]string{"audience": authn.DefaultAudience}, "companies:read")
	require.NoError(t, err)
	_, claims = f.accessClaims(t, out.AccessToken, authn.DefaultAudience)
	assert.Equal(t, "companies:read", claims["scope"])
}

func TestTokenExchangeRefusals(t *testing.T) {
	f := startAS(t, nil)
	read := f.login(t, "bob", "companies:read")
	backendAud := map[string]string{"audience": authn.DefaultAudience}

	_, err := f.exchange(read.AccessToken, map[string]string{"audience": "https://elsewhere.example"})
	assert.Equal(t, "invalid_target", oauthCode(err), "an audience outside the allowlist")

	_, err = f.exchange(read.AccessToken, backendAud, "companies:read", "companies:write")
	assert.Equal(t, "invalid_scope", oauthCode(err), "scopes are never widened")

	tampered := read.AccessToken[:len(read.AccessToken)-4] + "AAAA"
	_, err = f.exchange(tampered, backendAud)
	assert.Equal(t, "invalid_request", oauthCode(err), "a tampered subject token")

	other := startAS(t, nil)
	foreign := other.login(t, "bob", "companies:read")
	_, err = f.exchange(foreign.AccessToken, backendAud)
	assert.Equal(t, "invalid_request", oauthCode(err), "another issuer's token")

	_, err = f.exchange(read.AccessToken, map[string]string{"audience": authn.DefaultAudience, "actor_token": "x", "actor_token_type": "urn:ietf:params:oauth:token-type:jwt"})
	assert.Equal(t, "invalid_request", oauthCode(err), "delegation is not supported")

	f.clock.Add(61 * time.Minute)
	_, err = f.exchange(read.AccessToken, backendAud)
	assert.Equal(t, "invalid_request", oauthCode(err), "an expired subject token")

	// A public client may not exchange.
	fresh := f.login(t, "bob", "companies:read")
	cc := clientcredentials.Config{ClientID: authn.DemoTokenClientID, TokenURL: f.iss.URL() + "/token", AuthStyle: oauth2.AuthStyleInParams,
		EndpointParams: map[string][]string{"grant_type": {authn.GrantTokenExchange}, "subject_token": {fresh.AccessToken}, "subject_token_type": {"urn:ietf:params:oauth:token-type:access_token"}}}
	_, err = cc.Token(context.Background())
	assert.Equal(t, "unauthorized_client", oauthCode(err))
}

// TestClientDocumentFetched: an allowlisted client given without its
// document is fetched over https and its consent page names it; a document
// naming another client_id is refused; a client not on the list is never
// fetched (the policy is closed), nor is a redirect followed.
func TestClientDocumentFetched(t *testing.T) {
	var fetches atomic.Int32
	var docs *httptest.Server
	docs = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		id := docs.URL + r.URL.Path
		if r.URL.Path == "/moved.json" {
			http.Redirect(w, r, "/ide.json", http.StatusFound)
			return
		}
		if r.URL.Path == "/liar.json" {
			id = docs.URL + "/someone-else.json"
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"client_id":"` + id + `","client_name":"IDE","redirect_uris":["http://127.0.0.1/cb"]}`))
	}))
	t.Cleanup(docs.Close)
	f := startAS(t, func(c *authn.IssuerConfig) {
		c.ClientDocuments = append(c.ClientDocuments, authn.ClientDocument{URL: docs.URL + "/ide.json"}, authn.ClientDocument{URL: docs.URL + "/liar.json"}, authn.ClientDocument{URL: docs.URL + "/moved.json"})
		c.ClientDocumentPolicy.AllowLoopback = true // the test's documents are on 127.0.0.1
		c.FetchClient = docs.Client()
	})
	challenge := "&code_challenge=" + oauth2.S256ChallengeFromVerifier(oauth2.GenerateVerifier()) + "&code_challenge_method=S256&response_type=code"
	req := func(client string) (int, string) {
		status, _, body := authorize(t, f.iss.URL()+"/authorize?client_id="+client+"&redirect_uri=http://127.0.0.1:8000/cb"+challenge)
		return status, body
	}
	status, body := req(docs.URL + "/ide.json")
	assert.Equal(t, http.StatusOK, status, body)
	assert.Contains(t, body, "“IDE” wants to use your account", "the consent page names the client")
	status, body = req(docs.URL + "/liar.json")
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Contains(t, body, "it must name its own URL")
	assert.EqualValues(t, 2, fetches.Load())

	status, _ = req(docs.URL + "/unlisted.json")
	assert.Equal(t, http.StatusBadRequest, status)
	assert.EqualValues(t, 2, fetches.Load(), "an unlisted client_id is never fetched")

	req(docs.URL + "/ide.json")
	assert.EqualValues(t, 2, fetches.Load(), "a fetched document is cached")

	status, body = req(docs.URL + "/moved.json")
	assert.Equal(t, http.StatusBadRequest, status, "a document must be at its own URL")
	assert.Contains(t, body, "answered HTTP 302")
	assert.EqualValues(t, 3, fetches.Load(), "the redirect is not followed")
}

func TestClientDocumentConfigChecked(t *testing.T) {
	for _, doc := range []authn.ClientDocument{
		{URL: "http://client.example/doc.json"},
		{URL: "https://client.example"},
		{URL: "https://client.example/doc.json#x"},
		{URL: "https://client.example/doc.json", Document: []byte(`{"client_id":"https://client.example/other.json","redirect_uris":["https://client.example/cb"]}`)},
		{URL: "https://client.example/doc.json", Document: []byte(`{"client_id":"https://client.example/doc.json","redirect_uris":["http://client.example/cb"]}`)},
		{URL: "https://client.example/doc.json", Document: []byte(`{"client_id":"https://client.example/doc.json","redirect_uris":["https://client.example/cb"],"token_endpoint_auth_method":"client_secret_basic"}`)},
	} {
		_, err := authn.NewIssuer(authn.IssuerConfig{URL: "http://issuer.test", ClientDocuments: []authn.ClientDocument{doc}})
		assert.Error(t, err, "%s %s", doc.URL, strings.TrimSpace(string(doc.Document)))
	}
}
