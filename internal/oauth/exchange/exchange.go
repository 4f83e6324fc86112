package exchange

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
	"golang.org/x/sync/singleflight"

	"github.com/companyintel/mcp-server/auth"
	"github.com/companyintel/mcp-server/internal/loopback"
)

// Method names token exchange in errors. Failures are *auth.Error values,
// which the tools already report as unauthorized: nothing was sent, and the
// fix is the operator's or the user's, as the message says.
const Method auth.Method = "token-exchange"

// RFC 8693 identifiers.
const (
	grantTokenExchange = "urn:ietf:params:oauth:grant-type:token-exchange"
	tokenTypeAccess    = "urn:ietf:params:oauth:token-type:access_token"
	tokenTypeJWT       = "urn:ietf:params:oauth:token-type:jwt"
)

// Defaults of ExchangeConfig.
const (
	DefaultMaxEntries = 10000
	DefaultSkew       = 30 * time.Second
)

// exchangeTimeout bounds one exchange. It is detached from the caller that
// started it, because every caller of a burst waits on the same exchange.
const exchangeTimeout = 10 * time.Second

// Exchange results, as ExchangeConfig.OnExchange reports them.
const (
	ResultOK      = "ok"      // a token was issued
	ResultRefused = "refused" // the issuer answered with an OAuth error
	ResultError   = "error"   // the issuer was unreachable or answered nonsense
)

// ExchangeConfig configures an Exchanger.
type ExchangeConfig struct {
	// TokenURL is the issuer's token endpoint: https, or http on loopback.
	TokenURL string
	// ClientID and ClientSecret authenticate the server to the issuer
	// (client_secret_basic).
	ClientID, ClientSecret string
	// Audience is the backend's audience: the aud the exchanged token
	// must carry (AppSync's OIDC "client id").
	Audience string
	// HTTPClient reaches the issuer; nil means http.DefaultClient.
	HTTPClient *http.Client
	// Now is the clock for cache expiry; nil means time.Now.
	Now func() time.Time
	// MaxEntries bounds the cache (one entry per user and scope set); 0
	// means DefaultMaxEntries.
	MaxEntries int
	// Skew is how long before expiry a cached token is given up; 0 means
	// DefaultSkew.
	Skew time.Duration
	// OnExchange, when set, is called once per exchange with ResultOK,
	// ResultRefused or ResultError.
	OnExchange func(result string)
	// OnCacheLookup, when set, is called once per request with whether a
	// cached token served it.
	OnCacheLookup func(hit bool)
}

// Check reports a configuration that can never work, so that start-up can
// refuse it. Exchanges with such a configuration fail with the same words.
func (c ExchangeConfig) Check() error {
	switch {
	case c.ClientID == "":
		return &auth.Error{Method: Method, Msg: "no client id for the token exchange: set the client the server authenticates to the issuer with"}
	case c.Audience == "":
		return &auth.Error{Method: Method, Msg: "no backend audience for the token exchange: set the audience the data API's OIDC configuration expects"}
	}
	u, err := url.Parse(c.TokenURL)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return &auth.Error{Method: Method, Msg: fmt.Sprintf("token endpoint %q is not an absolute http(s) URL", c.TokenURL)}
	}
	if u.Scheme == "http" && !loopback.Host(u.Hostname()) {
		return &auth.Error{Method: Method, Msg: fmt.Sprintf("token endpoint %s is plain http: user tokens and the client secret are sent there only over https (or http on loopback)", u.Redacted())}
	}
	return nil
}

// Exchanger obtains a backend token for each user by token exchange and
// caches it per user until shortly before it (or the user's own token)
// expires. Safe for concurrent use.
type Exchanger struct {
	cfg   ExchangeConfig
	err   error // Check's verdict, returned by every exchange
	cache *lru.Cache[string, cached]
	group singleflight.Group
}

// cached is an exchanged token and the instant it stops being used.
type cached struct {
	token string
	until time.Time
}

