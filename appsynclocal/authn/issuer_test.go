package authn_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/companyintel/mcp-server/appsynclocal/authn"
	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

func startIssuer(t *testing.T, c authn.IssuerConfig) *authn.IssuerServer {
	t.Helper()
	iss, err := authn.StartIssuer("127.0.0.1:0", c)
	require.NoError(t, err)
	t.Cleanup(func() { iss.Close() })
	return iss
}

// TestIssuerDiscovery reads the discovery document with go-oidc, which
// checks that it names the issuer exactly.
func TestIssuerDiscovery(t *testing.T) {
	iss := startIssuer(t, authn.IssuerConfig{})
	p, err := oidc.NewProvider(context.Background(), iss.URL())
	require.NoError(t, err)
	assert.Equal(t, iss.URL()+"/token", p.Endpoint().TokenURL)

	tok, err := iss.Mint("alice", time.Minute)
	require.NoError(t, err)
	idt, err := p.Verifier(&oidc.Config{ClientID: authn.DefaultAudience}).Verify(context.Background(), tok)
	require.NoError(t, err)
	assert.Equal(t, "alice", idt.Subject)
}

// TestIssuerMountedUnderPath mounts the handler on a mux, as the backend
// does, with the issuer URL ending in the mount path.
func TestIssuerMountedUnderPath(t *testing.T) {
	mux := http.NewServeMux()
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	srv := ts.URL
	iss, err := authn.NewIssuer(authn.IssuerConfig{URL: srv + "/oidc"})
	require.NoError(t, err)
	mux.Handle("/oidc/", iss.Handler())

	_, err = oidc.NewProvider(context.Background(), iss.URL())
	require.NoError(t, err)
	resp, err := http.Get(srv + "/oidc/jwks")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	resp, err = http.Get(srv + "/oidc/elsewhere")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
}

// TestIssuerKeyFile keeps the key across restarts: a token minted before
// verifies after, and the file is private to its owner.
func TestIssuerKeyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys", "issuer.pem")
	first, err := authn.NewIssuer(authn.IssuerConfig{URL: "http://issuer.test", KeyFile: path})
	require.NoError(t, err)
	tok, err := first.Mint("alice", time.Hour)
	require.NoError(t, err)
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())

	second, err := authn.NewIssuer(authn.IssuerConfig{URL: "http://issuer.test", KeyFile: path})
	require.NoError(t, err)
	srv := backend(t, second.Authenticator())
	assert.Equal(t, "alice", call(t, srv.URL, withToken(tok)).subject)

	require.NoError(t, os.WriteFile(path, []byte("not a key"), 0o600))
	_, err = authn.NewIssuer(authn.IssuerConfig{URL: "http://issuer.test", KeyFile: path})
	assert.ErrorContains(t, err, "not a PEM PRIVATE KEY")
}

func TestIssuerClientCredentials(t *testing.T) {
	iss := startIssuer(t, authn.IssuerConfig{Clients: []authn.Client{{ID: "svc", Secret: "s3cret-value", Subject: "robot"}}})
	verify := iss.Authenticator()

	for _, style := range []oauth2.AuthStyle{oauth2.AuthStyleInHeader, oauth2.AuthStyleInParams} {
		cc := clientcredentials.Config{ClientID: "svc", ClientSecret: "s3cret-value", TokenURL: iss.URL() + "/token", AuthStyle: style}
		tok, err := cc.Token(context.Background())
		require.NoError(t, err)
		assert.Nil(t, tok.Extra("id_token"), "client credentials carry no ID token")
		assert.WithinDuration(t, time.Now().Add(authn.DefaultTokenTTL), tok.Expiry, time.Minute)
		id, ok, err := verify.Authenticate(authRequest(tok.AccessToken), nil)
		require.NoError(t, err)
		assert.True(t, ok)
		assert.Equal(t, "robot", id.Subject)
	}

	bad := clientcredentials.Config{ClientID: "svc", ClientSecret: "wrong", TokenURL: iss.URL() + "/token"}
	_, err := bad.Token(context.Background())
	assert.Equal(t, "invalid_client", oauthCode(err))
}

func TestIssuerRefreshToken(t *testing.T) {
	iss := startIssuer(t, authn.IssuerConfig{Clients: []authn.Client{{ID: "cli"}}})
	rt, err := iss.RefreshToken("cli", "dana")
	require.NoError(t, err)
	conf := oauth2.Config{ClientID: "cli", Endpoint: oauth2.Endpoint{TokenURL: iss.URL() + "/token", AuthStyle: oauth2.AuthStyleInParams}}

	tok, err := conf.TokenSource(context.Background(), &oauth2.Token{RefreshToken: rt}).Token()
	require.NoError(t, err)
	idToken, _ := tok.Extra("id_token").(string)
	id, _, err := iss.Authenticator().Authenticate(authRequest(idToken), nil)
	require.NoError(t, err)
	assert.Equal(t, "dana", id.Subject)
	require.NotEqual(t, rt, tok.RefreshToken, "refresh tokens rotate")

	// The new one works once; the old one is spent, and presenting it
	// again (a replay: the client or a thief) ends the whole family, the
	// newest token included (RFC 9700 section 4.14.2).
	next, err := conf.TokenSource(context.Background(), &oauth2.Token{RefreshToken: tok.RefreshToken}).Token()
	require.NoError(t, err)
	_, err = conf.TokenSource(context.Background(), &oauth2.Token{RefreshToken: rt}).Token()
	assert.Equal(t, "invalid_grant", oauthCode(err))
	assert.ErrorContains(t, err, "already used; as a precaution every token of this sign-in is revoked")
	_, err = conf.TokenSource(context.Background(), &oauth2.Token{RefreshToken: next.RefreshToken}).Token()
	assert.Equal(t, "invalid_grant", oauthCode(err), "the newest token of the family is revoked too")
	other, err := iss.RefreshToken("cli", "dana")
	require.NoError(t, err)
	_, err = conf.TokenSource(context.Background(), &oauth2.Token{RefreshToken: other}).Token()
	assert.NoError(t, err, "another sign-in of the same user is another family, and stays")

	// A public client cannot use client credentials.
	cc := clientcredentials.Config{ClientID: "cli", TokenURL: iss.URL() + "/token", AuthStyle: oauth2.AuthStyleInParams}
	_, err = cc.Token(context.Background())
	assert.Equal(t, "unauthorized_client", oauthCode(err))
	_, err = iss.RefreshToken("nobody", "dana")
	assert.Error(t, err)
}

func TestIssuerRejectsBadConfig(t *testing.T) {
	for _, u := range []string{"", "issuer.test", "ftp://issuer.test"} {
		_, err := authn.NewIssuer(authn.IssuerConfig{URL: u})
		assert.Error(t, err, u)
	}
	_, err := authn.NewIssuer(authn.IssuerConfig{URL: "http://issuer.test", Clients: []authn.Client{{}}})
	assert.Error(t, err)
}

func authRequest(tok string) *http.Request {
	r, _ := http.NewRequest(http.MethodPost, "http://backend.test/graphql", nil)
	r.Header.Set("Authorization", tok)
	return r
}

func oauthCode(err error) string {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		return re.ErrorCode
	}
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}
