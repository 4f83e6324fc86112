package resource

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/companyintel/mcp-server/internal/edge"
)

// Config configures an Authenticator.
type Config struct {
	// Resource is the resource identifier: the exact public URL of /mcp.
	// Every token's aud must name it.
	Resource string
	// Issuers are the issuer URLs whose tokens are accepted.
	Issuers []string
	// ReadScope and WriteScope are the scopes read and write tools need.
	ReadScope, WriteScope string
	// IsWrite reports whether a tool writes.
	IsWrite func(tool string) bool
	// Allowed reports whether the server allows a write tool at all
	// (--allow-mutations, the ceiling). A write tool it does not allow
	// needs no scope: the tool itself answers mutations_disabled.
	Allowed func(tool string) bool
	// AnyWrite says the server allows at least one write tool: the 401
	// challenge then asks for the write scope too, so that a client that
	// requests what the challenge names can use every tool it is shown.
	AnyWrite bool
	// OnInsufficientScope, when set, hears of each 403 insufficient_scope
	// with the scopes the call needed: the embedded issuer ends the token's
	// narrower refresh grants there, so a client's step-up cannot refresh
	// back to the same scopes and must ask for a new authorization.
	OnInsufficientScope func(p Principal, need []string)
	// HTTPClient reaches the issuers; nil means http.DefaultClient.
	HTTPClient *http.Client
	// Now is the clock tokens are checked against; nil means time.Now.
	Now func() time.Time
	// MaxTokenLifetime bounds a token's exp - iat; 0 means
	// DefaultMaxTokenLifetime.
	MaxTokenLifetime time.Duration
	// ClockSkew is how far ahead of this server's clock a token's iat and
	// nbf may be; 0 means DefaultClockSkew.
	ClockSkew time.Duration
	// Logger notes refused tokens (the reason, never the token).
	Logger *slog.Logger
}

// The bounds on a token's times: issuers' access tokens live minutes to
// hours (the embedded issuer's one hour); a day is the longest the major
// providers issue. A minute of skew covers clocks kept by NTP.
const (
	DefaultMaxTokenLifetime = 24 * time.Hour
	DefaultClockSkew        = time.Minute
)

// Authenticator verifies bearer tokens and scopes for /mcp.
type Authenticator struct {
	cfg         Config
	issuers     map[string]*issuer
	metadataURL string
}

// New discovers every issuer (bounded by ctx) and returns the
// Authenticator. An issuer that cannot be discovered stops start-up: a
// server that cannot verify tokens must not serve.
func New(ctx context.Context, c Config) (*Authenticator, error) {
	if c.HTTPClient == nil {
		c.HTTPClient = http.DefaultClient
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.MaxTokenLifetime <= 0 {
		c.MaxTokenLifetime = DefaultMaxTokenLifetime
	}
	if c.ClockSkew <= 0 {
		c.ClockSkew = DefaultClockSkew
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if len(c.Issuers) == 0 {
		return nil, errors.New("no OAuth issuer configured")
	}
	meta, err := MetadataURL(c.Resource)
	if err != nil {
		return nil, err
	}
	a := &Authenticator{cfg: c, issuers: map[string]*issuer{}, metadataURL: meta}
	for _, u := range c.Issuers {
		is, err := discover(ctx, u, c.Resource, c.HTTPClient, c.Now)
		if err != nil {
			return nil, err
		}
		a.issuers[u] = is
	}
	return a, nil
}

// MetadataURL is where RFC 9728 puts a resource's metadata: the well-known
// path inserted between the host and the resource's path.
func MetadataURL(resource string) (string, error) {
	u, err := url.Parse(resource)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("resource %q is not an absolute URL", resource)
	}
	return u.Scheme + "://" + u.Host + wellKnown + strings.TrimSuffix(u.EscapedPath(), "/"), nil
}

const wellKnown = "/.well-known/oauth-protected-resource"

// MetadataPaths are the paths the metadata document is served at on this
// server: the RFC 9728 one for the resource, and the bare well-known path
// that clients probe first.
func (a *Authenticator) MetadataPaths() []string {
	u, _ := url.Parse(a.metadataURL)
	paths := []string{wellKnown}
	if u.Path != wellKnown {
		paths = append(paths, u.Path)
	}
	return paths
}

// Metadata serves the RFC 9728 document. It is public and fetched by
// browser-based clients, so it allows any origin.
func (a *Authenticator) Metadata(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Access-Control-Allow-Origin", "*")
	w.Header().Set("Cache-Control", "max-age=300")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"resource":                 a.cfg.Resource,
		"authorization_servers":    a.cfg.Issuers,
		"scopes_supported":         a.ChallengeScopes(), // the write scope only when writes are allowed
		"bearer_methods_supported": []string{"header"},
		"resource_name":            "Company intelligence MCP server",
	})
}

// TokenEndpoint returns the token endpoint an issuer's metadata names, or
// "" for an issuer that is not configured or names none.
func (a *Authenticator) TokenEndpoint(issuerURL string) string {
	if is := a.issuers[issuerURL]; is != nil {
		return is.tokenURL
	}
	return ""
}

