package authn

import (
	"context"
	"crypto"
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

// 401 messages of the OIDC mode. The first two are AppSync's own words; AppSync
// answers the others with one of those or a generic refusal, and the local
// backend names the failed check instead, which is what a developer needs.
// They are sentences shown to users as the backend's message, hence the
// capitals and full stops that Go error strings otherwise avoid.
const (
	msgUnparsableJWT = "Unable to parse JWT token."
	msgTokenExpired  = "Token has expired."
	msgBadSignature  = "Token signature is invalid."
	msgNoSubject     = "Token has no sub claim."
)

// OIDCAuthenticator verifies the JWT in the Authorization header with go-oidc:
// signature, issuer, audience ("client id" in AppSync's settings) and expiry.
type OIDCAuthenticator struct {
	issuer   string
	audience string
	v        *oidc.IDTokenVerifier
}

// OIDCConfig points an OIDCAuthenticator at an issuer.
type OIDCConfig struct {
	// Issuer is the issuer URL; its discovery document must name exactly it.
	Issuer string
	// Audience is the required aud, as AppSync's OIDC "client id".
	Audience string
	// Now is the clock for expiry; nil means time.Now.
	Now func() time.Time
	// HTTPClient fetches the discovery document and keys; nil means
	// http.DefaultClient.
	HTTPClient *http.Client
}

// NewOIDCAuthenticator discovers the issuer (an HTTP request, bounded by
// ctx) and verifies tokens against the keys it publishes. For the embedded
// issuer, Issuer.Authenticator needs no request.
func NewOIDCAuthenticator(ctx context.Context, c OIDCConfig) (*OIDCAuthenticator, error) {
	if c.Audience == "" {
		return nil, errors.New("oidc authenticator: empty audience")
	}
	hc := c.HTTPClient
	if hc == nil {
		hc = http.DefaultClient
	}
	p, err := oidc.NewProvider(oidc.ClientContext(ctx, hc), c.Issuer)
	if err != nil {
		return nil, fmt.Errorf("oidc authenticator: discovering %s: %w", c.Issuer, err)
	}
	keyCtx := oidc.ClientContext(context.Background(), hc)
	return &OIDCAuthenticator{
		issuer:   c.Issuer,
		audience: c.Audience,
		v:        p.VerifierContext(keyCtx, &oidc.Config{ClientID: c.Audience, Now: c.Now}),
	}, nil
}

// Authenticator returns an OIDCAuthenticator for this issuer's tokens that
// checks signatures against the issuer's key directly, so the backend can
// build it before any listener is up.
func (i *Issuer) Authenticator() *OIDCAuthenticator {
	keys := &oidc.StaticKeySet{PublicKeys: []crypto.PublicKey{&i.key.PublicKey}}
	return &OIDCAuthenticator{
		issuer:   i.url,
		audience: i.audience,
		v: oidc.NewVerifier(i.url, keys, &oidc.Config{
			ClientID:             i.audience,
			SupportedSigningAlgs: []string{oidc.ES256},
			Now:                  i.now,
		}),
	}
}

// Authenticate implements the Authenticator contract for OIDC.
//
// A SigV4 Authorization header is not ours (ok=false). Anything else in the
// header must be a bare JWT: AppSync does not strip a "Bearer " prefix and
// answers "Unable to parse JWT token." (aws/aws-appsync-community#96), and
// so does this backend, so a client that works here works there.
func (a *OIDCAuthenticator) Authenticate(r *http.Request, _ []byte) (Identity, bool, error) {
	raw := r.Header.Get("Authorization")
	if raw == "" || strings.HasPrefix(raw, sigV4Algorithm+" ") {
		return Identity{}, false, nil
	}
	c, err := peekClaims(raw)
	if err != nil {
		return Identity{}, true, errors.New(msgUnparsableJWT)
	}
	tok, err := a.v.Verify(r.Context(), raw)
	if err != nil {
		return Identity{}, true, a.explain(c, err)
	}
	if tok.Subject == "" {
		return Identity{}, true, errors.New(msgNoSubject)
	}
	return Identity{Method: MethodOIDC, Subject: tok.Subject}, true, nil
}

// explain picks the failed check. go-oidc verifies the signature first, so a
// token from a foreign issuer fails there; its (unverified) iss names the
// real mistake.
func (a *OIDCAuthenticator) explain(c peeked, err error) error {
	var expired *oidc.TokenExpiredError
	switch {
	case c.Issuer != a.issuer:
		return fmt.Errorf("Token issuer %q is not trusted by this API (expected %q).", c.Issuer, a.issuer)
	case strings.Contains(err.Error(), "signature"):
		return errors.New(msgBadSignature)
	case errors.As(err, &expired):
		return errors.New(msgTokenExpired)
	case !slices.Contains(c.Audience, a.audience):
		return fmt.Errorf("Token audience %q does not match this API's client id %q.", c.Audience, a.audience)
	}
	return errors.New(msgUnparsableJWT)
}

// peeked holds the claims read without verification, for messages only.
type peeked struct {
	Issuer   string   `json:"iss"`
	Audience audience `json:"aud"`
}

// audience accepts the aud claim as a string or an array.
type audience []string

func (a *audience) UnmarshalJSON(b []byte) error {
	var one string
	if json.Unmarshal(b, &one) == nil {
		*a = audience{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return err
	}
	*a = many
	return nil
}

// peekClaims decodes a compact JWT's payload without verifying it.
func peekClaims(raw string) (peeked, error) {
	parts := strings.Split(raw, ".")
	if len(parts) != 3 {
		return peeked{}, errors.New("not a compact JWT")
	}
	b, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return peeked{}, err
	}
	var c peeked
	err = json.Unmarshal(b, &c)
	return c, err
}
