package authn

import (
	"crypto"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/go-jose/go-jose/v4"
)

// RFC 8693 token type identifiers the issuer accepts and issues.
const (
	tokenTypeAccess = "urn:ietf:params:oauth:token-type:access_token"
	tokenTypeJWT    = "urn:ietf:params:oauth:token-type:jwt"
)

// ownClaims are the claims the exchange reads from a subject token.
type ownClaims struct {
	Scope string `json:"scope"`
}

// exchangeGrantToken is the token-exchange grant (RFC 8693 section 2):
// a confidential client presents a user's token from this issuer and gets a
// token for the same user with another audience, one of the allowlisted
// exchange audiences (the backend's). Scopes are kept or narrowed, never
// widened, and the new token expires no later than the one presented.
// Delegation (actor_token) is not supported: the result impersonates.
func (i *Issuer) exchangeGrantToken(r *http.Request, cl Client) (issued, *oauthError) {
	form := r.PostForm
	if cl.Secret == "" {
		return issued{}, &oauthError{"unauthorized_client", "token exchange needs a confidential client"}
	}
	if t := form.Get("subject_token_type"); t != tokenTypeAccess && t != tokenTypeJWT {
		return issued{}, &oauthError{"invalid_request", "subject_token_type must be " + tokenTypeAccess + " or " + tokenTypeJWT}
	}
	if t := form.Get("requested_token_type"); t != "" && t != tokenTypeAccess && t != tokenTypeJWT {
		return issued{}, &oauthError{"invalid_request", "requested_token_type must be " + tokenTypeAccess}
	}
	if form.Get("actor_token") != "" {
		return issued{}, &oauthError{"invalid_request", "actor_token (delegation) is not supported"}
	}
	idt, err := i.ownTokens().Verify(r.Context(), form.Get("subject_token"))
	if err != nil {
		return issued{}, &oauthError{"invalid_request", "subject_token is not a valid, unexpired token of this issuer"}
	}
	var oc ownClaims
	if err := idt.Claims(&oc); err != nil {
		return issued{}, &oauthError{"invalid_request", "subject_token has unreadable claims"}
	}
	aud, oerr := i.exchangeAudience(form["audience"], form["resource"])
	if oerr != nil {
		return issued{}, oerr
	}
	held := strings.Fields(oc.Scope)
	scopes, err := i.grantScopes(form.Get("scope"), held, held)
	if err != nil {
		return issued{}, &oauthError{"invalid_scope", "the exchanged token may only keep or narrow the subject token's scopes: " + err.Error()}
	}
	return issued{
		claims:    Claims{Subject: idt.Subject, Audience: aud, Scopes: scopes, ClientID: cl.ID, Expiry: idt.Expiry},
		exchanged: true,
	}, nil
}

// ownTokens verifies a token this issuer signed: signature, iss, exp. Any
// audience is accepted: any of the issuer's tokens may be exchanged.
func (i *Issuer) ownTokens() *oidc.IDTokenVerifier {
	return oidc.NewVerifier(i.url, &oidc.StaticKeySet{PublicKeys: []crypto.PublicKey{&i.key.PublicKey}}, &oidc.Config{
		SkipClientIDCheck:    true,
		SupportedSigningAlgs: []string{string(jose.ES256)},
		Now:                  i.now,
	})
}

// exchangeAudience picks the one target of an exchange from audience or
// resource; with neither, the first allowlisted audience.
func (i *Issuer) exchangeAudience(audiences, resources []string) (string, *oauthError) {
	targets := append(slices.Clone(audiences), resources...)
	switch len(targets) {
	case 0:
		return i.exchangeAuds[0], nil
	case 1:
		if slices.Contains(i.exchangeAuds, targets[0]) {
			return targets[0], nil
		}
		return "", &oauthError{"invalid_target", fmt.Sprintf("this issuer does not exchange tokens for the audience %q", targets[0])}
	}
	return "", &oauthError{"invalid_target", "name one audience per exchange"}
}
