package authn

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// PublicClient is a public OAuth client (no secret; PKCE protects its
// codes) known by a plain client_id: one an operator configured, or one
// that registered itself (RFC 7591).
type PublicClient struct {
	ID           string   `json:"client_id"`
	Name         string   `json:"client_name"`
	RedirectURIs []string `json:"redirect_uris"`
}

// Bounds on dynamic registration: a registration is small, and the number
// kept is capped so that a flood of registrations cannot grow memory or
// the registrations file without limit.
const (
	maxRegistrationBody   = 16 << 10
	maxRedirectURIs       = 10
	defaultMaxRegistrants = 1000
)

// registry holds the clients known by a plain client_id.
type registry struct {
	file string // where registrations persist; "" keeps them in memory
	max  int

	mu         sync.Mutex
	operator   map[string]clientMetadata
	registered map[string]clientMetadata
}

func newRegistry(operator []PublicClient, file string, max int) (*registry, error) {
	if max <= 0 {
		max = defaultMaxRegistrants
	}
	r := &registry{file: file, max: max, operator: map[string]clientMetadata{}, registered: map[string]clientMetadata{}}
	for _, c := range operator {
		if c.ID == "" || strings.ContainsAny(c.ID, " \t\n") {
			return nil, fmt.Errorf("issuer: pre-registered client %q: a client_id of visible characters is required", c.ID)
		}
		md := clientMetadata{ClientID: c.ID, ClientName: c.Name, RedirectURIs: c.RedirectURIs, TokenEndpointAuthMethod: "none"}
		if err := checkMetadata(&md); err != nil {
			return nil, fmt.Errorf("issuer: pre-registered client %q: %w", c.ID, err)
		}
		r.operator[c.ID] = md
	}
	if file == "" {
		return r, nil
	}
	b, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return r, nil
	}
	if err != nil {
		return nil, fmt.Errorf("issuer registrations: %w", err)
	}
	var saved []clientMetadata
	if err := json.Unmarshal(b, &saved); err != nil {
		return nil, fmt.Errorf("issuer registrations %s: not the JSON list this server writes (move it aside to start afresh): %w", file, err)
	}
	for _, md := range saved {
		if checkMetadata(&md) == nil && md.ClientID != "" {
			r.registered[md.ClientID] = md
		}
	}
	return r, nil
}

func (r *registry) lookup(id string) (clientMetadata, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if md, ok := r.operator[id]; ok {
		return md, true
	}
	md, ok := r.registered[id]
	return md, ok
}

// errRegistryFull is answered when the cap is reached.
var errRegistryFull = errors.New("this server has as many registered clients as it keeps; ask its operator to pre-register yours")

// add keeps a checked registration. The same metadata registered twice (a
// client that registers at every start) gets the same client_id back, so
// that it does not use up the cap.
func (r *registry) add(md clientMetadata, newID func() (string, error)) (clientMetadata, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, old := range r.registered {
		if old.ClientName == md.ClientName && slices.Equal(old.RedirectURIs, md.RedirectURIs) &&
			slices.Equal(old.GrantTypes, md.GrantTypes) && old.Scope == md.Scope {
			return old, nil
		}
	}
	if len(r.registered) >= r.max {
		return clientMetadata{}, errRegistryFull
	}
	id, err := newID()
	if err != nil {
		return clientMetadata{}, err
	}
	md.ClientID = id
	r.registered[id] = md
	if err := r.saveLocked(); err != nil {
		delete(r.registered, id)
		return clientMetadata{}, err
	}
	return md, nil
}

