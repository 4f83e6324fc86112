package authn

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
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
}

// DemoTokenClientID is the client_id of the demo-token command, an
// allowlisted Client ID Metadata Document carried by DemoTokenClient.
const DemoTokenClientID = "https://companyintel.github.io/mcp-server/oauth/demo-token.json"

// DemoTokenRedirectURI is the demo-token command's registered redirect: a
// loopback URI (RFC 8252), whose port may vary.
const DemoTokenRedirectURI = "http://127.0.0.1/callback"

// DemoTokenClient is the demo-token command's allowlist entry, document
// included, so the demo needs no network beyond the machine.
func DemoTokenClient() ClientDocument {
	doc, _ := json.Marshal(clientMetadata{
		ClientID:                DemoTokenClientID,
		ClientName:              "mcp-server demo-token",
		RedirectURIs:            []string{DemoTokenRedirectURI},
		GrantTypes:              []string{"authorization_code", "refresh_token"},
		ResponseTypes:           []string{"code"},
		TokenEndpointAuthMethod: "none",
	})
	return ClientDocument{URL: DemoTokenClientID, Document: doc}
}

// clientMetadata is what the issuer reads of a Client ID Metadata Document.
type clientMetadata struct {
	ClientID                string   `json:"client_id"`
	ClientName              string   `json:"client_name,omitempty"`
	RedirectURIs            []string `json:"redirect_uris"`
	GrantTypes              []string `json:"grant_types,omitempty"`
	ResponseTypes           []string `json:"response_types,omitempty"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method,omitempty"`
}

// Bounds on fetching a document: the draft asks servers to limit both.
const (
	maxClientDocument  = 64 << 10
	clientFetchTimeout = 5 * time.Second
	clientDocumentTTL  = 10 * time.Minute
)

// clientDocuments resolves allowlisted client_ids to their metadata.
type clientDocuments struct {
	given map[string]*clientMetadata // URL -> parsed document; nil: fetch
	fetch *http.Client
	now   func() time.Time

	mu      sync.Mutex
	fetched map[string]fetchedDocument
}

type fetchedDocument struct {
	md clientMetadata
	at time.Time
}

// newClientDocuments checks every allowlisted URL and given document, so a
// bad entry stops start-up instead of failing a login later.
func newClientDocuments(list []ClientDocument, fetch *http.Client, now func() time.Time) (*clientDocuments, error) {
	if fetch == nil {
		fetch = http.DefaultClient
	}
	// A document must be at its own URL: a redirect would let an
	// allowlisted host send the issuer anywhere.
	noRedirect := *fetch
	noRedirect.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	fetch = &noRedirect
	d := &clientDocuments{given: make(map[string]*clientMetadata, len(list)), fetch: fetch, now: now, fetched: make(map[string]fetchedDocument)}
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
		d.given[c.URL] = &md
	}
	return d, nil
}

// allowed reports whether id is an allowlisted client_id.
func (d *clientDocuments) allowed(id string) bool {
	_, ok := d.given[id]
	return ok
}

// lookup returns the metadata of an allowlisted client. Only allowlisted
// URLs are ever fetched: the issuer makes no request a stranger chose.
func (d *clientDocuments) lookup(ctx context.Context, id string) (clientMetadata, error) {
	md, ok := d.given[id]
	switch {
	case !ok:
		return clientMetadata{}, fmt.Errorf("client_id %q is not on this server's allowlist of clients (there is no open registration)", id)
	case md != nil:
		return *md, nil
	}
	d.mu.Lock()
	f, ok := d.fetched[id]
	d.mu.Unlock()
	if ok && d.now().Sub(f.at) < clientDocumentTTL {
		return f.md, nil
	}
	got, err := d.get(ctx, id)
	if err != nil {
		return clientMetadata{}, err
	}
	d.mu.Lock()
	d.fetched[id] = fetchedDocument{md: got, at: d.now()}
	d.mu.Unlock()
	return got, nil
}

func (d *clientDocuments) get(ctx context.Context, id string) (clientMetadata, error) {
	ctx, cancel := context.WithTimeout(ctx, clientFetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, id, nil)
	if err != nil {
		return clientMetadata{}, fmt.Errorf("client metadata document %s: %w", id, err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := d.fetch.Do(req)
	if err != nil {
		return clientMetadata{}, fmt.Errorf("client metadata document %s could not be fetched", id)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return clientMetadata{}, fmt.Errorf("client metadata document %s answered HTTP %d", id, resp.StatusCode)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxClientDocument+1))
	if err != nil {
		return clientMetadata{}, fmt.Errorf("client metadata document %s could not be read", id)
	}
	if len(b) > maxClientDocument {
		return clientMetadata{}, fmt.Errorf("client metadata document %s is larger than %d bytes", id, maxClientDocument)
	}
	return parseClientDocument(id, b)
}

// checkClientIDURL applies the draft's rules to a client_id URL: https, a
// path, no fragment, no credentials, no dot segments.
func checkClientIDURL(id string) error {
	u, err := url.Parse(id)
	switch {
	case err != nil || u.Scheme != "https" || u.Host == "":
		return fmt.Errorf("client_id %q: a Client ID Metadata Document URL must be an absolute https URL", id)
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
	for _, r := range md.RedirectURIs {
		if err := checkRedirectURI(r); err != nil {
			return md, fmt.Errorf("client metadata document %s: %w", id, err)
		}
	}
	return md, nil
}

// checkRedirectURI accepts https URIs and http URIs on loopback (RFC 8252
// section 7.3), without fragments.
func checkRedirectURI(r string) error {
	u, err := url.Parse(r)
	switch {
	case err != nil || u.Host == "":
		return fmt.Errorf("redirect URI %q is not an absolute URL", r)
	case u.Fragment != "" || strings.Contains(r, "#"):
		return fmt.Errorf("redirect URI %q has a fragment", r)
	case u.Scheme == "https":
		return nil
	case u.Scheme == "http" && isLoopbackHost(u.Hostname()):
		return nil
	}
	return fmt.Errorf("redirect URI %q must be https, or http on a loopback address", r)
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
