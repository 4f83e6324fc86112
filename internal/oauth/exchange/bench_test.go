package exchange_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/companyintel/mcp-server/appsynclocal/authn"
	"github.com/companyintel/mcp-server/internal/oauth/exchange"
)

// BenchmarkBackendCall compares one backend round trip with the user's
// backend token cached against one that exchanges it first at the real
// embedded issuer (a fresh Exchanger per call), side by side: the ratio is
// what the cache saves per call.
func BenchmarkBackendCall(b *testing.B) {
	iss, err := authn.StartIssuer("127.0.0.1:0", authn.IssuerConfig{
		Clients: []authn.Client{{ID: "mcp-server", Secret: "exchange-secret-value"}},
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { iss.Close() })
	be := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(`{"data":{}}`)) }))
	b.Cleanup(be.Close)
	exp := time.Now().Add(time.Hour)
	tok, err := iss.Sign(authn.Claims{Subject: "alice", Audience: mcpResource, Scopes: []string{authn.ScopeRead}, Expiry: exp})
	if err != nil {
		b.Fatal(err)
	}
	ctx := exchange.WithSubject(context.Background(), exchange.Subject{Issuer: iss.URL(), Subject: "alice", Token: tok, Scopes: []string{authn.ScopeRead}, Expiry: exp})
	cfg := exchange.ExchangeConfig{TokenURL: iss.URL() + "/token", ClientID: "mcp-server", ClientSecret: "exchange-secret-value", Audience: authn.DefaultAudience}
	call := func(b *testing.B, c *http.Client) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, be.URL, strings.NewReader(`{}`))
		resp, err := c.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
	}
	b.Run("cached", func(b *testing.B) {
		c := &http.Client{Transport: exchange.NewExchanger(cfg).Transport(nil)}
		call(b, c) // the one exchange
		for b.Loop() {
			call(b, c)
		}
	})
	b.Run("exchange-each-call", func(b *testing.B) {
		for b.Loop() {
			call(b, &http.Client{Transport: exchange.NewExchanger(cfg).Transport(nil)})
		}
	})
}