// saveLocked writes the registrations through a rename, so a crash never
// leaves half a file.
func (r *registry) saveLocked() error {
	if r.file == "" {
		return nil
	}
	list := make([]clientMetadata, 0, len(r.registered))
	for _, md := range r.registered {
		list = append(list, md)
	}
	slices.SortFunc(list, func(a, b clientMetadata) int { return strings.Compare(a.ClientID, b.ClientID) })
	b, err := json.MarshalIndent(list, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(r.file), ".registrations-*")
	if err != nil {
		return fmt.Errorf("issuer registrations: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("issuer registrations: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("issuer registrations: %w", err)
	}
	return os.Rename(tmp.Name(), r.file)
}

// registrationRequest is what the issuer reads of an RFC 7591 request;
// other fields (logo_uri, software_id, ...) are accepted and not kept.
type registrationRequest struct {
	RedirectURIs            []string `json:"redirect_uris"`
	ClientName              string   `json:"client_name"`
	GrantTypes              []string `json:"grant_types"`
	ResponseTypes           []string `json:"response_types"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
	Scope                   string   `json:"scope"`
}

// serveRegister is the registration endpoint (RFC 7591) for public
// clients: redirect URIs on loopback (any port, RFC 8252) or https, the
// authorization code grant, no secret. A refused request stores nothing.
func (i *Issuer) serveRegister(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxRegistrationBody)
	var req registrationRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			registrationError(w, http.StatusRequestEntityTooLarge, "invalid_client_metadata", fmt.Sprintf("the registration is larger than %d bytes", maxRegistrationBody))
			return
		}
		registrationError(w, http.StatusBadRequest, "invalid_client_metadata", "the body must be a JSON object of client metadata (RFC 7591)")
		return
	}
	md := clientMetadata{
		ClientName:              strings.TrimSpace(req.ClientName),
		RedirectURIs:            req.RedirectURIs,
		GrantTypes:              req.GrantTypes,
		ResponseTypes:           req.ResponseTypes,
		TokenEndpointAuthMethod: req.TokenEndpointAuthMethod,
		Scope:                   strings.Join(strings.Fields(req.Scope), " "),
	}
	if md.TokenEndpointAuthMethod == "" {
		md.TokenEndpointAuthMethod = "none"
	}
	if len(md.GrantTypes) == 0 {
		md.GrantTypes = []string{"authorization_code"}
	}
	if len(md.ResponseTypes) == 0 {
		md.ResponseTypes = []string{"code"}
	}
	if err := checkMetadata(&md); err != nil {
		code := "invalid_client_metadata"
		if errors.As(err, new(badRedirect)) {
			code = "invalid_redirect_uri"
		}
		registrationError(w, http.StatusBadRequest, code, err.Error())
		return
	}
	for _, s := range strings.Fields(md.Scope) {
		if !slices.Contains(i.scopes, s) {
			registrationError(w, http.StatusBadRequest, "invalid_client_metadata", fmt.Sprintf("scope %q is not one this server knows; it knows: %s", s, strings.Join(i.scopes, " ")))
			return
		}
	}
	md.IssuedAt = i.now().Unix()
	got, err := i.reg.add(md, func() (string, error) {
		t, err := randomToken()
		return "client-" + t[:24], err
	})
	if errors.Is(err, errRegistryFull) {
		registrationError(w, http.StatusTooManyRequests, "invalid_client_metadata", err.Error())
		return
	}
	if err != nil {
		registrationError(w, http.StatusInternalServerError, "server_error", "the registration could not be kept")
		return
	}
	writeJSON(w, http.StatusCreated, got)
}

// badRedirect is a refusal of a redirect URI (invalid_redirect_uri).
type badRedirect struct{ msg string }

func (e badRedirect) Error() string { return e.msg }

// checkMetadata applies the rules every plain-id client meets.
func checkMetadata(md *clientMetadata) error {
	switch {
	case len(md.RedirectURIs) == 0:
		return badRedirect{"redirect_uris is required: list where this server may send the user back (http://127.0.0.1:PORT/..., http://localhost:PORT/... or https://...)"}
	case len(md.RedirectURIs) > maxRedirectURIs:
		return badRedirect{fmt.Sprintf("at most %d redirect_uris", maxRedirectURIs)}
	case md.TokenEndpointAuthMethod != "" && md.TokenEndpointAuthMethod != "none":
		return fmt.Errorf("token_endpoint_auth_method %q: only public clients (none) can register here; PKCE protects their codes", md.TokenEndpointAuthMethod)
	}
	for _, g := range md.GrantTypes {
		if g != "authorization_code" && g != "refresh_token" {
			return fmt.Errorf("grant type %q is not available to registered clients; use authorization_code (and refresh_token)", g)
		}
	}
	if md.GrantTypes != nil && !slices.Contains(md.GrantTypes, "authorization_code") {
		return errors.New("grant_types must include authorization_code")
	}
	for _, t := range md.ResponseTypes {
		if t != "code" {
			return fmt.Errorf("response type %q is not supported; use code", t)
		}
	}
	if err := checkClientName(md.ClientName); err != nil {
		return err
	}
	for _, r := range md.RedirectURIs {
		if err := checkRedirectURI(r); err != nil {
			return badRedirect{err.Error()}
		}
	}
	return nil
}

func registrationError(w http.ResponseWriter, status int, code, desc string) {
	writeJSON(w, status, map[string]string{"error": code, "error_description": desc})
}
