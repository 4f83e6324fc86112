package authn_test

import (
	"context"
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/companyintel/mcp-server/appsynclocal/authn"
	"github.com/companyintel/mcp-server/appsynclocal/authn/authntest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func newIssuer(t *testing.T, clk *clock) *authn.Issuer {
	t.Helper()
	iss, err := authn.NewIssuer(authn.IssuerConfig{URL: "http://issuer.test/oidc", Now: clk.Now})
	require.NoError(t, err)
	return iss
}

func withToken(tok string) func(*http.Request) {
	return func(r *http.Request) { r.Header.Set("Authorization", tok) }
}

func TestOIDCAuthenticator(t *testing.T) {
	clk := newClock()
	iss := newIssuer(t, clk)
	srv := backend(t, iss.Authenticator())
	now := clk.Now()

	sign := func(c authn.Claims) string {
		tok, err := iss.Sign(c)
		require.NoError(t, err)
		return tok
	}
	valid := sign(authn.Claims{Subject: "alice"})
	// A second issuer with the same URL has another key: its tokens look
	// right in every claim but the signature.
	impostor, err := authn.NewIssuer(authn.IssuerConfig{URL: iss.URL(), Now: clk.Now})
	require.NoError(t, err)
	forged, err := impostor.Mint("alice", time.Hour)
	require.NoError(t, err)

	tests := []struct {
		name    string
		header  string
		subject string
		message string
	}{
		{name: "valid token", header: valid, subject: "alice"},
		{name: "no header", header: "", message: authntest.MsgNotAuthorized},
		{name: "expired", header: sign(authn.Claims{Subject: "alice", IssuedAt: now.Add(-2 * time.Hour), Expiry: now.Add(-time.Hour)}), message: "Token has expired."},
		{name: "wrong audience", header: sign(authn.Claims{Subject: "alice", Audience: "someone-else"}), message: `Token audience ["someone-else"] does not match this API's client id "appsync-local".`},
		{name: "wrong issuer", header: sign(authn.Claims{Subject: "alice", Issuer: "http://evil.test"}), message: `Token issuer "http://evil.test" is not trusted by this API (expected "http://issuer.test/oidc").`},
		{name: "signed by another key", header: forged, message: "Token signature is invalid."},
		{name: "tampered payload", header: tamper(t, valid, "alice", "mallory"), message: "Token signature is invalid."},
		{name: "Bearer prefix, which AppSync rejects", header: "Bearer " + valid, message: "Unable to parse JWT token."},
		{name: "not a JWT", header: "hello", message: "Unable to parse JWT token."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := call(t, srv.URL, withToken(tt.header))
			if tt.message != "" {
				assert.Equal(t, http.StatusUnauthorized, got.status)
				assert.Equal(t, tt.message, got.message)
				return
			}
			assert.Equal(t, http.StatusOK, got.status)
			assert.Equal(t, authn.MethodOIDC, got.method)
			assert.Equal(t, tt.subject, got.subject)
		})
	}
}

// TestOIDCAuthenticatorClock shows expiry follows the injected clock: no
// sleeping for a token to expire.
func TestOIDCAuthenticatorClock(t *testing.T) {
	clk := newClock()
	iss := newIssuer(t, clk)
	srv := backend(t, iss.Authenticator())
	tok, err := iss.Mint("bob", 10*time.Minute)
	require.NoError(t, err)

	assert.Equal(t, "bob", call(t, srv.URL, withToken(tok)).subject)
	clk.Add(11 * time.Minute)
	assert.Equal(t, "Token has expired.", call(t, srv.URL, withToken(tok)).message)
}

// TestOIDCAuthenticatorDiscovery verifies through discovery and JWKS over
// HTTP, as the backend does for an external issuer.
func TestOIDCAuthenticatorDiscovery(t *testing.T) {
	iss, err := authn.StartIssuer("127.0.0.1:0", authn.IssuerConfig{})
	require.NoError(t, err)
	t.Cleanup(func() { iss.Close() })

	a, err := authn.NewOIDCAuthenticator(context.Background(), authn.OIDCConfig{Issuer: iss.URL(), Audience: iss.Audience()})
	require.NoError(t, err)
	srv := backend(t, a)
	tok, err := iss.Mint("carol", time.Hour)
	require.NoError(t, err)
	got := call(t, srv.URL, withToken(tok))
	assert.Equal(t, "carol", got.subject, got.message)

	other, err := authn.NewIssuer(authn.IssuerConfig{URL: iss.URL()})
	require.NoError(t, err)
	forged, err := other.Mint("carol", time.Hour)
	require.NoError(t, err)
	assert.Equal(t, "Token signature is invalid.", call(t, srv.URL, withToken(forged)).message)

	_, err = authn.NewOIDCAuthenticator(context.Background(), authn.OIDCConfig{Issuer: iss.URL() + "/wrong", Audience: "x"})
	assert.Error(t, err)
}

// tamper replaces a string in the token's payload, keeping the signature.
func tamper(t *testing.T, tok, from, to string) string {
	t.Helper()
	parts := strings.Split(tok, ".")
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	require.NoError(t, err)
	changed := strings.Replace(string(payload), from, to, 1)
	require.NotEqual(t, string(payload), changed)
	parts[1] = base64.RawURLEncoding.EncodeToString([]byte(changed))
	return strings.Join(parts, ".")
}
