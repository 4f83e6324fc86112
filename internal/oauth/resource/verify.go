package resource

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
)

// asymmetricAlgs are the signature algorithms a token may use. HS256 (whose
// key an issuer shares with every client) and "none" are refused.
var asymmetricAlgs = []string{
	oidc.RS256, oidc.RS384, oidc.RS512,
	oidc.ES256, oidc.ES384, oidc.ES512,
	oidc.PS256, oidc.PS384, oidc.PS512,
	oidc.EdDSA,
}

// Principal is a verified token's user.
type Principal struct {
	// Issuer and Subject identify the user (iss and sub).
	Issuer, Subject string
	// ClientID is the OAuth client the token was issued to (azp, else
	// client_id); empty when the token names none.
	ClientID string
	// Scopes are the token's scopes, from scope (a space-separated string)
	// and scp (an array, as some issuers send).
	Scopes []string
	// Expiry is the token's exp.
	Expiry time.Time
	// Token is the verified JWT. It may be presented to the issuer (token
	// exchange) and nowhere else: never logged, never sent to the backend.
	Token string
}

// HasScope reports whether the token carries scope.
func (p Principal) HasScope(scope string) bool { return slices.Contains(p.Scopes, scope) }

// issuer is one trusted issuer: its verifier and where its keys live.
type issuer struct {
	url      string
	jwksURL  string
	tokenURL string
	verifier *oidc.IDTokenVerifier
	client   *http.Client
}

// discover reads an issuer's metadata (OpenID discovery, which must name
// exactly url as its issuer) and builds its verifier for audience.
func discover(ctx context.Context, url, audience string, client *http.Client, now func() time.Time) (*issuer, error) {
	p, err := oidc.NewProvider(oidc.ClientContext(ctx, client), url)
	if err != nil {
		return nil, fmt.Errorf("OAuth issuer %s: discovery failed: %s", url, describe(err))
	}
	var meta struct {
		JWKSURL  string `json:"jwks_uri"`
		TokenURL string `json:"token_endpoint"`
	}
	if err := p.Claims(&meta); err != nil || meta.JWKSURL == "" {
		return nil, fmt.Errorf("OAuth issuer %s: its metadata names no jwks_uri", url)
	}
	return &issuer{
		url:      url,
		jwksURL:  meta.JWKSURL,
		tokenURL: meta.TokenURL,
		client:   client,
		verifier: p.Verifier(&oidc.Config{
			ClientID:             audience,
			SupportedSigningAlgs: asymmetricAlgs,
			Now:                  now,
		}),
	}, nil
}

// errInvalidToken is a token that did not verify; its message is safe to
// show the client and never quotes the token.
type errInvalidToken struct{ reason string }

func (e errInvalidToken) Error() string { return e.reason }

// tokenClaims are the claims read beyond go-oidc's own.
type tokenClaims struct {
	IssuedAt  *float64        `json:"iat"`
	NotBefore *float64        `json:"nbf"`
	Scope     string          `json:"scope"`
	Scp       json.RawMessage `json:"scp"`
	Azp       string          `json:"azp"`
	ClientID  string          `json:"client_id"`
}

