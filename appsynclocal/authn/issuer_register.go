package authn

import (
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
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
// kept is capped so that a flood of registrations cannot grow memory or the
// registrations file without limit.
const (
	maxRegistrationBody   = 16 << 10
	maxRedirectURIs       = 10
	defaultMaxRegistrants = 1000
	// PendingRegistrationTTL is how long a registration that has not yet
	// completed a sign-in is kept. Registering costs nothing, so such
	// registrations are held in memory only, apart from the clients that
	// signed in, and the oldest is dropped when too many wait: a flood of
	// them can neither fill the registry nor survive a restart.
	PendingRegistrationTTL = 30 * time.Minute
	// touchEvery bounds how often a client's sign-ins are written down (to
	// know which client signed in least recently).
	touchEvery = time.Hour
	// maxSources bounds the per-source rate limiters kept.
	maxSources = 10000
)

// RegistrationLimit is how many dynamic registrations one source (an IPv4
// address, or an IPv6 /64) may make: Burst at once, then one per Every.
type RegistrationLimit struct {
	Burst int
	Every time.Duration
}

// DefaultRegistrationLimit: 20 at once, then four a second. A client
// registers once per install (the same registration again gets the same
// client back), so this is far above what people do; it bounds the work a
// flood makes. What a flood can hold is bounded apart: one source keeps at
// most a fiftieth of the pending registrations (20 of 1000), its own oldest
// dropped for its newest, so it never pushes out anyone else's, and a
// client registering from the same machine after a flood is not refused.
var DefaultRegistrationLimit = RegistrationLimit{Burst: 20, Every: 250 * time.Millisecond}

// registry holds the clients known by a plain client_id: the operator's,
// those that registered and signed in (confirmed, kept in the log), and
// those that registered and have not signed in yet (pending, in memory).
type registry struct {
	log        *registrationLog // nil keeps confirmed clients in memory only
	max        int
	pendingMax int
	perSource  int // pending registrations one source may hold
	limit      RegistrationLimit
	now        func() time.Time

	mu        sync.Mutex
	operator  map[string]clientMetadata
	confirmed map[string]*registration
	pending   map[string]*registration
	sources   map[string]*rate.Limiter
}

// registration is one registered client and when it registered (pending)
// or last signed in (confirmed).
type registration struct {
	md      clientMetadata
	at      time.Time
	written time.Time // when at was last written to the log
	source  string    // who registered it (pending ones)
}

func newRegistry(operator []PublicClient, file string, keep int, limit RegistrationLimit, now func() time.Time) (*registry, error) {
	if keep <= 0 {
		keep = defaultMaxRegistrants
	}
	if limit.Burst <= 0 {
		limit.Burst = DefaultRegistrationLimit.Burst
	}
	if limit.Every <= 0 {
		limit.Every = DefaultRegistrationLimit.Every
	}
	r := &registry{max: keep, pendingMax: keep, perSource: max(1, keep/50), limit: limit, now: now,
		operator: map[string]clientMetadata{}, confirmed: map[string]*registration{},
		pending: map[string]*registration{}, sources: map[string]*rate.Limiter{}}
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
	log, kept, err := openRegistrationLog(file, keep)
	if err != nil {
		return nil, err
	}
	r.log = log
	for _, k := range kept {
		r.confirmed[k.md.ClientID] = &registration{md: k.md, at: k.at, written: k.at}
	}
	return r, nil
}

func (r *registry) lookup(id string) (clientMetadata, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if md, ok := r.operator[id]; ok {
		return md, true
	}
	if c, ok := r.confirmed[id]; ok {
		return c.md, true
	}
	if p, ok := r.pending[id]; ok && r.now().Sub(p.at) < PendingRegistrationTTL {
		return p.md, true
	}
	return clientMetadata{}, false
}

// dynamic reports whether id is a client that registered itself (not the
// operator's): one installation of an application.
func (r *registry) dynamic(id string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, kept := r.confirmed[id]
	_, pending := r.pending[id]
	return kept || pending
}

// errRateLimited is answered to a source past its registration rate.
type errRateLimited struct{ retryAfter time.Duration }

func (e errRateLimited) Error() string {
	return fmt.Sprintf("too many registrations from this address; retry in %d s (a client registers once and keeps its client_id)", int(e.retryAfter.Seconds()+0.999))
}

// add keeps a checked registration as pending. The same metadata
// registered twice (a client that registers at every start) gets the same
// client_id back. Nothing is written: only a sign-in makes a client worth
// keeping (confirm).
func (r *registry) add(md clientMetadata, source string, newID func() (string, error)) (clientMetadata, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.now()
	if err := r.allowLocked(source, now); err != nil {
		return clientMetadata{}, err
	}
	same := func(old clientMetadata) bool {
		return old.ClientName == md.ClientName && slices.Equal(old.RedirectURIs, md.RedirectURIs) &&
			slices.Equal(old.GrantTypes, md.GrantTypes) && old.Scope == md.Scope
	}
	for _, c := range r.confirmed {
		if same(c.md) {
			return c.md, nil
		}
	}
	var oldest, oldestOfSource string
	fromSource := 0
	for id, p := range r.pending {
		switch {
		case now.Sub(p.at) >= PendingRegistrationTTL:
			delete(r.pending, id)
			continue
		case same(p.md):
			return p.md, nil
		}
		if oldest == "" || p.at.Before(r.pending[oldest].at) {
			oldest = id
		}
		if p.source == source {
			fromSource++
			if oldestOfSource == "" || p.at.Before(r.pending[oldestOfSource].at) {
				oldestOfSource = id
			}
		}
	}
	switch {
	case fromSource >= r.perSource:
		delete(r.pending, oldestOfSource)
	case len(r.pending) >= r.pendingMax:
		delete(r.pending, oldest)
	}
	id, err := newID()
	if err != nil {
		return clientMetadata{}, err
	}
	md.ClientID = id
	r.pending[id] = &registration{md: md, at: now, source: source}
	return md, nil
}

// allowLocked spends one of source's registrations.
func (r *registry) allowLocked(source string, now time.Time) error {
	l, ok := r.sources[source]
	if !ok {
		if len(r.sources) >= maxSources {
			for k, old := range r.sources {
				if old.TokensAt(now) >= float64(r.limit.Burst) {
					delete(r.sources, k) // idle: a new limiter is the same
				}
			}
		}
		if len(r.sources) >= maxSources {
			// So many sources at once: limiting them would refuse everyone
			// new, which is what a flood wants. What a source can hold is
			// bounded apart (perSource), so this one goes unlimited.
			return nil
		}
		l = rate.NewLimiter(rate.Every(r.limit.Every), r.limit.Burst)
		r.sources[source] = l
	}
	res := l.ReserveN(now, 1)
	if d := res.DelayFrom(now); d > 0 {
		res.CancelAt(now)
		return errRateLimited{d}
	}
	return nil
}

// confirm records that a registered client completed a sign-in: a pending
// one becomes kept (written to the log; when the cap is reached, the client
// that signed in least recently is forgotten), a kept one is marked used.
// Operator clients and unknown ids are left alone.
func (r *registry) confirm(id string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.now()
	if c, ok := r.confirmed[id]; ok {
		c.at = now
		if r.log != nil && now.Sub(c.written) >= touchEvery {
			c.written = now
			if err := r.log.append(registrationRecord{Use: id, At: now.Unix()}); err != nil {
				return err
			}
			return r.log.compactIfLong(len(r.confirmed), r.snapshotLocked)
		}
		return nil
	}
	p, ok := r.pending[id]
	if !ok {
		return nil
	}
	var evicted string
	if len(r.confirmed) >= r.max {
		for cid, c := range r.confirmed {
			if evicted == "" || c.at.Before(r.confirmed[evicted].at) {
				evicted = cid
			}
		}
	}
	if r.log != nil {
		if evicted != "" {
			if err := r.log.append(registrationRecord{Del: evicted}); err != nil {
				return err
			}
		}
		md := p.md
		if err := r.log.append(registrationRecord{Add: &md, At: now.Unix()}); err != nil {
			return err
		}
	}
	if evicted != "" {
		delete(r.confirmed, evicted)
	}
	delete(r.pending, id)
	r.confirmed[id] = &registration{md: p.md, at: now, written: now}
	if r.log != nil {
		return r.log.compactIfLong(len(r.confirmed), r.snapshotLocked)
	}
	return nil
}

// snapshotLocked lists the kept clients, for a compaction.
func (r *registry) snapshotLocked() []keptClient {
	out := make([]keptClient, 0, len(r.confirmed))
	for _, c := range r.confirmed {
		out = append(out, keptClient{md: c.md, at: c.at})
	}
	return out
}

// sourceOf is the key a registration is rate limited by: the peer's IPv4
// address, or its IPv6 /64 (one host has a whole /64 to pick from). The
// peer is the TCP peer: a forwarded-for header is anyone's to write.
func sourceOf(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	ip = ip.Unmap()
	if ip.Is6() {
		p, _ := ip.WithZone("").Prefix(64)
		return p.String()
	}
	return ip.String()
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
	// JSON only, as RFC 7591 says: a page elsewhere can send a form or
	// text/plain without asking (no CORS preflight), but not JSON.
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		registrationError(w, http.StatusUnsupportedMediaType, "invalid_client_metadata", "send the registration as Content-Type: application/json (RFC 7591)")
		return
	}
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
	got, err := i.reg.add(md, sourceOf(r), func() (string, error) {
		t, err := randomToken()
		return "client-" + t[:24], err
	})
	var limited errRateLimited
	if errors.As(err, &limited) {
		w.Header().Set("Retry-After", strconv.Itoa(int(limited.retryAfter.Seconds()+0.999)))
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
