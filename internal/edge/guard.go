package edge

import (
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/companyintel/mcp-server/internal/loopback"
)

// Guard protects /mcp against DNS rebinding: a web page whose name an
// attacker points at this server must not reach it through a browser. The
// Host header must name this server, and an Origin header, when present,
// must be one this server trusts (a browser always sends one on a
// cross-site request). It guards /mcp only: probes and scrapers address a
// pod by its IP and must not be refused.
type Guard struct {
	// Hosts are the host names (without port) requests may address.
	Hosts []string
	// Origins are the exact origins ("https://app.example.com") allowed.
	Origins []string
	// Loopback also allows the loopback names (localhost, 127.0.0.1, ::1)
	// as Host and as the host of an Origin: the local single-user mode,
	// where an IDE or the MCP Inspector on the same machine connects.
	Loopback bool
}

// Wrap returns next behind the guard. A refusal is 403 with a sentence
// naming the header and the setting that would allow it.
func (g Guard) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !g.hostAllowed(r.Host) {
			http.Error(w, "forbidden: Host "+quote(r.Host)+" is not a name of this server (add it with --allowed-hosts)", http.StatusForbidden)
			return
		}
		if o := r.Header.Get("Origin"); o != "" && !g.originAllowed(o) {
			http.Error(w, "forbidden: Origin "+quote(o)+" is not allowed (add it with --allowed-origins)", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (g Guard) hostAllowed(hostport string) bool {
	h, ok := hostName(hostport)
	if !ok {
		return false
	}
	if g.Loopback && loopback.Host(h) {
		return true
	}
	return slices.ContainsFunc(g.Hosts, func(a string) bool { return strings.EqualFold(a, h) })
}

func (g Guard) originAllowed(origin string) bool {
	if slices.ContainsFunc(g.Origins, func(a string) bool { return strings.EqualFold(strings.TrimSuffix(a, "/"), origin) }) {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	return g.Loopback && (u.Scheme == "http" || u.Scheme == "https") && loopback.Host(u.Hostname())
}

// hostName returns the name a Host header gives, without its port. ok is
// false unless the port, when there is one, is a number: "name:x" names no
// port of this server, and a Host check that looked only at the name would
// pass it.
func hostName(hostport string) (name string, ok bool) {
	if h, port, err := net.SplitHostPort(hostport); err == nil {
		if !isPort(port) {
			return "", false
		}
		return strings.Trim(h, "[]"), h != ""
	}
	name = hostport
	if strings.HasPrefix(name, "[") && strings.HasSuffix(name, "]") {
		name = name[1 : len(name)-1] // an IPv6 literal without a port
	} else if strings.Contains(name, ":") {
		return "", false // neither a name nor a name and a port
	}
	return name, name != ""
}

// isPort reports whether s is a TCP port number.
func isPort(s string) bool {
	if s == "" || len(s) > 5 {
		return false
	}
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
		n = n*10 + int(c-'0')
	}
	return n <= 65535
}

// OneCredential refuses a request that presents more than one access token
// (two Authorization headers, or a header and an access_token query
// parameter) with 400 invalid_request, as RFC 6750 §3.1 asks: a server that
// read only the first would act on a credential the client may not have
// meant, and the two could name different users.
func OneCredential(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := len(r.Header.Values("Authorization"))
		if r.URL.Query().Has("access_token") {
			n++
		}
		if n > 1 {
			const why = "the request carries more than one access token; send exactly one, in one Authorization header"
			w.Header().Set("WWW-Authenticate", `Bearer error="invalid_request", error_description="`+why+`"`)
			http.Error(w, "invalid_request: "+why, http.StatusBadRequest)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// MethodNotAllowed answers a method /mcp does not serve with 405 and the
// method it does. DELETE ends a session, and this server is stateless: it
// has none to end, on every revision (mcp-go's stateless handler answers
// 200 under 2025-11-25, as if it had ended one).
func MethodNotAllowed(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Allow", http.MethodPost)
	http.Error(w, r.Method+" is not supported: this server is stateless, with no sessions to end or streams to open; POST each message", http.StatusMethodNotAllowed)
}

// quote bounds and quotes a client-supplied value for an error message.
func quote(s string) string {
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
