package authn

import (
	"crypto/subtle"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// maxTokenBody bounds a token request.
const maxTokenBody = 64 << 10

// Refresh tokens live a day and are bounded in number, like codes.
const (
	refreshTTL = 24 * time.Hour
	maxRefresh = 10000
)

// refreshGrant is what a refresh token stands for.
type refreshGrant struct {
	clientID string
	subject  string
	// audience and scopes are those of the authorization code grant the
	// refresh token came with; empty for RefreshToken's grants, which
	// get the issuer's audience and an ID token, as before.
	audience string
	scopes   []string
	expiry   time.Time
	// family names the sign-in the token descends from: every token a
	// rotation issues keeps it, so that a rotated token presented again
	// (stolen, or replayed) ends every token of the family.
	family string
}

// RefreshToken issues a refresh token that lets clientID obtain tokens for
// subject through the refresh_token grant. Each use rotates it: the token
// endpoint answers with a new one and forgets the old, as many issuers do,
// so clients must keep the newest. Refresh tokens live in memory: unlike
// tokens signed with a persisted key, they do not survive a restart.
func (i *Issuer) RefreshToken(clientID, subject string) (string, error) {
	if _, ok := i.clients[clientID]; !ok {
		return "", errors.New("refresh token: unknown client " + clientID)
	}
	if subject == "" {
		return "", errors.New("refresh token: empty subject")
	}
	return i.newRefreshToken(refreshGrant{clientID: clientID, subject: subject})
}

func (i *Issuer) newRefreshToken(g refreshGrant) (string, error) {
	rt, err := randomToken()
	if err != nil {
		return "", err
	}
	if g.family == "" {
		if g.family, err = randomToken(); err != nil {
			return "", err
		}
	}
	now := i.now()
	g.expiry = now.Add(refreshTTL)
	i.mu.Lock()
	defer i.mu.Unlock()
	makeRoom(i.refresh, maxRefresh, now, func(g refreshGrant) time.Time { return g.expiry })
	i.refresh[rt] = g
	return rt, nil
}

// EndGrantsBelow ends the refresh grants of clientID for subject that lack
// any of the needed scopes, and returns how many it ended. A resource
// server calls it when it refuses a token for insufficient scope: the
// client's step-up then cannot refresh back to the same scopes (a refresh
// keeps its grant's scopes), gets invalid_grant, and starts a new
// authorization that asks for what is needed. That authorization's
// consent page is then for subject only, when the client is one that
// registered itself (one installation, so one person; a client_id that
// many share, an operator's or a metadata document's, is not bound).
func (i *Issuer) EndGrantsBelow(clientID, subject string, need []string) int {
	bind := i.reg.dynamic(clientID) && slices.Contains(i.userList, subject)
	i.mu.Lock()
	defer i.mu.Unlock()
	if bind {
		now := i.now()
		makeRoom(i.stepUps, maxStepUps, now, func(s stepUp) time.Time { return s.expiry })
		i.stepUps[clientID] = stepUp{subject: subject, expiry: now.Add(stepUpTTL)}
	}
	n := 0
	for rt, g := range i.refresh {
		if g.clientID != clientID || g.subject != subject || g.audience == "" {
			continue
		}
		for _, s := range need {
			if !slices.Contains(g.scopes, s) {
				delete(i.refresh, rt)
				n++
				break
			}
		}
	}
	return n
}

// stepUp is the user a client was refused for want of scopes: its next
// authorization is for that user, for stepUpTTL.
type stepUp struct {
	subject string
	expiry  time.Time
}

const (
	stepUpTTL  = 10 * time.Minute
	maxStepUps = 1000
)

// stepUpUser is the user clientID's pending step-up is for, or "".
func (i *Issuer) stepUpUser(clientID string) string {
	i.mu.Lock()
	defer i.mu.Unlock()
	if s, ok := i.stepUps[clientID]; ok && i.now().Before(s.expiry) {
		return s.subject
	}
	return ""
}

// endStepUp forgets clientID's step-up once it is decided.
func (i *Issuer) endStepUp(clientID string) {
	i.mu.Lock()
	defer i.mu.Unlock()
	delete(i.stepUps, clientID)
}

// issued is a token response before it is written.
type issued struct {
	claims    Claims
	refresh   *refreshGrant // a refresh token for this grant, when set
	idToken   bool          // also return the access token as id_token
	exchanged bool          // a token-exchange answer (issued_token_type)
}

// serveToken is the token endpoint: client_credentials (RFC 6749 4.4),
// refresh_token (section 6), authorization_code with PKCE (4.1, RFC 7636)
// and token exchange (RFC 8693). Errors use RFC 6749's JSON form, which
// golang.org/x/oauth2 decodes.
func (i *Issuer) serveToken(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxTokenBody)
	if err := r.ParseForm(); err != nil {
		if tooBig := new(http.MaxBytesError); errors.As(err, &tooBig) {
			tokenError(w, http.StatusRequestEntityTooLarge, "invalid_request", "the request is larger than 64 KiB")
			return
		}
		tokenError(w, http.StatusBadRequest, "invalid_request", "the body is not a form")
		return
	}
	cl, ok := i.authenticateClient(r)
	if !ok {
		w.Header().Set("WWW-Authenticate", `Basic realm="token"`)
		tokenError(w, http.StatusUnauthorized, "invalid_client", "unknown client or wrong secret")
		return
	}
	var out issued
	var oerr *oauthError
	switch r.PostForm.Get("grant_type") {
	case "client_credentials":
		if cl.Secret == "" {
			oerr = &oauthError{"unauthorized_client", "a public client cannot use client_credentials"}
			break
		}
		out.claims = Claims{Subject: cl.Subject}
	case "refresh_token":
		out, oerr = i.refreshGrantToken(r.PostForm, cl)
	case "authorization_code":
		out, oerr = i.codeGrantToken(r.PostForm, cl)
	case GrantTokenExchange:
		out, oerr = i.exchangeGrantToken(r, cl)
	default:
		oerr = &oauthError{"unsupported_grant_type", "use authorization_code, refresh_token, client_credentials or " + GrantTokenExchange}
	}
	if oerr != nil {
		tokenError(w, http.StatusBadRequest, oerr.code, oerr.desc)
		return
	}
	i.writeToken(w, out)
}

