package authn

import (
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// DefaultAudience is the audience (the "client id" of AppSync's OIDC
// settings) of tokens the issuer mints when none is configured.
const DefaultAudience = "appsync-local"

// DefaultTokenTTL is the lifetime of tokens from the token endpoint.
const DefaultTokenTTL = time.Hour

// IssuerConfig configures an embedded issuer.
type IssuerConfig struct {
	// URL is the issuer identifier: the iss of every token and the base of
	// its endpoints, e.g. "http://127.0.0.1:8080/oidc". It must be the URL
	// clients reach the handler at.
	URL string
	// Audience is the aud of minted tokens; empty means DefaultAudience.
	Audience string
	// KeyFile, when set, keeps the signing key (PEM, PKCS #8, P-256) so that
	// tokens survive a restart; it is created when missing. Empty means a
	// new key at every start.
	KeyFile string
	// Clients may use the token endpoint.
	Clients []Client
	// TokenTTL is the lifetime of tokens from the token endpoint; 0 means
	// DefaultTokenTTL.
	TokenTTL time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time

	// The fields below make the issuer a small authorization server for
	// demo users (authorization code with PKCE, an automatic login, token
	// exchange): see serveAuthorize and the token endpoint.

	// Scopes are the scopes the issuer knows (scopes_supported); nil
	// means DefaultScopes.
	Scopes []string
	// DefaultScopes are granted to an authorization request that names
	// none; nil means the first of Scopes, the least privilege.
	DefaultScopes []string
	// Users are the demo users a person picks from on the consent page,
	// and the only ones a preapproved client's login_hint may name; nil
	// means DefaultUser alone on the page, and any name of letters,
	// digits, '.', '_', '@' and '-' up to 64 characters for a preapproved
	// client (the library's tests).
	Users []string
	// DefaultUser signs in a preapproved client's request that names no
	// user; "" means DefaultDemoUser.
	DefaultUser string
	// Resources are the resource indicators (RFC 8707) the authorization
	// endpoint issues tokens for, each becoming the token's aud: the MCP
	// server's public URL. A request naming no resource gets the first.
	// AllowResource adds one later.
	Resources []string
	// ExchangeAudiences are the audiences the token-exchange grant issues
	// tokens for; nil means Audience (the backend's).
	ExchangeAudiences []string
	// ClientDocuments are clients identified by Client ID Metadata
	// Documents that the operator lists (given or fetched).
	ClientDocuments []ClientDocument
	// ClientDocumentPolicy says which other documents are fetched, and
	// how: by default none.
	ClientDocumentPolicy ClientDocumentPolicy
	// FetchClient supplies the TLS settings of document fetches (tests
	// trust their own certificate); nil means the system's. Its proxy and
	// redirect policy are not used.
	FetchClient *http.Client
	// PublicClients are clients the operator registered in configuration.
	PublicClients []PublicClient
	// RegistrationFile keeps dynamically registered clients (RFC 7591)
	// across restarts; "" keeps them in memory.
	RegistrationFile string
	// MaxRegistrations caps the clients kept from dynamic registration
	// that completed a sign-in (registrations that never did expire after
	// PendingRegistrationTTL and are capped apart); 0 means 1000. When
	// full, the client that signed in least recently is forgotten.
	MaxRegistrations int
	// RegistrationLimit is the per-source rate of dynamic registrations;
	// zero fields mean DefaultRegistrationLimit's.
	RegistrationLimit RegistrationLimit

	// AllowedHosts are further names (without port) the issuer may be
	// addressed by in the Host header. The issuer URL's host always may,
	// and the loopback names when that host is a loopback one; any other
	// Host is refused (403), so a page whose name an attacker points at
	// this machine (DNS rebinding) cannot load or post the consent page.
	AllowedHosts []string
	// AllowedOrigins are the browser origins ("http://localhost:6274")
	// that may call the token and registration endpoints from a page
	// (CORS). The issuer's own origin always may, and loopback origins
	// when the issuer is on loopback; a state-changing request from any
	// other origin is refused, and its preflight gets no CORS headers.
	AllowedOrigins []string
	// ReadHeaderTimeout and ReadTimeout bound how long StartIssuer's
	// listener waits for a request's header, and for the whole request
	// body included; 0 means DefaultReadHeaderTimeout and
	// DefaultReadTimeout.
	ReadHeaderTimeout, ReadTimeout time.Duration
}

// Client is an OAuth client of the issuer's token endpoint.
type Client struct {
	// ID is the client_id.
	ID string
	// Secret is the client_secret; empty makes a public client, which may
	// use neither client_credentials nor token exchange.
	Secret string
	// Subject is the local user a client_credentials token is minted for;
	// empty means the client ID.
	Subject string
}

// Issuer is an embedded OpenID Connect issuer with one ES256 signing key.
type Issuer struct {
	url      string
	path     string // URL's path without a trailing slash, where endpoints live
	audience string
	ttl      time.Duration
	now      func() time.Time
	key      *ecdsa.PrivateKey
	kid      string
	signer   jose.Signer
	clients  map[string]Client

	mu      sync.Mutex
	refresh map[string]refreshGrant   // refresh token -> grant
	rotated map[string]rotatedRefresh // refresh tokens already rotated
	stepUps map[string]stepUp         // client_id -> the user its step-up is for
	codes   map[string]codeGrant      // authorization code -> grant

	scopes        []string
	defaultScopes []string
	users         map[string]bool // nil: any well-formed name
	defaultUser   string
	resources     []string // guarded by mu: AllowResource adds to it
	exchangeAuds  []string
	docs          *clientDocuments
	reg           *registry
	userList      []string // the consent page's users, in order
	consentKey    []byte   // authenticates the consent form
	sessionKey    []byte   // authenticates the sign-in session cookie
	spent         spentForms
	listen        listenerRules
}

// NewIssuer creates the issuer, loading or creating its key.
func NewIssuer(c IssuerConfig) (*Issuer, error) {
	u, err := url.Parse(c.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("issuer URL %q: want an absolute http(s) URL", c.URL)
	}
	key, err := loadOrCreateKey(c.KeyFile)
	if err != nil {
		return nil, err
	}
	i := &Issuer{
		url:      strings.TrimSuffix(c.URL, "/"),
		path:     strings.TrimSuffix(u.Path, "/"),
		audience: c.Audience,
		ttl:      c.TokenTTL,
		now:      c.Now,
		key:      key,
		clients:  make(map[string]Client, len(c.Clients)),
		refresh:  make(map[string]refreshGrant),
		rotated:  make(map[string]rotatedRefresh),
		stepUps:  make(map[string]stepUp),
		codes:    make(map[string]codeGrant),
	}
	if i.audience == "" {
		i.audience = DefaultAudience
	}
	if i.ttl <= 0 {
		i.ttl = DefaultTokenTTL
	}
	if i.now == nil {
		i.now = time.Now
	}
	// Consent forms are keyed anew at each start: the forms spent are
	// remembered in memory, so a form from before a restart must not
	// verify after it. A sign-in session lasts as the signing key does.
	salt, err := randomToken()
	if err != nil {
		return nil, err
	}
	i.consentKey = deriveKey(key, "authn consent form v2 "+salt)
	i.sessionKey = deriveKey(key, "authn sign-in session v1")
	if i.listen, err = newListenerRules(u, c); err != nil {
		return nil, err
	}
	if err := i.configureAS(c); err != nil {
		return nil, err
	}
	for _, cl := range c.Clients {
		if cl.ID == "" {
			return nil, errors.New("issuer client without an ID")
		}
		if cl.Subject == "" {
			cl.Subject = cl.ID
		}
		i.clients[cl.ID] = cl
	}
	if i.kid, err = keyID(key); err != nil {
		return nil, err
	}
	i.signer, err = jose.NewSigner(
		jose.SigningKey{Algorithm: jose.ES256, Key: jose.JSONWebKey{Key: key, KeyID: i.kid}},
		(&jose.SignerOptions{}).WithType("JWT"),
	)
	if err != nil {
		return nil, fmt.Errorf("issuer signer: %w", err)
	}
	return i, nil
}

// URL returns the issuer identifier.
func (i *Issuer) URL() string { return i.url }

// Audience returns the aud of minted tokens.
func (i *Issuer) Audience() string { return i.audience }

// Claims are the claims of a token the issuer signs. Zero fields get
// defaults: the issuer's URL and audience, IssuedAt now, Expiry one token TTL
// later. Tests set them to make expired, wrong-audience or wrong-issuer
// tokens signed with the real key.
type Claims struct {
	Subject  string
	Issuer   string
	Audience string
	IssuedAt time.Time
	Expiry   time.Time
	// Email, when set, is added as the email claim.
	Email string
	// Scopes, when set, become the scope claim (RFC 9068: one
	// space-separated string).
	Scopes []string
	// ClientID, when set, is the client_id claim (RFC 9068): the OAuth
	// client the token was issued to.
	ClientID string
}

// Mint signs a token for a named local user, valid for ttl.
func (i *Issuer) Mint(subject string, ttl time.Duration) (string, error) {
	now := i.now()
	return i.Sign(Claims{Subject: subject, IssuedAt: now, Expiry: now.Add(ttl)})
}

// Sign signs a token with the given claims, defaults filled in.
func (i *Issuer) Sign(c Claims) (string, error) {
	if c.Subject == "" {
		return "", errors.New("mint: empty subject")
	}
	if c.Issuer == "" {
		c.Issuer = i.url
	}
	if c.Audience == "" {
		c.Audience = i.audience
	}
	if c.IssuedAt.IsZero() {
		c.IssuedAt = i.now()
	}
	if c.Expiry.IsZero() {
		c.Expiry = c.IssuedAt.Add(i.ttl)
	}
	payload, err := json.Marshal(jwtClaims{
		Issuer:    c.Issuer,
		Subject:   c.Subject,
		Audience:  c.Audience,
		IssuedAt:  c.IssuedAt.Unix(),
		NotBefore: c.IssuedAt.Unix(),
		Expiry:    c.Expiry.Unix(),
		Email:     c.Email,
		Scope:     strings.Join(c.Scopes, " "),
		ClientID:  c.ClientID,
	})
	if err != nil {
		return "", err
	}
	jws, err := i.signer.Sign(payload)
	if err != nil {
		return "", fmt.Errorf("mint: %w", err)
	}
	return jws.CompactSerialize()
}

// jwtClaims is the wire form of Claims.
type jwtClaims struct {
	Issuer    string `json:"iss"`
	Subject   string `json:"sub"`
	Audience  string `json:"aud"`
	IssuedAt  int64  `json:"iat"`
	NotBefore int64  `json:"nbf"`
	Expiry    int64  `json:"exp"`
	Email     string `json:"email,omitempty"`
	Scope     string `json:"scope,omitempty"`
	ClientID  string `json:"client_id,omitempty"`
}

// Handler serves the issuer's endpoints under the issuer URL's path:
// <path>/.well-known/openid-configuration,
// <path>/.well-known/oauth-authorization-server, <path>/jwks,
// <path>/authorize and <path>/token. Mount it on a mux at that path, e.g.
// mux.Handle("/oidc/", iss.Handler()) for an issuer URL ending in /oidc;
// other paths answer 404. RFC 8414 places the metadata of an issuer with a
// path at /.well-known/oauth-authorization-server<path>; the handler serves
// that too, for a mux that routes it there.
func (i *Issuer) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+i.path+"/.well-known/openid-configuration", i.serveDiscovery)
	mux.HandleFunc("GET "+i.path+"/.well-known/oauth-authorization-server", i.serveASMetadata)
	if i.path != "" {
		mux.HandleFunc("GET /.well-known/oauth-authorization-server"+i.path, i.serveASMetadata)
	}
	mux.HandleFunc("GET "+i.path+"/jwks", i.serveJWKS)
	mux.HandleFunc("GET "+i.path+"/authorize", i.serveAuthorize)
	mux.HandleFunc("POST "+i.path+"/authorize", i.serveDecision)
	mux.HandleFunc("POST "+i.path+"/token", i.serveToken)
	mux.HandleFunc("POST "+i.path+"/register", i.serveRegister)
	return i.listen.guard(i.url, mux)
}

