package auth

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
)

// verifiedToken is a JWT that passed verification, with the claims the
// source reports. raw is the secret; the rest is not.
type verifiedToken struct {
	raw     string
	subject string
	expiry  time.Time
}

// verifier checks tokens against one issuer and audience with go-oidc.
type verifier struct {
	issuer   string
	audience string
	tokenURL string // from discovery; empty when the issuer has none
	v        *oidc.IDTokenVerifier
	timeout  time.Duration
	now      func() time.Time
}

// verify checks signature, issuer, audience and expiry. Its error is an
// *Error that says which check failed, in the token's own terms (issuer,
// audience, expiry are not secrets), without the token.
func (v *verifier) verify(ctx context.Context, raw string) (verifiedToken, error) {
	ctx, cancel := context.WithTimeout(ctx, v.timeout)
	defer cancel()
	t, err := v.v.Verify(ctx, raw)
	if err != nil {
		return verifiedToken{}, v.explain(raw, err)
	}
	if t.Subject == "" {
		return verifiedToken{}, errorf(OIDC, "token from %s has no sub claim, so the backend cannot tell who is calling", v.issuer)
	}
	return verifiedToken{raw: raw, subject: t.Subject, expiry: t.Expiry}, nil
}

// explain turns a go-oidc error into the most useful of its causes. go-oidc
// checks the signature first, so a token from another issuer fails there;
// reading the (unverified) claims lets the message name the real mistake.
func (v *verifier) explain(raw string, err error) *Error {
	c, perr := unverifiedClaims(raw)
	if perr != nil {
		return errorf(OIDC, "token is not a JWT (%s): an OIDC ID token or JWT access token from %s is needed", perr, v.issuer)
	}
	var expired *oidc.TokenExpiredError
	switch {
	case c.Issuer != v.issuer:
		return errorf(OIDC, "token was issued by %q, not by OIDC_ISSUER %q: use a token from that issuer or fix OIDC_ISSUER", c.Issuer, v.issuer)
	case strings.Contains(err.Error(), "signature"):
		return errorf(OIDC, "token signature does not verify against the keys %s publishes: the token was altered or not issued by it", v.issuer)
	case errors.As(err, &expired):
		return errorf(OIDC, "OIDC token expired at %s", expired.Expiry.UTC().Format(time.RFC3339))
	case !slices.Contains(c.Audience, v.audience):
		return errorf(OIDC, "token audience %q does not include %q: set OIDC_AUDIENCE to the client id the token was issued for, or get a token for %q", c.Audience, v.audience, v.audience)
	}
	return errorf(OIDC, "token failed verification against %s: %s", v.issuer, oneLine(err))
}

// claims are the registered claims the messages need.
type claims struct {
	Issuer   string   `json:"iss"`
	Audience audience `json:"aud"`
}

// audience accepts both forms of the aud claim: a string or an array.
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

// unverifiedClaims decodes a JWT's payload without checking anything. It is
// only used to explain a failed verification.
func unverifiedClaims(raw string) (claims, error) {
	parts := strings.Split(raw, ".")
	if len(parts) != 3 {
		return claims{}, fmt.Errorf("%d parts instead of 3", len(parts))
	}
	b, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return claims{}, errors.New("payload is not base64url")
	}
	var c claims
	if err := json.Unmarshal(b, &c); err != nil {
		return claims{}, errors.New("payload is not a JSON object")
	}
	return c, nil
}
