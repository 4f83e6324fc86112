package exchange_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/companyintel/mcp-server/auth"
	"github.com/companyintel/mcp-server/internal/oauth/exchange"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// clock is a settable time source.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// tokenEndpoint is a stand-in issuer that records each exchange request and
// answers with a token naming the subject token and a counter, or with the
// error set in fail.
type tokenEndpoint struct {
	srv       *httptest.Server
	count     atomic.Int32
	expiresIn int
	fail      atomic.Pointer[map[string]string]
	hold      chan struct{} // when set, each exchange waits for it to close

	mu    sync.Mutex
	forms []url.Values
	users []string // client_secret_basic user of each request
}

func newTokenEndpoint(t *testing.T) *tokenEndpoint {
	e := &tokenEndpoint{expiresIn: 600}
	e.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		require.NoError(t, r.ParseForm())
		id, _, _ := r.BasicAuth()
		e.mu.Lock()
		e.forms = append(e.forms, r.PostForm)
		e.users = append(e.users, id)
		e.mu.Unlock()
		n := e.count.Add(1)
		if e.hold != nil {
			<-e.hold
		}
		w.Header().Set("Content-Type", "application/json")
		if f := e.fail.Load(); f != nil {
			w.WriteHeader(http.StatusBadRequest)
			_ = json.NewEncoder(w).Encode(*f)
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{
			"access_token":      "backend-token-for-" + r.PostForm.Get("subject_token") + "-" + string(rune('0'+n)),
			"issued_token_type": "urn:ietf:params:oauth:token-type:access_token",
			"token_type":        "Bearer",
			"expires_in":        e.expiresIn,
		})
	}))
	t.Cleanup(e.srv.Close)
	return e
}

func (e *tokenEndpoint) lastForm() url.Values {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.forms[len(e.forms)-1]
}

// backend records the Authorization header of each request it receives.
type backend struct {
	srv  *httptest.Server
	mu   sync.Mutex
	seen []string
}

func newBackend(t *testing.T) *backend {
	b := &backend{}
	b.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b.mu.Lock()
		b.seen = append(b.seen, r.Header.Get("Authorization"))
		b.mu.Unlock()
		_, _ = io.WriteString(w, `{"data":{}}`)
	}))
	t.Cleanup(b.srv.Close)
	return b
}

func (b *backend) requests() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.seen...)
}

type fixture struct {
	ep      *tokenEndpoint
	be      *backend
	clock   *clock
	x       *exchange.Exchanger
	client  *http.Client
	results []string
	hits    []bool
	mu      sync.Mutex
}

func newFixture(t *testing.T, edit func(*exchange.ExchangeConfig)) *fixture {
	f := &fixture{ep: newTokenEndpoint(t), be: newBackend(t), clock: &clock{t: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}}
	c := exchange.ExchangeConfig{
		TokenURL: f.ep.srv.URL + "/token", ClientID: "mcp-server", ClientSecret: "exchange-secret-value",
		Audience: "appsync-local", Now: f.clock.Now, Skew: 30 * time.Second,
		OnExchange:    func(r string) { f.mu.Lock(); f.results = append(f.results, r); f.mu.Unlock() },
		OnCacheLookup: func(hit bool) { f.mu.Lock(); f.hits = append(f.hits, hit); f.mu.Unlock() },
	}
	if edit != nil {
		edit(&c)
	}
	f.x = exchange.NewExchanger(c)
	f.client = &http.Client{Transport: f.x.Transport(nil)}
	return f
}

func (f *fixture) subject(user string) exchange.Subject {
	return exchange.Subject{
		Issuer: "https://issuer.example", Subject: user, Token: "inbound-jwt-of-" + user,
		Scopes: []string{"companies:read"}, Expiry: f.clock.Now().Add(time.Hour),
	}
}

// call posts to the backend as s (or as nobody, for a zero Subject).
func (f *fixture) call(t *testing.T, s exchange.Subject) error {
	t.Helper()
	ctx := context.Background()
	if s.Subject != "" {
		ctx = exchange.WithSubject(ctx, s)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, f.be.srv.URL, strings.NewReader(`{"query":"{x}"}`))
	require.NoError(t, err)
	resp, err := f.client.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	return nil
}