// GrantTokenExchange is RFC 8693's grant type.
const GrantTokenExchange = "urn:ietf:params:oauth:grant-type:token-exchange"

// asMetadata is the RFC 8414 document; OpenID discovery adds its own fields.
func (i *Issuer) asMetadata() map[string]any {
	return map[string]any{
		"issuer":                                i.url,
		"authorization_endpoint":                i.url + "/authorize",
		"token_endpoint":                        i.url + "/token",
		"jwks_uri":                              i.url + "/jwks",
		"response_types_supported":              []string{"code"},
		"grant_types_supported":                 []string{"authorization_code", "refresh_token", "client_credentials", GrantTokenExchange},
		"token_endpoint_auth_methods_supported": []string{"client_secret_basic", "client_secret_post", "none"},
		"code_challenge_methods_supported":      []string{"S256"},
		"scopes_supported":                      i.scopes,
		"client_id_metadata_document_supported": true,
		"registration_endpoint":                 i.url + "/register",
		// RFC 9207: the redirect carries iss, so a client talking to
		// several servers can tell whose code it holds.
		"authorization_response_iss_parameter_supported": true,
	}
}

// serveASMetadata serves the OAuth 2.0 Authorization Server Metadata
// (RFC 8414) that MCP clients read first.
func (i *Issuer) serveASMetadata(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, i.asMetadata())
}

// serveDiscovery serves the OpenID Provider Metadata go-oidc reads: the same
// document with OpenID's required fields added.
func (i *Issuer) serveDiscovery(w http.ResponseWriter, _ *http.Request) {
	m := i.asMetadata()
	m["id_token_signing_alg_values_supported"] = []string{string(jose.ES256)}
	m["subject_types_supported"] = []string{"public"}
	writeJSON(w, http.StatusOK, m)
}

// serveJWKS serves the public key.
func (i *Issuer) serveJWKS(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, i.publicKeys())
}

func (i *Issuer) publicKeys() jose.JSONWebKeySet {
	return jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{
		Key: &i.key.PublicKey, KeyID: i.kid, Algorithm: string(jose.ES256), Use: "sig",
	}}}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
