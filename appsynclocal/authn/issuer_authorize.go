package authn

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
)

// The scopes of the company-intelligence API, the defaults of
// IssuerConfig.Scopes.
const (
	ScopeRead  = "companies:read"
	ScopeWrite = "companies:write"
)

// DefaultDemoUser is who the automatic login signs in when the request
// names nobody.
const DefaultDemoUser = "demo-user"

// Authorization codes are short-lived and few: a demo needs a handful, and
// the bound keeps a flood of requests from growing memory.
const (
	codeTTL  = time.Minute
	maxCodes = 1000
)

// codeGrant is what an authorization code stands for.
type codeGrant struct {
	clientID    string
	redirectURI string
	challenge   string // S256 code challenge
	subject     string
	resource    string
	scopes      []string
	expiry      time.Time
}

// userName is what the automatic login accepts when no user list is set.
var userName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$`)

// pkceValue is RFC 7636's grammar for verifiers; an S256 challenge is 43 of
// the same characters.
var pkceValue = regexp.MustCompile(`^[A-Za-z0-9._~-]{43,128}$`)

// configureAS fills in the authorization server's settings.
func (i *Issuer) configureAS(c IssuerConfig) error {
	i.scopes = c.Scopes
	if len(i.scopes) == 0 {
		i.scopes = []string{ScopeRead, ScopeWrite}
	}
	i.defaultScopes = c.DefaultScopes
	if len(i.defaultScopes) == 0 {
		i.defaultScopes = i.scopes[:1]
	}
	for _, s := range i.defaultScopes {
		if !slices.Contains(i.scopes, s) {
			return fmt.Errorf("issuer: default scope %q is not one of the scopes %v", s, i.scopes)
		}
	}
	if c.Users != nil {
		i.users = make(map[string]bool, len(c.Users))
		for _, u := range c.Users {
			i.users[u] = true
		}
	}
	i.defaultUser = c.DefaultUser
	if i.defaultUser == "" {
		i.defaultUser = DefaultDemoUser
	}
	for _, r := range c.Resources {
		if err := i.AllowResource(r); err != nil {
			return err
		}
	}
	i.exchangeAuds = c.ExchangeAudiences
	if len(i.exchangeAuds) == 0 {
		i.exchangeAuds = []string{i.audience}
	}
	i.userList = c.Users
	if i.userList == nil {
		i.userList = []string{i.defaultUser}
	}
	var err error
	if i.docs, err = newClientDocuments(c.ClientDocuments, c.ClientDocumentPolicy, c.FetchClient, i.now); err != nil {
		return err
	}
	i.reg, err = newRegistry(c.PublicClients, c.RegistrationFile, c.MaxRegistrations, c.RegistrationLimit, i.now)
	return err
}

// serveAuthorize is the authorization endpoint: the authorization code flow
// with PKCE (S256 only, as OAuth 2.1 and MCP require). A request that
// passes every check gets the consent page, where a person picks a demo
// user and approves or denies (serveDecision); a preapproved client (the
// demo-token command) is answered at once for the user login_hint names.
//
// Errors about the client or its redirect URI are answered here, never
// redirected (RFC 6749 section 4.1.2.1: the redirect cannot be trusted);
// the rest go back to the client on its redirect URI.
func (i *Issuer) serveAuthorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	clientID := q.Get("client_id")
	md, err := i.lookupClient(r.Context(), clientID)
	if err != nil {
		i.pageErrorFor(w, r, http.StatusBadRequest, "invalid_client: "+err.Error())
		return
	}
	redirect := q.Get("redirect_uri")
	if !md.allowsRedirect(redirect) {
		i.pageErrorFor(w, r, http.StatusBadRequest, fmt.Sprintf("invalid_request: redirect_uri %q is not registered for this client", redirect))
		return
	}
	answer := i.redirecter(w, r, redirect, q.Get("state"))
	fail := func(code, desc string) {
		answer(url.Values{"error": {code}, "error_description": {desc}})
	}
	if q.Get("response_type") != "code" {
		fail("unsupported_response_type", "only response_type=code is supported")
		return
	}
	challenge := q.Get("code_challenge")
	switch {
	case challenge == "":
		fail("invalid_request", "code_challenge is required: this server requires PKCE")
		return
	case q.Get("code_challenge_method") != "S256":
		fail("invalid_request", "code_challenge_method must be S256")
		return
	case len(challenge) != 43 || !pkceValue.MatchString(challenge):
		fail("invalid_request", "code_challenge must be the base64url SHA-256 of the verifier (43 characters)")
		return
	}
	scopes, err := i.grantScopes(q.Get("scope"), i.scopes, i.defaultScopes)
	if err != nil {
		fail("invalid_scope", err.Error())
		return
	}
	resource, err := i.resolveResource(q["resource"])
	if err != nil {
		fail("invalid_target", err.Error())
		return
	}
	user := q.Get("login_hint")
	if user == "" {
		user = q.Get("user")
	}
	if !md.preapproved {
		i.showConsent(w, md, consentRequest{
			ClientID: clientID, Redirect: redirect, State: q.Get("state"), Challenge: challenge,
			Scopes: scopes, Resource: resource, User: user, Expiry: i.now().Add(consentTTL).Unix(),
		}, i.boundUser(r, clientID), "")
		return
	}
	if user == "" {
		user = i.defaultUser
	}
	if !i.knowsUser(user) {
		fail("access_denied", fmt.Sprintf("%q is not a demo user of this server", user))
		return
	}
	code, err := i.newCode(codeGrant{
		clientID: clientID, redirectURI: redirect, challenge: challenge,
		subject: user, resource: resource, scopes: scopes,
		expiry: i.now().Add(codeTTL),
	})
	if err != nil {
		fail("temporarily_unavailable", err.Error())
		return
	}
	answer(url.Values{"code": {code}})
}

// lookupClient finds a public client by client_id: an allowlisted or
// fetched Client ID Metadata Document, an operator's client, or a
// registered one.
func (i *Issuer) lookupClient(ctx context.Context, id string) (clientMetadata, error) {
	if id == "" {
		return clientMetadata{}, errors.New("client_id is required")
	}
	if md, ok := i.reg.lookup(id); ok {
		return md, nil
	}
	md, isDoc, err := i.docs.lookup(ctx, id)
	if isDoc {
		return md, err
	}
	return clientMetadata{}, fmt.Errorf("client_id %q is not known to this server: register the client first (RFC 7591, at %s/register), or use a Client ID Metadata Document URL", id, i.url)
}

// grantScopes checks a requested scope string against what may be granted;
// an empty request gets the defaults.
func (i *Issuer) grantScopes(requested string, allowed, defaults []string) ([]string, error) {
	want := strings.Fields(requested)
	if len(want) == 0 {
		return slices.Clone(defaults), nil
	}
	var granted []string
	for _, s := range want {
		if !slices.Contains(allowed, s) {
			return nil, fmt.Errorf("scope %q is not available; available: %s", s, strings.Join(allowed, " "))
		}
		if !slices.Contains(granted, s) {
			granted = append(granted, s)
		}
	}
	return granted, nil
}

// AllowResource adds a resource indicator (RFC 8707) the authorization
// endpoint issues tokens for, such as an MCP server's public URL known only
// once its listener is up. Safe to call while the issuer serves.
func (i *Issuer) AllowResource(r string) error {
	if u, err := url.Parse(r); err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") || u.Fragment != "" {
		return fmt.Errorf("issuer: resource %q is not an absolute http(s) URL without a fragment (RFC 8707)", r)
	}
	i.mu.Lock()
	defer i.mu.Unlock()
	if !slices.Contains(i.resources, r) {
		i.resources = append(i.resources, r)
	}
	return nil
}

// resolveResource picks the token's audience from the resource parameters
// (RFC 8707): one of the configured resources, or the first when none is
// named. A trailing slash does not make a different resource.
func (i *Issuer) resolveResource(requested []string) (string, error) {
	i.mu.Lock()
	resources := slices.Clone(i.resources)
	i.mu.Unlock()
	if len(resources) == 0 {
		return "", errors.New("this server issues no tokens through the authorization endpoint: it has no resources configured")
	}
	switch len(requested) {
	case 0:
		return resources[0], nil
	case 1:
		for _, r := range resources {
			if strings.TrimSuffix(r, "/") == strings.TrimSuffix(requested[0], "/") {
				return r, nil
			}
		}
		return "", fmt.Errorf("resource %q is not served by this authorization server; known: %s", requested[0], strings.Join(resources, " "))
	}
	return "", errors.New("name one resource per request")
}

func (i *Issuer) knowsUser(u string) bool {
	if i.users != nil {
		return i.users[u]
	}
	return userName.MatchString(u)
}

// newCode stores a grant under a fresh code, making room if need be
// (makeRoom): a flood of sign-ins never stops the next one.
func (i *Issuer) newCode(g codeGrant) (string, error) {
	code, err := randomToken()
	if err != nil {
		return "", err
	}
	now := i.now()
	i.mu.Lock()
	defer i.mu.Unlock()
	makeRoom(i.codes, maxCodes, now, func(g codeGrant) time.Time { return g.expiry })
	i.codes[code] = g
	return code, nil
}

// redeemCode spends a code. It is removed on first presentation, whatever
// the outcome, so a stolen code works at most once.
func (i *Issuer) redeemCode(code string) (codeGrant, bool) {
	i.mu.Lock()
	defer i.mu.Unlock()
	g, ok := i.codes[code]
	delete(i.codes, code)
	if !ok || !i.now().Before(g.expiry) {
		return codeGrant{}, false
	}
	return g, true
}

// verifyPKCE checks a verifier against an S256 challenge (RFC 7636 4.6).
func verifyPKCE(verifier, challenge string) bool {
	if !pkceValue.MatchString(verifier) {
		return false
	}
	sum := sha256.Sum256([]byte(verifier))
	got := base64.RawURLEncoding.EncodeToString(sum[:])
	return subtle.ConstantTimeCompare([]byte(got), []byte(challenge)) == 1
}

// randomToken is 256 bits from crypto/rand, base64url-encoded.
func randomToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// makeRoom keeps a bounded table of expiring entries (codes, refresh
// tokens) able to take one more: past max it drops the expired entries,
// and if none has expired, the one closest to expiry. A flood then costs
// the oldest entry its life, never everyone their next sign-in (a table
// that refused when full would be what the flood exhausts).
func makeRoom[K comparable, V any](m map[K]V, max int, now time.Time, expiry func(V) time.Time) {
	if len(m) < max {
		return
	}
	var soonest K
	var at time.Time
	found := false
	for k, v := range m {
		e := expiry(v)
		if !now.Before(e) {
			delete(m, k)
			continue
		}
		if !found || e.Before(at) {
			soonest, at, found = k, e, true
		}
	}
	if len(m) >= max && found {
		delete(m, soonest)
	}
}