// writeToken signs and writes a successful answer.
func (i *Issuer) writeToken(w http.ResponseWriter, out issued) {
	c := out.claims
	now := i.now()
	c.IssuedAt = now
	if c.Expiry.IsZero() || c.Expiry.After(now.Add(i.ttl)) {
		c.Expiry = now.Add(i.ttl)
	}
	tok, err := i.Sign(c)
	if err != nil {
		tokenError(w, http.StatusInternalServerError, "server_error", "cannot sign a token")
		return
	}
	resp := map[string]any{
		"access_token": tok,
		"token_type":   "Bearer",
		"expires_in":   int(c.Expiry.Sub(now).Seconds()),
	}
	if len(c.Scopes) > 0 {
		resp["scope"] = strings.Join(c.Scopes, " ")
	}
	if out.exchanged {
		resp["issued_token_type"] = tokenTypeAccess
	}
	if out.refresh != nil {
		rt, err := i.newRefreshToken(*out.refresh)
		if err != nil {
			tokenError(w, http.StatusServiceUnavailable, "temporarily_unavailable", "cannot issue a refresh token now")
			return
		}
		resp["refresh_token"] = rt
	}
	if out.idToken {
		// A user's grant from RefreshToken also gets an ID token, as an
		// OpenID provider answers a refresh of an "openid" grant.
		resp["id_token"] = tok
	}
	writeJSON(w, http.StatusOK, resp)
}

// rotatedRefresh is a refresh token already exchanged for a newer one.
type rotatedRefresh struct {
	family string
	expiry time.Time
}

// refreshGrantToken spends a refresh token and issues the next one of its
// family. The request is checked before the token is spent: asking for a
// scope the grant does not hold is refused and leaves the token usable. A
// token already rotated, presented again, ends its whole family (RFC 9700
// section 4.14.2): either the client or someone who stole a token is
// replaying, and the issuer cannot tell which, so both must sign in again.
func (i *Issuer) refreshGrantToken(form url.Values, cl Client) (issued, *oauthError) {
	rt := form.Get("refresh_token")
	now := i.now()
	i.mu.Lock()
	defer i.mu.Unlock()
	if old, ok := i.rotated[rt]; ok && now.Before(old.expiry) {
		i.endFamilyLocked(old.family)
		return issued{}, &oauthError{"invalid_grant", "this refresh token was already used; as a precaution every token of this sign-in is revoked: sign in again"}
	}
	g, found := i.refresh[rt]
	if !found || g.clientID != cl.ID || !now.Before(g.expiry) {
		return issued{}, &oauthError{"invalid_grant", "unknown, used, expired or foreign refresh token"}
	}
	out := issued{claims: Claims{Subject: g.subject}, idToken: true}
	if g.audience != "" {
		scopes, err := i.grantScopes(form.Get("scope"), g.scopes, g.scopes)
		if err != nil {
			return issued{}, &oauthError{"invalid_scope", err.Error() + "; the refresh token was not used and still works"}
		}
		out = issued{claims: Claims{Subject: g.subject, Audience: g.audience, Scopes: scopes, ClientID: cl.ID}}
	}
	delete(i.refresh, rt)
	i.rememberRotatedLocked(rt, rotatedRefresh{family: g.family, expiry: g.expiry}, now)
	out.refresh = &g
	return out, nil
}