// TestExchangeRequest: one RFC 8693 request with the server's client
// credentials; the backend gets the issued token bare, never the inbound one.
func TestExchangeRequest(t *testing.T) {
	f := newFixture(t, nil)
	require.NoError(t, f.call(t, f.subject("alice")))

	form := f.ep.lastForm()
	assert.Equal(t, "urn:ietf:params:oauth:grant-type:token-exchange", form.Get("grant_type"))
	assert.Equal(t, "inbound-jwt-of-alice", form.Get("subject_token"))
	assert.Equal(t, "urn:ietf:params:oauth:token-type:access_token", form.Get("subject_token_type"))
	assert.Equal(t, "urn:ietf:params:oauth:token-type:access_token", form.Get("requested_token_type"))
	assert.Equal(t, "appsync-local", form.Get("audience"))
	assert.Equal(t, "companies:read", form.Get("scope"))
	assert.Empty(t, form.Get("client_secret"), "the secret goes in the Authorization header")
	assert.Equal(t, []string{"mcp-server"}, f.ep.users)

	assert.Equal(t, []string{"backend-token-for-inbound-jwt-of-alice-1"}, f.be.requests(), "bare token, no Bearer prefix")
	assert.Equal(t, []string{exchange.ResultOK}, f.results)
}

// TestCacheUntilExpiryLessSkew: the token serves until expires_in less the
// skew, then a new exchange; an inbound token that expires sooner bounds it.
func TestCacheUntilExpiryLessSkew(t *testing.T) {
	f := newFixture(t, nil)
	alice := f.subject("alice")
	require.NoError(t, f.call(t, alice))
	f.clock.Add(569 * time.Second)
	require.NoError(t, f.call(t, alice))
	assert.EqualValues(t, 1, f.ep.count.Load(), "cached until 600s - 30s")
	f.clock.Add(time.Second)
	require.NoError(t, f.call(t, alice))
	assert.EqualValues(t, 2, f.ep.count.Load(), "renewed at 570s")
	assert.Equal(t, []bool{false, true, false}, f.hits)

	bob := f.subject("bob")
	bob.Expiry = f.clock.Now().Add(100 * time.Second) // sooner than expires_in
	require.NoError(t, f.call(t, bob))
	f.clock.Add(69 * time.Second)
	require.NoError(t, f.call(t, bob))
	assert.EqualValues(t, 3, f.ep.count.Load())
	f.clock.Add(time.Second)
	require.NoError(t, f.call(t, bob))
	assert.EqualValues(t, 4, f.ep.count.Load(), "bounded by the inbound token's expiry less skew")
}

// TestCachePerUserAndScopes: users never share a token, nor do one user's
// different scope sets; the scope order does not matter.
func TestCachePerUserAndScopes(t *testing.T) {
	f := newFixture(t, nil)
	alice, bob := f.subject("alice"), f.subject("bob")
	require.NoError(t, f.call(t, alice))
	require.NoError(t, f.call(t, bob))
	seen := f.be.requests()
	assert.NotEqual(t, seen[0], seen[1])

	wide := f.subject("alice")
	wide.Scopes = []string{"companies:write", "companies:read"}
	require.NoError(t, f.call(t, wide))
	assert.EqualValues(t, 3, f.ep.count.Load())
	wide.Scopes = []string{"companies:read", "companies:write"}
	require.NoError(t, f.call(t, wide))
	assert.EqualValues(t, 3, f.ep.count.Load())
}

// TestBurstMakesOneExchange: many concurrent calls of one user wait on a
// single exchange.
func TestBurstMakesOneExchange(t *testing.T) {
	const calls = 40
	misses := make(chan struct{}, calls)
	f := newFixture(t, func(c *exchange.ExchangeConfig) {
		c.OnCacheLookup = func(hit bool) {
			if !hit {
				misses <- struct{}{}
			}
		}
	})
	f.ep.hold = make(chan struct{})
	alice := f.subject("alice")
	var wg sync.WaitGroup
	errs := make(chan error, calls)
	for range calls {
		wg.Go(func() { errs <- f.call(t, alice) })
	}
	for range calls { // every call has missed the cache before the exchange ends
		<-misses
	}
	close(f.ep.hold)
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	assert.EqualValues(t, 1, f.ep.count.Load())
	assert.Len(t, f.be.requests(), calls)
}

