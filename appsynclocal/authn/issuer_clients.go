package authn

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
)

// ClientDocument allowlists one client identified by a Client ID Metadata
// Document (draft-ietf-oauth-client-id-metadata-document, which MCP
// 2025-11-25 prefers over dynamic registration): its client_id is the https
// URL of a JSON document listing its redirect URIs.
type ClientDocument struct {
	// URL is the client_id: an https URL with a path.
	URL string
	// Document is the document's JSON, for a client whose URL cannot be
	// fetched from where the issuer runs (a closed network, a demo). Nil
	// means it is fetched from URL when the client first appears.
	Document []byte
	// Preapproved skips the consent page: the operator has consented for
	// every user, as for the demo-token command, which runs on the
	// operator's own machine and has no browser. Only the named demo user
	// signs in, and only one of the issuer's users.
	Preapproved bool
}

// DemoTokenClientID is the client_id of the demo-token command, an
// allowlisted Client ID Metadata Document carried by DemoTokenClient.
const DemoTokenClientID = "https://companyintel.github.io/mcp-server/oauth/demo-token.json"

// DemoTokenRedirectURI is the demo-token command's registered redirect: a
// loopback URI (RFC 8252), whose port may vary.
const DemoTokenRedirectURI = "http://127.0.0.1/callback"

// DemoTokenClient is the demo-token command's allowlist entry, document
// included, so the demo needs no network beyond the machine. It is
// preapproved: demo-token reads the redirect instead of showing a page.
func DemoTokenClient() ClientDocument {
	doc, _ := json.Marshal(clientMetadata{
		ClientID:                DemoTokenClientID,
		ClientName:              "mcp-server demo-token",
		RedirectURIs:            []string{DemoTokenRedirectURI},
		GrantTypes:              []string{"authorization_code", "refresh_token"},
		ResponseTypes:           []string{"code"},
		TokenEndpointAuthMethod: "none",
	})
	return ClientDocument{URL: DemoTokenClientID, Document: doc, Preapproved: true}
}

// clientMetadata is what the issuer knows of a client: read from a Client
// ID Metadata Document, a registration, or the operator's configuration.
type clientMetadata struct {
	ClientID                string   `json:"client_id"`
	ClientName              string   `json:"client_name,omitempty"`
	RedirectURIs            []string `json:"redirect_uris"`
	GrantTypes              []string `json:"grant_types,omitempty"`
	ResponseTypes           []string `json:"response_types,omitempty"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method,omitempty"`
	Scope                   string   `json:"scope,omitempty"`
	IssuedAt                int64    `json:"client_id_issued_at,omitempty"`

	preapproved bool // ClientDocument.Preapproved
}

// ClientDocumentPolicy says which Client ID Metadata Documents the issuer
// fetches beyond its allowlist.
type ClientDocumentPolicy struct {
	// Open fetches the document of any client_id that is an https URL,
	// as MCP clients expect; false means only allowlisted ones.
	Open bool
	// AllowLoopback accepts documents on loopback addresses, http or
	// https, for local tools that serve their own document; for an issuer
	// that itself listens on loopback only.
	AllowLoopback bool
	// AllowPrivate accepts documents on private, link-local and other
	// non-public addresses (an intranet's clients). Off, the issuer cannot
	// be used to probe the network it sits in.
	AllowPrivate bool
	// Timeout bounds one fetch, connection to last byte; 0 means 5 s.
	Timeout time.Duration
	// MaxBytes bounds a document; 0 means 8 KiB (the draft suggests 5).
	MaxBytes int
}

// Bounds on fetching documents: the draft asks servers to limit both size
// and time; a cache keeps one client from costing a fetch per sign-in.
const (
	defaultClientDocumentBytes = 8 << 10
	defaultClientFetchTimeout  = 5 * time.Second
	clientDocumentTTL          = 10 * time.Minute
	maxCachedDocuments         = 1000
)

// clientDocuments resolves client_ids that are document URLs.
type clientDocuments struct {
	given  map[string]*clientMetadata // URL -> parsed document; nil: fetch
	policy ClientDocumentPolicy
	fetch  *http.Client
	now    func() time.Time

	mu      sync.Mutex
	fetched map[string]fetchedDocument
}

type fetchedDocument struct {
	md clientMetadata
	at time.Time
}

