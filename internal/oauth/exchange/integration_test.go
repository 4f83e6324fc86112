package exchange_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/companyintel/mcp-server/appsynclocal/authn"
	"github.com/companyintel/mcp-server/appsynclocal/authn/authntest"
	"github.com/companyintel/mcp-server/auth"
	"github.com/companyintel/mcp-server/internal/oauth/exchange"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mcpResource is the MCP server's resource identifier: the aud of inbound tokens.
const mcpResource = "http://127.0.0.1:8080/mcp"

// TestExchangeWithEmbeddedIssuer runs the real exchange against the real
// embedded issuer: the backend, which accepts only its own audience,
// authenticates alice and bob as themselves from their inbound tokens,
// which it would refuse if they were passed through.
func TestExchangeWithEmbeddedIssuer(t *testing.T) {
	iss, err := authn.StartIssuer("127.0.0.1:0", authn.IssuerConfig{
		Resources: []string{mcpResource},
		Clients:   []authn.Client{{ID: "mcp-server", Secret: "exchange-secret-value"}},
	})
	require.NoError(t, err)
	t.Cleanup(func() { iss.Close() })
	be := httptest.NewServer(authntest.Handler(iss.Authenticator()))
	t.Cleanup(be.Close)

	inbound := func(user string) exchange.Subject {
		exp := time.Now().Add(time.Hour)
		tok, err := iss.Sign(authn.Claims{Subject: user, Audience: mcpResource, Scopes: []string{authn.ScopeRead}, Expiry: exp})
		require.NoError(t, err)
		return exchange.Subject{Issuer: iss.URL(), Subject: user, Token: tok, Scopes: []string{authn.ScopeRead}, Expiry: exp}
	}
	exchanges := 0
	newClient := func(audience string) *http.Client {
		x := exchange.NewExchanger(exchange.ExchangeConfig{
			TokenURL: iss.URL() + "/token", ClientID: "mcp-server", ClientSecret: "exchange-secret-value",
			Audience: audience, OnExchange: func(string) { exchanges++ },
		})
		return &http.Client{Transport: x.Transport(nil)}
	}
	whoami := func(c *http.Client, ctx context.Context) (int, authntest.Whoami) {
		body, _ := json.Marshal(map[string]string{"query": authntest.WhoamiQuery})
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, be.URL, strings.NewReader(string(body)))
		resp, err := c.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		var out struct{ Data authntest.Whoami }
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
		return resp.StatusCode, out.Data
	}

	alice, bob := inbound("alice"), inbound("bob")
	// Passed through, the inbound token is refused: its audience is the MCP server.
	direct := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		r.Header.Set("Authorization", alice.Token)
		return http.DefaultTransport.RoundTrip(r)
	})}
	status, _ := whoami(direct, context.Background())
	assert.Equal(t, http.StatusUnauthorized, status)

	c := newClient(authn.DefaultAudience)
	for range 3 {
		status, who := whoami(c, exchange.WithSubject(context.Background(), alice))
		require.Equal(t, http.StatusOK, status)
		assert.Equal(t, "alice", who.Whoami.Subject)
	}
	status, who := whoami(c, exchange.WithSubject(context.Background(), bob))
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "bob", who.Whoami.Subject)
	assert.Equal(t, 2, exchanges, "one exchange per user")

	// An audience the issuer does not exchange for: invalid_target, in words.
	_, err = newClient("https://elsewhere.example").Do(mustRequest(t, exchange.WithSubject(context.Background(), alice), be.URL))
	var ae *auth.Error
	require.ErrorAs(t, err, &ae)
	assert.Contains(t, ae.Msg, "invalid_target")
	assert.NotContains(t, ae.Msg, alice.Token)
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func mustRequest(t *testing.T, ctx context.Context, url string) *http.Request {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(`{}`))
	require.NoError(t, err)
	return req
}