// verify checks raw against the issuer it names and returns its user. The
// iss claim is read unverified only to choose the issuer; that issuer's
// verifier then checks everything, iss included.
func (a *Authenticator) verify(ctx context.Context, raw string) (Principal, error) {
	iss, ok := unverifiedIssuer(raw)
	if !ok {
		return Principal{}, errInvalidToken{"the bearer token is not a signed JWT"}
	}
	is := a.issuers[iss]
	if is == nil {
		return Principal{}, errInvalidToken{"the token's issuer is not one this server trusts"}
	}
	tok, err := is.verifier.Verify(oidc.ClientContext(ctx, is.client), raw)
	if err != nil {
		var expired *oidc.TokenExpiredError
		switch {
		case errors.As(err, &expired):
			return Principal{}, errInvalidToken{"the token has expired"}
		case strings.Contains(err.Error(), "audience"):
			return Principal{}, errInvalidToken{"the token is not for this resource (aud must be " + a.cfg.Resource + ")"}
		case strings.Contains(err.Error(), "not before"):
			return Principal{}, errInvalidToken{"the token is not valid yet"}
		case strings.Contains(err.Error(), "signing algorithm") || strings.Contains(err.Error(), "malformed"):
			return Principal{}, errInvalidToken{"the token is not signed with an accepted asymmetric algorithm"}
		}
		return Principal{}, errInvalidToken{"the token's signature did not verify"}
	}
	if tok.Subject == "" {
		return Principal{}, errInvalidToken{"the token names no subject (sub)"}
	}
	var c tokenClaims
	if err := tok.Claims(&c); err != nil {
		return Principal{}, errInvalidToken{"the token's claims are unreadable"}
	}
	if err := a.checkTimes(c, tok.Expiry); err != nil {
		return Principal{}, err
	}
	p := Principal{Issuer: tok.Issuer, Subject: tok.Subject, Expiry: tok.Expiry, Token: raw,
		ClientID: c.Azp, Scopes: strings.Fields(c.Scope)}
	if p.ClientID == "" {
		p.ClientID = c.ClientID
	}
	var scp []string
	if json.Unmarshal(c.Scp, &scp) == nil {
		p.Scopes = append(p.Scopes, scp...)
	} else if s := ""; json.Unmarshal(c.Scp, &s) == nil {
		p.Scopes = append(p.Scopes, strings.Fields(s)...)
	}
	slices.Sort(p.Scopes)
	p.Scopes = slices.Compact(p.Scopes)
	return p, nil
}

// checkTimes bounds a token's times beyond go-oidc's exp check (which
// allows nbf five minutes early and ignores iat): iat is required (RFC 9068)
// and neither it nor nbf may be later than now by more than the clock skew,
// and the token may not be valid for longer than the maximum lifetime, so a
// token minted for a year (a leaked signing key, a misconfigured issuer) is
// refused even while unexpired.
func (a *Authenticator) checkTimes(c tokenClaims, exp time.Time) error {
	now := a.cfg.Now()
	if c.IssuedAt == nil {
		return errInvalidToken{"the token carries no issue time (iat)"}
	}
	iat := time.Unix(int64(*c.IssuedAt), 0)
	if iat.After(now.Add(a.cfg.ClockSkew)) {
		return errInvalidToken{fmt.Sprintf("the token is not valid yet: it was issued in the future (iat is more than %s ahead of this server's clock)", a.cfg.ClockSkew)}
	}
	if c.NotBefore != nil && time.Unix(int64(*c.NotBefore), 0).After(now.Add(a.cfg.ClockSkew)) {
		return errInvalidToken{"the token is not valid yet (nbf)"}
	}
	if exp.Sub(iat) > a.cfg.MaxTokenLifetime {
		return errInvalidToken{fmt.Sprintf("the token is valid for longer than this server accepts (at most %s from iat to exp)", a.cfg.MaxTokenLifetime)}
	}
	return nil
}

// unverifiedIssuer reads the iss claim of a compact JWS without verifying
// it, to choose which issuer's keys verify it.
func unverifiedIssuer(raw string) (string, bool) {
	parts := strings.Split(raw, ".")
	if len(parts) != 3 || len(raw) > maxTokenBytes {
		return "", false
	}
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return "", false
	}
	var c struct {
		Issuer string `json:"iss"`
	}
	if json.Unmarshal(payload, &c) != nil || c.Issuer == "" {
		return "", false
	}
	return c.Issuer, true
}

// maxTokenBytes bounds a bearer token; real ones are a few KiB.
const maxTokenBytes = 16 << 10

// describe shortens a discovery error to what an operator can act on.
func describe(err error) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return "no answer in time"
	}
	return err.Error()
}