// newClientDocuments checks every allowlisted URL and given document, so a
// bad entry stops start-up instead of failing a login later.
func newClientDocuments(list []ClientDocument, policy ClientDocumentPolicy, fetch *http.Client, now func() time.Time) (*clientDocuments, error) {
	if policy.Timeout <= 0 {
		policy.Timeout = defaultClientFetchTimeout
	}
	if policy.MaxBytes <= 0 {
		policy.MaxBytes = defaultClientDocumentBytes
	}
	d := &clientDocuments{given: make(map[string]*clientMetadata, len(list)), policy: policy, now: now, fetched: make(map[string]fetchedDocument)}
	d.fetch = d.safeClient(fetch)
	for _, c := range list {
		if err := checkClientIDURL(c.URL); err != nil {
			return nil, err
		}
		if c.Document == nil {
			d.given[c.URL] = nil
			continue
		}
		md, err := parseClientDocument(c.URL, c.Document)
		if err != nil {
			return nil, err
		}
		md.preapproved = c.Preapproved
		d.given[c.URL] = &md
	}
	return d, nil
}

// safeClient is the fetching client: base's TLS settings (tests trust their
// own certificate), no proxy, no redirects, and a dialer that checks the
// address it actually connects to, in its Control function, after the name
// is resolved and before the connection is attempted: a name that resolves
// to a refused address (or is re-bound to one after a first check, DNS
// rebinding) is refused without a packet sent to it.
func (d *clientDocuments) safeClient(base *http.Client) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	if base != nil {
		if bt, ok := base.Transport.(*http.Transport); ok {
			tr = bt.Clone()
		}
	}
	tr.Proxy = nil
	// Every fetch dials anew, so every fetch's address is checked (and
	// known: a local one's failure is not described).
	tr.DisableKeepAlives = true
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		seen, _ := ctx.Value(dialSeenKey{}).(*dialSeen)
		dialer := &net.Dialer{Timeout: d.policy.Timeout, Control: func(_, address string, _ syscall.RawConn) error {
			return d.control(address, seen)
		}}
		return dialer.DialContext(ctx, network, addr)
	}
	return &http.Client{
		Transport: tr,
		Timeout:   d.policy.Timeout,
		// A document must be at its own URL: a redirect would let any
		// host send the issuer anywhere.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// dialSeen records, for one fetch, whether a dial went (or tried to go) to
// a non-public address: the answer then says nothing of what was there.
type dialSeen struct {
	mu     sync.Mutex
	local  bool
	dialed int
}

type dialSeenKey struct{}

// errAddressRefused is a connection the policy does not allow.
type errAddressRefused struct {
	addr  netip.Addr
	class addrClass
}

func (e errAddressRefused) Error() string {
	return fmt.Sprintf("address %s is not public", e.addr)
}

func (d *clientDocuments) control(address string, seen *dialSeen) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return err
	}
	err = d.checkAddr(ip)
	if seen != nil {
		seen.mu.Lock()
		if classify(ip) != addrPublic {
			seen.local = true
		}
		if err == nil {
			seen.dialed++
		}
		seen.mu.Unlock()
	}
	return err
}

// checkAddr applies the policy to an address: public ones are fetched,
// loopback and private ones only when the policy says so, and special-use
// ones (documentation, benchmarking, NAT64, 6to4, Teredo, ORCHID,
// multicast, reserved: specialuse.go) never.
func (d *clientDocuments) checkAddr(ip netip.Addr) error {
	switch c := classify(ip); {
	case c == addrPublic,
		c == addrLoopback && d.policy.AllowLoopback,
		c == addrPrivate && d.policy.AllowPrivate:
		return nil
	default:
		return errAddressRefused{ip.Unmap(), c}
	}
}

// lookup returns the metadata of a document client: an allowlisted one,
// or, when the policy is open, any fetchable URL.
func (d *clientDocuments) lookup(ctx context.Context, id string) (clientMetadata, bool, error) {
	md, listed := d.given[id]
	switch {
	case listed && md != nil:
		return *md, true, nil
	case !listed && !d.policy.Open:
		return clientMetadata{}, false, nil
	case !listed && !d.looksLikeDocument(id):
		return clientMetadata{}, false, nil
	}
	d.mu.Lock()
	f, ok := d.fetched[id]
	d.mu.Unlock()
	if ok && d.now().Sub(f.at) < clientDocumentTTL {
		return f.md, true, nil
	}
	got, err := d.get(ctx, id, listed)
	if err != nil {
		return clientMetadata{}, true, err
	}
	// Only a document that was fetched and checked is kept, and the cache
	// is bounded: a refused client_id leaves nothing behind.
	d.mu.Lock()
	now := d.now()
	if len(d.fetched) >= maxCachedDocuments {
		for k, old := range d.fetched {
			if now.Sub(old.at) >= clientDocumentTTL {
				delete(d.fetched, k)
			}
		}
	}
	if len(d.fetched) < maxCachedDocuments {
		d.fetched[id] = fetchedDocument{md: got, at: now}
	}
	d.mu.Unlock()
	return got, true, nil
}

// looksLikeDocument reports whether a client_id is meant as a document URL
// (and so gets the document rules' answer, not "unknown client").
func (d *clientDocuments) looksLikeDocument(id string) bool {
	return strings.HasPrefix(id, "https://") || (d.policy.AllowLoopback && strings.HasPrefix(id, "http://"))
}

