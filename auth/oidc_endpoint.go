package auth

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// refreshAhead is how long before expiry a token from the token endpoint is
// replaced, so that a request never leaves with a token about to expire.
const refreshAhead = time.Minute

// verifiedKey is where minter leaves the verified token in oauth2.Token.Extra.
const verifiedKey = "mcp-server/verified"

// endpointTokens gets tokens from the issuer's token endpoint, with a refresh
// token or client credentials, through oauth2's ReuseTokenSource: the token
// is reused until refreshAhead before its expiry, then replaced.
type endpointTokens struct {
	ts  oauth2.TokenSource
	now func() time.Time
	log *slog.Logger

	mu   sync.Mutex
	last verifiedToken
}

func newEndpointTokens(ctx context.Context, v *verifier, s oidcSettings, kind tokenKind, r *resolver) (*endpointTokens, error) {
	if v.tokenURL == "" {
		return nil, errorf(OIDC, "issuer %s publishes no token_endpoint, so OIDC_REFRESH_TOKEN and client credentials cannot be used: use OIDC_TOKEN_FILE or OIDC_TOKEN", v.issuer)
	}
	m := &minter{
		ctx:     oidc.ClientContext(context.Background(), r.o.httpClient()),
		kind:    kind,
		refresh: s.refreshToken,
		v:       v,
		secrets: r.secrets,
		log:     r.o.Logger,
	}
	if kind == fromClientCredentials {
		m.cc = &clientcredentials.Config{ClientID: s.clientID, ClientSecret: s.clientSecret, TokenURL: v.tokenURL, Scopes: s.scopes}
	} else {
		m.oauth = &oauth2.Config{ClientID: s.clientID, ClientSecret: s.clientSecret, Endpoint: oauth2.Endpoint{TokenURL: v.tokenURL}, Scopes: s.scopes}
	}
	e := &endpointTokens{ts: oauth2.ReuseTokenSourceWithExpiry(nil, m, refreshAhead), now: r.o.Now, log: r.o.Logger}
	// The first token is fetched now: a bad secret or refresh token must
	// stop start-up, not the first tool call.
	if _, err := e.current(ctx); err != nil {
		return nil, err
	}
	return e, nil
}

func (e *endpointTokens) current(context.Context) (verifiedToken, error) {
	t, err := e.ts.Token()
	e.mu.Lock()
	defer e.mu.Unlock()
	if err != nil {
		// The refresh starts refreshAhead early; until the old token
		// really expires, sending it beats failing the request.
		if e.last.raw != "" && e.now().Before(e.last.expiry) {
			e.log.Warn("OIDC token refresh failed; still sending the current token until it expires", "expires", e.last.expiry.UTC().Format(time.RFC3339), "reason", message(err))
			return e.last, nil
		}
		return verifiedToken{}, err
	}
	vt, _ := t.Extra(verifiedKey).(verifiedToken)
	e.last = vt
	return vt, nil
}

func (e *endpointTokens) latest() verifiedToken {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.last
}

func (e *endpointTokens) problem() string { return "" }

// minter is the oauth2.TokenSource behind the ReuseTokenSource: every call
// asks the token endpoint for a new token and verifies it. oauth2's own
// sources are not used directly because they cache with their own expiry
// margin, which would defeat refreshAhead.
type minter struct {
	ctx     context.Context // carries the HTTP client, see oidc.ClientContext
	kind    tokenKind
	oauth   *oauth2.Config            // refresh_token grant
	cc      *clientcredentials.Config // client_credentials grant
	refresh string                    // current refresh token; rotated by the issuer
	v       *verifier
	secrets *secrets
	log     *slog.Logger
}

// Token implements oauth2.TokenSource. ReuseTokenSource serialises calls, so
// the refresh-token rotation below needs no lock of its own.
func (m *minter) Token() (*oauth2.Token, error) {
	ctx, cancel := context.WithTimeout(m.ctx, m.v.timeout)
	defer cancel()
	var t *oauth2.Token
	var err error
	if m.cc != nil {
		t, err = m.cc.Token(ctx)
	} else {
		t, err = m.oauth.TokenSource(ctx, &oauth2.Token{RefreshToken: m.refresh}).Token()
	}
	if err != nil {
		return nil, m.explain(err)
	}
	m.secrets.add(t.AccessToken, t.RefreshToken)
	if t.RefreshToken != "" {
		m.refresh = t.RefreshToken
	}
	// AppSync verifies a JWT: the ID token when there is one (its aud is
	// the client id), else a JWT access token (client credentials).
	raw := t.AccessToken
	if id, ok := t.Extra("id_token").(string); ok && id != "" {
		raw = id
		m.secrets.add(id)
	}
	vt, err := m.v.verify(ctx, raw)
	if err != nil {
		return nil, withRemedy(err, "the issuer's token endpoint issued it: check OIDC_AUDIENCE against the client's settings at "+m.v.issuer)
	}
	m.log.Debug("OIDC token obtained", "grant", string(m.kind), "subject", vt.subject, "expires", vt.expiry.UTC().Format(time.RFC3339))
	out := &oauth2.Token{AccessToken: raw, TokenType: "Bearer", Expiry: vt.expiry}
	return out.WithExtra(map[string]any{verifiedKey: vt}), nil
}

// explain names the variable to fix for a token endpoint failure.
func (m *minter) explain(err error) *Error {
	var re *oauth2.RetrieveError
	if !errors.As(err, &re) {
		return errorf(OIDC, "token endpoint %s unreachable (%s): check the network", m.v.tokenURL, m.secrets.scrub(oneLine(err)))
	}
	desc := ""
	if re.ErrorDescription != "" {
		desc = ": " + m.secrets.scrub(re.ErrorDescription)
	}
	switch re.ErrorCode {
	case "invalid_client":
		return errorf(OIDC, "the issuer rejected the client (invalid_client%s): check OIDC_CLIENT_ID and OIDC_CLIENT_SECRET", desc)
	case "invalid_grant":
		return errorf(OIDC, "the issuer rejected OIDC_REFRESH_TOKEN (invalid_grant%s): it expired, was revoked or belongs to another client; get a new one", desc)
	case "unauthorized_client":
		return errorf(OIDC, "client OIDC_CLIENT_ID may not use the %s grant (unauthorized_client%s): allow it at the issuer", m.kind, desc)
	case "":
		status := 0
		if re.Response != nil {
			status = re.Response.StatusCode
		}
		return errorf(OIDC, "token endpoint %s answered HTTP %d without an OAuth error: check OIDC_ISSUER", m.v.tokenURL, status)
	}
	return errorf(OIDC, "token endpoint refused the %s grant (%s%s)", m.kind, re.ErrorCode, desc)
}