// Checks returns a readiness check per issuer: its JWKS answers with at
// least one key.
func (a *Authenticator) Checks() map[string]func(context.Context) error {
	checks := map[string]func(context.Context) error{}
	for u, is := range a.issuers {
		checks["issuer "+u] = is.keysLoad
	}
	return checks
}

func (is *issuer) keysLoad(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, is.jwksURL, nil)
	if err != nil {
		return err
	}
	resp, err := is.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("JWKS %s: HTTP %d", is.jwksURL, resp.StatusCode)
	}
	var set struct {
		Keys []json.RawMessage `json:"keys"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&set); err != nil || len(set.Keys) == 0 {
		return fmt.Errorf("JWKS %s: no keys", is.jwksURL)
	}
	return nil
}

// Middleware authenticates each request and decides its scope, then hands
// it to next with attach's context. It must run after
// edge.ReadMessage, whose Message it decides from.
func (a *Authenticator) Middleware(attach func(context.Context, Principal) context.Context, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, ok := bearer(r.Header.Get("Authorization"))
		if !ok {
			a.challenge(w, http.StatusUnauthorized, "", "", "this server needs an OAuth access token: see resource_metadata for where to get one")
			return
		}
		p, err := a.verify(r.Context(), raw)
		if err != nil {
			a.cfg.Logger.Info("token refused", "reason", err.Error(), "remote", r.RemoteAddr)
			a.challenge(w, http.StatusUnauthorized, "invalid_token", "", err.Error())
			return
		}
		msg, _ := edge.MessageFrom(r.Context())
		if need, why := a.needs(msg); need != nil && !hasAll(p, need) {
			a.cfg.Logger.Info("scope refused", "user", p.Subject, "client", p.ClientID, "method", msg.Method, "tool", msg.Tool, "needs", strings.Join(need, " "))
			if a.cfg.OnInsufficientScope != nil {
				a.cfg.OnInsufficientScope(p, need)
			}
			a.challenge(w, http.StatusForbidden, "insufficient_scope", strings.Join(need, " "), why)
			return
		}
		next.ServeHTTP(w, r.WithContext(attach(r.Context(), p)))
	})
}

// ChallengeScopes are the scopes a 401 asks for: what this server allows
// (MCP authorization, "Scope Selection Strategy"): read, and write when
// --allow-mutations enables any write tool.
func (a *Authenticator) ChallengeScopes() []string {
	if a.cfg.AnyWrite {
		return []string{a.cfg.ReadScope, a.cfg.WriteScope}
	}
	return []string{a.cfg.ReadScope}
}

// needs returns the scopes a message needs, and a sentence saying why.
func (a *Authenticator) needs(m edge.Message) ([]string, string) {
	switch m.Method {
	case "tools/call":
		if a.cfg.IsWrite != nil && a.cfg.IsWrite(m.Tool) {
			if a.cfg.Allowed == nil || !a.cfg.Allowed(m.Tool) {
				return nil, "" // the tool answers mutations_disabled: no scope would help
			}
			// Every scope the call needs, the read scope kept: a client
			// replaces its scopes with those it asks for next.
			return []string{a.cfg.ReadScope, a.cfg.WriteScope}, m.Tool + " writes data and needs the " + a.cfg.WriteScope + " scope"
		}
		return []string{a.cfg.ReadScope}, "tools need the " + a.cfg.ReadScope + " scope"
	case "resources/read":
		return []string{a.cfg.ReadScope}, "resources need the " + a.cfg.ReadScope + " scope"
	}
	return nil, ""
}

func hasAll(p Principal, scopes []string) bool {
	for _, s := range scopes {
		if !p.HasScope(s) {
			return false
		}
	}
	return true
}

// bearer reads "Bearer <token>" (RFC 6750 section 2.1; the scheme is
// case-insensitive).
func bearer(h string) (string, bool) {
	scheme, tok, ok := strings.Cut(h, " ")
	tok = strings.TrimSpace(tok)
	return tok, ok && strings.EqualFold(scheme, "Bearer") && tok != ""
}

// challenge answers a refusal with RFC 6750's WWW-Authenticate and a JSON
// body saying the same.
func (a *Authenticator) challenge(w http.ResponseWriter, status int, code, scope, desc string) {
	parts := []string{}
	if code != "" {
		parts = append(parts, `error="`+code+`"`)
	}
	if scope == "" && status == http.StatusUnauthorized {
		scope = strings.Join(a.ChallengeScopes(), " ")
	}
	if scope != "" {
		parts = append(parts, `scope="`+scope+`"`)
	}
	parts = append(parts, `resource_metadata="`+a.metadataURL+`"`)
	if desc != "" {
		parts = append(parts, `error_description="`+strings.ReplaceAll(desc, `"`, "'")+`"`)
	}
	w.Header().Set("WWW-Authenticate", "Bearer "+strings.Join(parts, ", "))
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	body := map[string]string{"error_description": desc, "resource_metadata": a.metadataURL}
	if code != "" {
		body["error"] = code
	} else {
		body["error"] = "unauthorized"
	}
	if scope != "" {
		body["scope"] = scope
	}
	_ = json.NewEncoder(w).Encode(body)
}