// get fetches a document. For one the operator did not list, a failure on
// a loopback or private address is not described: anyone may name any URL
// as a client_id.
func (d *clientDocuments) get(ctx context.Context, id string, listed bool) (clientMetadata, error) {
	if err := d.checkFetchable(id); err != nil {
		return clientMetadata{}, err
	}
	seen := &dialSeen{}
	ctx = context.WithValue(ctx, dialSeenKey{}, seen)
	md, err := d.fetchDocument(ctx, id)
	if err == nil {
		return md, nil
	}
	var refused errAddressRefused
	if errors.As(err, &refused) {
		return clientMetadata{}, refusedAddress(id, refused.class)
	}
	seen.mu.Lock()
	local := seen.local
	seen.mu.Unlock()
	if local && !listed {
		// What a loopback or private port answered (nothing, a refusal,
		// another protocol, an error page, a slow answer) stays unsaid:
		// otherwise this endpoint would tell anyone which ports of the
		// issuer's own network are open, and what runs there.
		return clientMetadata{}, fmt.Errorf("client metadata document %s could not be used (for a document on this machine or a private network, the reason is not given)", id)
	}
	return clientMetadata{}, err
}

// fetchDocument fetches and parses a document whose URL passed the checks.
func (d *clientDocuments) fetchDocument(ctx context.Context, id string) (clientMetadata, error) {
	ctx, cancel := context.WithTimeout(ctx, d.policy.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, id, nil)
	if err != nil {
		return clientMetadata{}, fmt.Errorf("client metadata document %s: not a URL", id)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := d.fetch.Do(req)
	if err != nil {
		return clientMetadata{}, d.fetchError(id, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		return clientMetadata{}, fmt.Errorf("client metadata document %s answered HTTP %d (a redirect): a document must be served at its own URL, and redirects are not followed", id, resp.StatusCode)
	}
	if resp.StatusCode != http.StatusOK {
		return clientMetadata{}, fmt.Errorf("client metadata document %s answered HTTP %d", id, resp.StatusCode)
	}
	if resp.ContentLength > int64(d.policy.MaxBytes) {
		return clientMetadata{}, fmt.Errorf("client metadata document %s is larger than %d bytes", id, d.policy.MaxBytes)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, int64(d.policy.MaxBytes)+1))
	if err != nil {
		return clientMetadata{}, d.fetchError(id, err)
	}
	if len(b) > d.policy.MaxBytes {
		return clientMetadata{}, fmt.Errorf("client metadata document %s is larger than %d bytes", id, d.policy.MaxBytes)
	}
	return parseClientDocument(id, b)
}

// refusedAddress says why an address is not fetched from.
func refusedAddress(id string, c addrClass) error {
	if c == addrSpecial {
		return fmt.Errorf("client metadata document %s is on a special-use address (documentation, benchmarking, translation, tunnel, multicast or reserved): this server fetches documents only from public addresses", id)
	}
	return fmt.Errorf("client metadata document %s is on a private address: this server fetches documents only from public addresses", id)
}

// checkFetchable applies the URL rules before any connection: https (or
// http on loopback for local tools), and no literal address the policy
// refuses. Names are checked again at connection time (control).
func (d *clientDocuments) checkFetchable(id string) error {
	u, err := url.Parse(id)
	if err != nil {
		return fmt.Errorf("client_id %q is not a URL", id)
	}
	loopback := isLoopbackHost(u.Hostname())
	if u.Scheme == "http" && !(loopback && d.policy.AllowLoopback) {
		return fmt.Errorf("client_id %q: a Client ID Metadata Document URL must be https (http only on a loopback address)", id)
	}
	if u.Scheme == "https" || u.Scheme == "http" {
		if err := checkDocumentPath(id, u); err != nil {
			return err
		}
	}
	if ip, err := netip.ParseAddr(strings.Trim(u.Hostname(), "[]")); err == nil {
		if err := d.checkAddr(ip); err != nil {
			return refusedAddress(id, classify(ip))
		}
	}
	return nil
}

// fetchError says why a fetch failed in words an operator can act on.
func (d *clientDocuments) fetchError(id string, err error) error {
	var refused errAddressRefused
	switch {
	case errors.As(err, &refused):
		return refused
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		return fmt.Errorf("client metadata document %s did not arrive within %s", id, d.policy.Timeout)
	}
	return fmt.Errorf("client metadata document %s could not be fetched", id)
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

// checkClientIDURL applies the draft's rules to a client_id URL: https, a
// path, no fragment, no credentials, no dot segments.
func checkClientIDURL(id string) error {
	u, err := url.Parse(id)
	if err != nil || u.Scheme != "https" || u.Host == "" {
		return fmt.Errorf("client_id %q: a Client ID Metadata Document URL must be an absolute https URL", id)
	}
	return checkDocumentPath(id, u)
}

func checkDocumentPath(id string, u *url.URL) error {
	switch {
	case u.Host == "":
		return fmt.Errorf("client_id %q: the URL must name a host", id)
	case u.Path == "" || u.Path == "/":
		return fmt.Errorf("client_id %q: the URL must have a path", id)
	case u.Fragment != "" || strings.Contains(id, "#"):
		return fmt.Errorf("client_id %q: the URL must not have a fragment", id)
	case u.User != nil:
		return fmt.Errorf("client_id %q: the URL must not carry credentials", id)
	case slices.ContainsFunc(strings.Split(u.Path, "/"), func(s string) bool { return s == "." || s == ".." }):
		return fmt.Errorf("client_id %q: the URL must not have dot segments", id)
	}
	return nil
}

// parseClientDocument reads a document and checks it describes the client
// it claims to: its client_id must equal the URL it came from exactly.
func parseClientDocument(id string, b []byte) (clientMetadata, error) {
	var md clientMetadata
	if err := json.Unmarshal(b, &md); err != nil {
		return md, fmt.Errorf("client metadata document %s is not a JSON object", id)
	}
	switch {
	case md.ClientID != id:
		return md, fmt.Errorf("client metadata document %s names client_id %q: it must name its own URL", id, md.ClientID)
	case len(md.RedirectURIs) == 0:
		return md, fmt.Errorf("client metadata document %s lists no redirect_uris", id)
	case md.TokenEndpointAuthMethod != "" && md.TokenEndpointAuthMethod != "none":
		return md, fmt.Errorf("client metadata document %s asks for token_endpoint_auth_method %q: only public clients (none) are supported", id, md.TokenEndpointAuthMethod)
	case md.GrantTypes != nil && !slices.Contains(md.GrantTypes, "authorization_code"):
		return md, fmt.Errorf("client metadata document %s does not list the authorization_code grant", id)
	}
	if err := checkClientName(md.ClientName); err != nil {
		return md, fmt.Errorf("client metadata document %s: %w", id, err)
	}
	for _, r := range md.RedirectURIs {
		if err := checkRedirectURI(r); err != nil {
			return md, fmt.Errorf("client metadata document %s: %w", id, err)
		}
	}
	return md, nil
}

// maxClientName bounds the name a consent page shows.
const maxClientName = 100

// checkClientName refuses names a consent page could not show honestly.
func checkClientName(n string) error {
	if len([]rune(n)) > maxClientName {
		return fmt.Errorf("client_name is longer than %d characters", maxClientName)
	}
	if strings.ContainsFunc(n, func(r rune) bool {
		return r < 0x20 || r == 0x7f || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
	}) {
		return errors.New("client_name contains control characters")
	}
	return nil
}

// maxRedirectURI bounds one redirect URI.
const maxRedirectURI = 2000

// checkRedirectURI accepts https URIs and http URIs on loopback (RFC 8252
// section 7.3), without fragments.
func checkRedirectURI(r string) error {
	if len(r) > maxRedirectURI {
		return fmt.Errorf("a redirect URI is longer than %d characters", maxRedirectURI)
	}
	u, err := url.Parse(r)
	switch {
	case err != nil || u.Host == "":
		return fmt.Errorf("redirect URI %q is not an absolute URL", r)
	case u.Fragment != "" || strings.Contains(r, "#"):
		return fmt.Errorf("redirect URI %q has a fragment", r)
	case u.User != nil:
		return fmt.Errorf("redirect URI %q carries credentials", r)
	case u.Scheme == "https":
		return nil
	case u.Scheme == "http" && isLoopbackHost(u.Hostname()):
		return nil
	}
	return fmt.Errorf("redirect URI %q must be https, or http on a loopback address (127.0.0.1, [::1] or localhost)", r)
}

// allowsRedirect matches a requested redirect URI against the registered
// ones: exactly, except that a loopback http URI may use any port, since
// native apps listen on whatever port is free (RFC 8252 section 7.3).
func (md clientMetadata) allowsRedirect(req string) bool {
	if req == "" || checkRedirectURI(req) != nil {
		return false
	}
	for _, r := range md.RedirectURIs {
		if r == req || loopbackMatch(r, req) {
			return true
		}
	}
	return false
}

func loopbackMatch(registered, requested string) bool {
	a, err1 := url.Parse(registered)
	b, err2 := url.Parse(requested)
	if err1 != nil || err2 != nil || a.Scheme != "http" || b.Scheme != "http" {
		return false
	}
	return isLoopbackHost(a.Hostname()) && a.Hostname() == b.Hostname() &&
		a.EscapedPath() == b.EscapedPath() && a.RawQuery == b.RawQuery && a.User == nil && b.User == nil
}

// isLoopbackHost reports whether host is a loopback address or "localhost".
func isLoopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
