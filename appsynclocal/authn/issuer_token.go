package authn

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"net/http"
	"net/url"
)

// refreshGrant is what a refresh token stands for.
type refreshGrant struct {
	clientID string
	subject  string
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
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	rt := base64.RawURLEncoding.EncodeToString(b)
	i.mu.Lock()
	i.refresh[rt] = g
	i.mu.Unlock()
	return rt, nil
}

// serveToken is the token endpoint (RFC 6749 section 4.4 and section 6).
// Errors use RFC 6749's JSON form, which golang.org/x/oauth2 decodes.
func (i *Issuer) serveToken(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		tokenError(w, http.StatusBadRequest, "invalid_request", "the body is not a form")
		return
	}
	cl, ok := i.authenticateClient(r)
	if !ok {
		w.Header().Set("WWW-Authenticate", `Basic realm="token"`)
		tokenError(w, http.StatusUnauthorized, "invalid_client", "unknown client or wrong secret")
		return
	}
	var subject, refresh string
	switch r.PostForm.Get("grant_type") {
	case "client_credentials":
		if cl.Secret == "" {
			tokenError(w, http.StatusBadRequest, "unauthorized_client", "a public client cannot use client_credentials")
			return
		}
		subject = cl.Subject
	case "refresh_token":
		rt := r.PostForm.Get("refresh_token")
		i.mu.Lock()
		g, found := i.refresh[rt]
		if found && g.clientID == cl.ID {
			delete(i.refresh, rt)
		}
		i.mu.Unlock()
		if !found || g.clientID != cl.ID {
			tokenError(w, http.StatusBadRequest, "invalid_grant", "unknown, used or foreign refresh token")
			return
		}
		subject = g.subject
		var err error
		if refresh, err = i.newRefreshToken(g); err != nil {
			tokenError(w, http.StatusInternalServerError, "server_error", "cannot issue a refresh token")
			return
		}
	default:
		tokenError(w, http.StatusBadRequest, "unsupported_grant_type", "use client_credentials or refresh_token")
		return
	}
	tok, err := i.Mint(subject, i.ttl)
	if err != nil {
		tokenError(w, http.StatusInternalServerError, "server_error", "cannot sign a token")
		return
	}
	resp := map[string]any{
		"access_token": tok,
		"token_type":   "Bearer",
		"expires_in":   int(i.ttl.Seconds()),
	}
	if refresh != "" {
		// A user's grant also gets an ID token, as an OpenID provider
		// answers a refresh of an "openid" grant; client credentials only
		// get the (JWT) access token.
		resp["id_token"] = tok
		resp["refresh_token"] = refresh
	}
	writeJSON(w, http.StatusOK, resp)
}

// authenticateClient reads client_secret_basic (whose parts RFC 6749
// form-encodes), client_secret_post, or a bare client_id for a public
// client, and compares the secret in constant time.
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
		return Client{}, false
	}
	if cl.Secret == "" {
		return cl, secret == ""
	}
	return cl, subtle.ConstantTimeCompare([]byte(secret), []byte(cl.Secret)) == 1
}

func tokenError(w http.ResponseWriter, status int, code, desc string) {
	writeJSON(w, status, map[string]string{"error": code, "error_description": desc})
}
