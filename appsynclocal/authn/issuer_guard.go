package authn

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/companyintel/mcp-server/internal/loopback"
)

// The issuer's listener bounds (StartIssuer): a request must send its
// header within DefaultReadHeaderTimeout and all of itself, body included,
// within DefaultReadTimeout, or the connection is cut; a header larger than
// maxHeaderBytes is refused (431). Bodies are bounded per endpoint
// (registration and consent 16 KiB, token 64 KiB).
const (
	DefaultReadHeaderTimeout = 5 * time.Second
	DefaultReadTimeout       = 10 * time.Second
	issuerWriteTimeout       = 30 * time.Second // a document fetch (5 s) and a page
	issuerIdleTimeout        = 60 * time.Second
	maxHeaderBytes           = 32 << 10
)

// listenerRules are what any request to the issuer must meet before its
// endpoint sees it: a Host that names the issuer, and, for a request that
// changes state, no Origin but an allowed one.
type listenerRules struct {
	hosts         []string // allowed Host names, without port
	origins       []string // allowed exact origins
	loopback      bool     // the issuer is on loopback: loopback names and origins are allowed
	headerTimeout time.Duration
	readTimeout   time.Duration
}

func newListenerRules(u *url.URL, c IssuerConfig) (listenerRules, error) {
	l := listenerRules{
		hosts:         append([]string{u.Hostname()}, c.AllowedHosts...),
		origins:       []string{u.Scheme + "://" + u.Host},
		loopback:      loopback.Host(u.Hostname()),
		headerTimeout: c.ReadHeaderTimeout,
		readTimeout:   c.ReadTimeout,
	}
	for _, o := range c.AllowedOrigins {
		ou, err := url.Parse(o)
		if err != nil || (ou.Scheme != "http" && ou.Scheme != "https") || ou.Host == "" || (ou.Path != "" && ou.Path != "/") {
			return l, fmt.Errorf("issuer: allowed origin %q is not an origin (scheme://host[:port])", o)
		}
		l.origins = append(l.origins, ou.Scheme+"://"+ou.Host)
	}
	if l.headerTimeout <= 0 {
		l.headerTimeout = DefaultReadHeaderTimeout
	}
	if l.readTimeout <= 0 {
		l.readTimeout = DefaultReadTimeout
	}
	return l, nil
}

// server is the http.Server of StartIssuer, with the listener's bounds.
func (l listenerRules) server(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: l.headerTimeout,
		ReadTimeout:       l.readTimeout,
		WriteTimeout:      issuerWriteTimeout,
		IdleTimeout:       issuerIdleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
	}
}

// guard checks Host and Origin, and answers CORS. Metadata and keys (GET)
// may be read from any origin: they are public and read no cookie. The
// token and registration endpoints answer only allowed origins, by name,
// never "*": both take JSON or a form from a program, and a page elsewhere
// must not drive them. The consent page is a page, not an API: it gets no
// CORS headers, and its form must come from its own origin.
func (l listenerRules) guard(issuerURL string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !l.hostAllowed(r.Host) {
			w.Header().Set("Cache-Control", "no-store")
			http.Error(w, "forbidden: Host "+quoteHeader(r.Host)+" is not a name of this issuer ("+issuerURL+"); an operator can add names with the issuer's allowed hosts", http.StatusForbidden)
			return
		}
		origin := r.Header.Get("Origin")
		page := strings.HasSuffix(r.URL.Path, "/authorize")
		switch {
		case r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "":
			if page || !l.corsAllowed(r, origin) {
				http.Error(w, "forbidden: this issuer does not accept requests from the web origin "+quoteHeader(origin), http.StatusForbidden)
				return
			}
			if r.Header.Get("Access-Control-Request-Method") == http.MethodGet {
				w.Header().Set("Access-Control-Allow-Origin", "*")
			} else {
				w.Header().Set("Access-Control-Allow-Origin", origin)
				w.Header().Add("Vary", "Origin")
			}
			w.Header().Set("Access-Control-Allow-Methods", "GET, POST")
			w.Header().Set("Access-Control-Allow-Headers", "Content-Type, Authorization, MCP-Protocol-Version")
			w.Header().Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return
		case r.Method == http.MethodGet || r.Method == http.MethodHead:
			if !page {
				w.Header().Set("Access-Control-Allow-Origin", "*")
			}
		case origin != "" && !(l.originAllowed(origin) || (page && origin == "null")):
			// A form posted from its own page may carry "null" under some
			// referrer policies; its cookie and token still decide.
			w.Header().Set("Cache-Control", "no-store")
			w.Header().Set("Vary", "Origin")
			http.Error(w, "forbidden: this issuer does not accept "+r.Method+" requests from the web origin "+quoteHeader(origin), http.StatusForbidden)
			return
		case origin != "" && !page:
			w.Header().Set("Access-Control-Allow-Origin", origin)
			w.Header().Add("Vary", "Origin")
		}
		next.ServeHTTP(w, r)
	})
}

// corsAllowed decides a preflight: GET (metadata, keys) from anywhere;
// anything else from an allowed origin only.
func (l listenerRules) corsAllowed(r *http.Request, origin string) bool {
	if r.Header.Get("Access-Control-Request-Method") == http.MethodGet {
		return true
	}
	return origin != "" && l.originAllowed(origin)
}

func (l listenerRules) originAllowed(origin string) bool {
	if slices.ContainsFunc(l.origins, func(a string) bool { return strings.EqualFold(a, strings.TrimSuffix(origin, "/")) }) {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || u.Path != "" {
		return false
	}
	return l.loopback && (u.Scheme == "http" || u.Scheme == "https") && loopback.Host(u.Hostname())
}

func (l listenerRules) hostAllowed(hostport string) bool {
	h, ok := hostName(hostport)
	if !ok {
		return false
	}
	if l.loopback && loopback.Host(h) {
		return true
	}
	return slices.ContainsFunc(l.hosts, func(a string) bool { return strings.EqualFold(strings.Trim(a, "[]"), h) })
}

// hostName returns the name a Host header gives, without its port; ok is
// false for a port that is not a number ("name:x" names no port here).
func hostName(hostport string) (string, bool) {
	if h, port, err := net.SplitHostPort(hostport); err == nil {
		if port == "" || len(port) > 5 || strings.Trim(port, "0123456789") != "" {
			return "", false
		}
		return strings.Trim(h, "[]"), h != ""
	}
	name := hostport
	if strings.HasPrefix(name, "[") && strings.HasSuffix(name, "]") {
		name = name[1 : len(name)-1]
	} else if strings.Contains(name, ":") {
		return "", false
	}
	return name, name != ""
}

// quoteHeader bounds and quotes a header value for an error message.
func quoteHeader(s string) string {
	if len(s) > 100 {
		s = s[:100] + "…"
	}
	return `"` + strings.Map(func(r rune) rune {
		if r < 0x20 || r == '"' || r == 0x7f {
			return '?'
		}
		return r
	}, s) + `"`
}
