package mcphttp

import (
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
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
	h := hostOnly(hostport)
	if h == "" {
		return false
	}
	if g.Loopback && IsLoopbackName(h) {
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
	return g.Loopback && (u.Scheme == "http" || u.Scheme == "https") && IsLoopbackName(u.Hostname())
}

// IsLoopbackName reports whether host (without port) is localhost or a
// loopback IP.
func IsLoopbackName(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// IsLoopbackAddr reports whether a listen address such as "127.0.0.1:8080"
// binds only a loopback interface. An empty host ("":8080) binds all.
func IsLoopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil || host == "" {
		return false
	}
	return IsLoopbackName(host)
}

func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return strings.Trim(h, "[]")
	}
	return strings.Trim(hostport, "[]")
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