// rememberRotatedLocked keeps a rotated token until it would have expired,
// bounded like the live ones.
func (i *Issuer) rememberRotatedLocked(rt string, r rotatedRefresh, now time.Time) {
	// Full, the oldest is forgotten: reuse detection degrades for it,
	// never the service.
	makeRoom(i.rotated, maxRefresh, now, func(r rotatedRefresh) time.Time { return r.expiry })
	i.rotated[rt] = r
}

// endFamilyLocked ends every live refresh token of a family.
func (i *Issuer) endFamilyLocked(family string) {
	for t, g := range i.refresh {
		if g.family == family {
			delete(i.refresh, t)
		}
	}
}

// codeGrantToken redeems an authorization code: same client, same redirect
// URI, and the PKCE verifier whose S256 hash is the code's challenge.
func (i *Issuer) codeGrantToken(form url.Values, cl Client) (issued, *oauthError) {
	g, ok := i.redeemCode(form.Get("code"))
	switch {
	case !ok:
		return issued{}, &oauthError{"invalid_grant", "unknown, used or expired authorization code"}
	case g.clientID != cl.ID:
		return issued{}, &oauthError{"invalid_grant", "the code was issued to another client"}
	case form.Get("redirect_uri") != g.redirectURI:
		return issued{}, &oauthError{"invalid_grant", "redirect_uri differs from the authorization request's"}
	case !verifyPKCE(form.Get("code_verifier"), g.challenge):
		return issued{}, &oauthError{"invalid_grant", "code_verifier does not match the code_challenge"}
	}
	if res := form["resource"]; len(res) > 0 && (len(res) > 1 || strings.TrimSuffix(res[0], "/") != strings.TrimSuffix(g.resource, "/")) {
		return issued{}, &oauthError{"invalid_target", "resource differs from the authorization request's"}
	}
	// A registered client that completed a sign-in is kept from now on.
	if err := i.reg.confirm(cl.ID); err != nil {
		return issued{}, &oauthError{"server_error", "this server could not keep the client's registration; try again"}
	}
	return issued{
		claims: Claims{Subject: g.subject, Audience: g.resource, Scopes: g.scopes, ClientID: cl.ID},
		refresh: &refreshGrant{
			clientID: cl.ID, subject: g.subject, audience: g.resource, scopes: slices.Clone(g.scopes),
		},
	}, nil
}

// authenticateClient reads client_secret_basic (whose parts RFC 6749
// form-encodes), client_secret_post, or a bare client_id for a public
// client (a configured one, or an allowlisted metadata document URL), and
// compares the secret in constant time.
func (i *Issuer) authenticateClient(r *http.Request) (Client, bool) {
	id, secret, basic := r.BasicAuth()
	if basic {
		var err1, err2 error
		id, err1 = url.QueryUnescape(id)
		secret, err2 = url.QueryUnescape(secret)
		if err1 != nil || err2 != nil {
			return Client{}, false
		}
	} else {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	cl, ok := i.clients[id]
	if !ok {
		if i.knowsPublicClient(id) {
			return Client{ID: id, Subject: id}, secret == ""
		}
		return Client{}, false
	}
	if cl.Secret == "" {
		return cl, secret == ""
	}
	return cl, subtle.ConstantTimeCompare([]byte(secret), []byte(cl.Secret)) == 1
}

// knowsPublicClient reports whether id may use the token endpoint as a
// public client: a registered client, a listed document, or (with an open
// document policy) a document URL. A code or refresh token is bound to the
// client_id it was issued to, so nothing is fetched here.
func (i *Issuer) knowsPublicClient(id string) bool {
	if _, ok := i.reg.lookup(id); ok {
		return true
	}
	if _, ok := i.docs.given[id]; ok {
		return true
	}
	return i.docs.policy.Open && i.docs.looksLikeDocument(id)
}

// oauthError is an RFC 6749 error answer.
type oauthError struct{ code, desc string }

func tokenError(w http.ResponseWriter, status int, code, desc string) {
	writeJSON(w, status, map[string]string{"error": code, "error_description": desc})
}