// NewExchanger returns an Exchanger. A configuration that Check refuses
// makes every request fail with Check's error, without sending anything.
func NewExchanger(c ExchangeConfig) *Exchanger {
	if c.HTTPClient == nil {
		c.HTTPClient = http.DefaultClient
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.MaxEntries <= 0 {
		c.MaxEntries = DefaultMaxEntries
	}
	if c.Skew <= 0 {
		c.Skew = DefaultSkew
	}
	cache, err := lru.New[string, cached](c.MaxEntries)
	if err != nil { // only for a size <= 0, excluded above
		panic(err)
	}
	return &Exchanger{cfg: c, err: c.Check(), cache: cache}
}

// token returns a backend token for s: cached, or from one exchange shared
// by every concurrent caller for the same user and scopes.
func (x *Exchanger) token(ctx context.Context, s Subject) (string, error) {
	if x.err != nil {
		return "", x.err
	}
	key := cacheKey(s, x.cfg.Audience)
	if tok, ok := x.lookup(key); ok {
		x.cacheLookup(true)
		return tok, nil
	}
	x.cacheLookup(false)
	if s.Token == "" {
		// A request that carried no token of its own (a download link):
		// only the backend token the user's own call obtained will do.
		return "", &auth.Error{Method: Method, Msg: "no backend token is held for this user any more (their sign-in ended or the server restarted); nothing was sent. Ask for the export again"}
	}
	ch := x.group.DoChan(key, func() (any, error) {
		// A flight that ended between the lookup above and this one
		// has already stored the token.
		if tok, ok := x.lookup(key); ok {
			return tok, nil
		}
		tok, until, err := x.exchange(context.WithoutCancel(ctx), s)
		if err != nil {
			return nil, err
		}
		if x.cfg.Now().Before(until) {
			x.cache.Add(key, cached{token: tok, until: until})
		}
		return tok, nil
	})
	select {
	case r := <-ch:
		if r.Err != nil {
			return "", r.Err
		}
		return r.Val.(string), nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func (x *Exchanger) lookup(key string) (string, bool) {
	c, ok := x.cache.Get(key)
	if !ok {
		return "", false
	}
	if !x.cfg.Now().Before(c.until) {
		x.cache.Remove(key)
		return "", false
	}
	return c.token, true
}

func (x *Exchanger) cacheLookup(hit bool) {
	if x.cfg.OnCacheLookup != nil {
		x.cfg.OnCacheLookup(hit)
	}
}

func (x *Exchanger) report(result string) {
	if x.cfg.OnExchange != nil {
		x.cfg.OnExchange(result)
	}
}

// cacheKey hashes what the exchanged token depends on. The inbound token
// itself is not part of it: a user's next token reuses the exchange.
func cacheKey(s Subject, audience string) string {
	scopes := slices.Clone(s.Scopes)
	slices.Sort(scopes)
	scopes = slices.Compact(scopes)
	h := sha256.New()
	for _, part := range []string{s.Issuer, s.Subject, strings.Join(scopes, " "), audience} {
		// Length-prefixed, so no two tuples hash alike.
		fmt.Fprintf(h, "%d:%s;", len(part), part)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// exchange performs one RFC 8693 exchange. golang.org/x/oauth2 has no
// exchange API, but its client credentials flow brings client
// authentication and RFC 6749 error decoding, and lets EndpointParams
// replace grant_type.
func (x *Exchanger) exchange(ctx context.Context, s Subject) (string, time.Time, error) {
	ctx, cancel := context.WithTimeout(ctx, exchangeTimeout)
	defer cancel()
	ctx = context.WithValue(ctx, oauth2.HTTPClient, x.cfg.HTTPClient)
	cc := clientcredentials.Config{
		ClientID:     x.cfg.ClientID,
		ClientSecret: x.cfg.ClientSecret,
		TokenURL:     x.cfg.TokenURL,
		Scopes:       s.Scopes,
		// Not auto-detection: it retries every refusal with the other
		// style, which would double each refused exchange.
		AuthStyle: oauth2.AuthStyleInHeader,
		EndpointParams: url.Values{
			"grant_type":           {grantTokenExchange},
			"subject_token":        {s.Token},
			"subject_token_type":   {tokenTypeAccess},
			"requested_token_type": {tokenTypeAccess},
			"audience":             {x.cfg.Audience},
		},
	}
	t, err := cc.Token(ctx)
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) {
			x.report(ResultRefused)
			return "", time.Time{}, x.refusal(re, s)
		}
		x.report(ResultError)
		return "", time.Time{}, x.unreachable()
	}
	if tt, _ := t.Extra("issued_token_type").(string); t.AccessToken == "" || (tt != "" && tt != tokenTypeAccess && tt != tokenTypeJWT) {
		x.report(ResultError)
		return "", time.Time{}, &auth.Error{Method: Method, Msg: "the issuer's token exchange answer holds no access token: check that the issuer implements RFC 8693"}
	}
	x.report(ResultOK)
	// expires_in is read here, against the injected clock; x/oauth2
	// converts it with the wall clock.
	until := s.Expiry
	if sec := expiresIn(t.Extra("expires_in")); sec > 0 {
		if e := x.cfg.Now().Add(time.Duration(sec) * time.Second); until.IsZero() || e.Before(until) {
			until = e
		}
	}
	if !until.IsZero() {
		until = until.Add(-x.cfg.Skew)
	}
	return t.AccessToken, until, nil
}

// expiresIn reads expires_in, a JSON number that some issuers quote.
func expiresIn(v any) int64 {
	switch n := v.(type) {
	case float64:
		return int64(n)
	case json.Number:
		i, _ := n.Int64()
		return i
	case string:
		i, _ := strconv.ParseInt(n, 10, 64)
		return i
	}
	return 0
}

// refusal turns the issuer's OAuth error into a sentence with the next step.
// The issuer's description is kept, shortened and scrubbed of the two
// secrets this exchange sent; the response body is never quoted.
func (x *Exchanger) refusal(re *oauth2.RetrieveError, s Subject) error {
	code := re.ErrorCode
	if code == "" && re.Response != nil {
		code = "HTTP " + strconv.Itoa(re.Response.StatusCode)
	}
	words := code
	if d := scrub(re.ErrorDescription, s.Token, x.cfg.ClientSecret); d != "" {
		words += ": " + d
	}
	var next string
	switch re.ErrorCode {
	case "invalid_target":
		next = fmt.Sprintf("the issuer does not issue tokens for the audience %q; allow that audience for token exchange at the issuer, or correct the backend audience the server asks for", x.cfg.Audience)
	case "invalid_client", "unauthorized_client":
		next = "check the client id and secret the server uses at the issuer, and that this client may use token exchange"
	case "unsupported_grant_type":
		next = "the issuer does not support token exchange (RFC 8693); run the server with its own credentials upstream instead"
	case "invalid_grant", "invalid_request", "invalid_token":
		next = "the issuer did not accept the user's token for exchange; sign in again to get a new token"
	case "invalid_scope":
		next = "the issuer refused the user's scopes for the backend audience; ask for fewer scopes"
	default:
		next = "the issuer could not issue a backend token for this user; retry, and if it persists check the issuer's logs"
	}
	return &auth.Error{Method: Method, Msg: "the issuer refused to exchange the user's token for a data API token (" + words + "); " + next}
}

// unreachable describes a failed exchange without the Go error, whose text
// names addresses and types.
func (x *Exchanger) unreachable() error {
	host := x.cfg.TokenURL
	if u, err := url.Parse(x.cfg.TokenURL); err == nil {
		host = u.Host
	}
	return &auth.Error{Method: Method, Msg: "the issuer's token endpoint at " + host + " did not answer the token exchange; check that the issuer is running and reachable, then retry"}
}

// maxDescription bounds how much of the issuer's own words a message keeps.
const maxDescription = 200

// scrub keeps a printable, bounded excerpt of s with every secret removed.
func scrub(s string, secrets ...string) string {
	for _, v := range secrets {
		if v != "" {
			s = strings.ReplaceAll(s, v, "[redacted]")
		}
	}
	s = strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, s)
	if r := []rune(s); len(r) > maxDescription {
		s = string(r[:maxDescription]) + "…"
	}
	return strings.TrimSpace(s)
}