// TestCacheBounded: the cache holds MaxEntries users; the least recently
// used one exchanges again.
func TestCacheBounded(t *testing.T) {
	f := newFixture(t, func(c *exchange.ExchangeConfig) { c.MaxEntries = 2 })
	for _, u := range []string{"a", "b", "c", "c", "b"} {
		require.NoError(t, f.call(t, f.subject(u)))
	}
	assert.EqualValues(t, 3, f.ep.count.Load())
	require.NoError(t, f.call(t, f.subject("a")))
	assert.EqualValues(t, 4, f.ep.count.Load(), "a was evicted")
}

// TestNoSubjectIsNeverSent: a request without a verified user fails before
// any exchange or backend request.
func TestNoSubjectIsNeverSent(t *testing.T) {
	f := newFixture(t, nil)
	err := f.call(t, exchange.Subject{})
	var ae *auth.Error
	require.ErrorAs(t, err, &ae)
	assert.Contains(t, ae.Msg, "no verified user")
	assert.Empty(t, f.be.requests())
	assert.Zero(t, f.ep.count.Load())
}

// TestRefusalIsClearAndLeaksNothing: the issuer's invalid_target becomes an
// unauthorized-class error naming the audience and the next step, without
// the user's token or the client secret even if the issuer echoed them; a
// refusal is not cached.
func TestRefusalIsClearAndLeaksNothing(t *testing.T) {
	f := newFixture(t, nil)
	f.ep.fail.Store(&map[string]string{"error": "invalid_target", "error_description": "audience appsync-local not allowed for inbound-jwt-of-alice (client exchange-secret-value)"})
	alice := f.subject("alice")
	err := f.call(t, alice)
	var ae *auth.Error
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, exchange.Method, ae.Method)
	assert.Contains(t, ae.Msg, "invalid_target")
	assert.Contains(t, ae.Msg, `audience "appsync-local"`)
	assert.NotContains(t, err.Error(), "inbound-jwt-of-alice")
	assert.NotContains(t, err.Error(), "exchange-secret-value")
	assert.Empty(t, f.be.requests())

	require.Error(t, f.call(t, alice))
	assert.EqualValues(t, 2, f.ep.count.Load(), "a refusal is not cached")
	assert.Equal(t, []string{exchange.ResultRefused, exchange.ResultRefused}, f.results)
}

func TestIssuerUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	ln.Close()
	f := newFixture(t, func(c *exchange.ExchangeConfig) { c.TokenURL = "http://" + addr + "/token" })
	err = f.call(t, f.subject("alice"))
	var ae *auth.Error
	require.ErrorAs(t, err, &ae)
	assert.Contains(t, ae.Msg, "did not answer the token exchange")
	assert.NotContains(t, ae.Msg, "dial")
	assert.Equal(t, []string{exchange.ResultError}, f.results)
}

// TestCredentialsOnlyOverHTTPS: a plain-http token endpoint or backend off
// loopback is refused before anything is sent.
func TestCredentialsOnlyOverHTTPS(t *testing.T) {
	c := exchange.ExchangeConfig{TokenURL: "http://issuer.example/token", ClientID: "mcp-server", Audience: "appsync-local"}
	assert.ErrorContains(t, c.Check(), "plain http")
	c.TokenURL = "https://issuer.example/token"
	assert.NoError(t, c.Check())

	f := newFixture(t, func(c *exchange.ExchangeConfig) { c.TokenURL = "http://issuer.example/token" })
	err := f.call(t, f.subject("alice"))
	assert.ErrorContains(t, err, "plain http")

	g := newFixture(t, nil)
	req, _ := http.NewRequestWithContext(exchange.WithSubject(context.Background(), g.subject("alice")), http.MethodPost, "http://backend.example/graphql", nil)
	_, err = g.client.Do(req)
	var ae *auth.Error
	require.True(t, errors.As(err, &ae))
	assert.Contains(t, ae.Msg, "plain http")
	assert.Zero(t, g.ep.count.Load())
}

// TestUnauthorizedHint names the issuer and audience, never a secret.
func TestUnauthorizedHint(t *testing.T) {
	f := newFixture(t, nil)
	h := f.x.UnauthorizedHint()
	assert.Contains(t, h, f.ep.srv.URL)
	assert.Contains(t, h, `"appsync-local"`)
	assert.NotContains(t, h, "exchange-secret-value")
}
