package config

import (
	"flag"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strings"

	"github.com/companyintel/mcp-server/internal/loopback"
)

// HTTPConfig is the HTTP service's part of the configuration. HTTP mode is
// on when Addr is set; stdio stays the default transport.
type HTTPConfig struct {
	// Addr is where Streamable HTTP is served (--http, MCP_HTTP_ADDR).
	Addr string
	// PublicURL is the exact URL clients reach /mcp at (--public-url): the
	// OAuth resource identifier and the audience every token must carry.
	PublicURL string
	// Issuers are the OAuth issuers whose tokens are accepted
	// (--oauth-issuer); EmbeddedIssuer names the one --embedded starts.
	// None means the local single-user mode, allowed on loopback only.
	Issuers []string
	// ReadScope and WriteScope are the scopes a token needs for read and
	// write tools (--read-scope, --write-scope).
	ReadScope, WriteScope string
	// Upstream says whose identity reaches the backend (--upstream-auth):
	// UpstreamExchange or UpstreamService.
	Upstream string
	// AllowedOrigins and AllowedHosts extend the DNS-rebinding guard.
	AllowedOrigins, AllowedHosts []string
	// Exchange configures token exchange with an external issuer, from the
	// environment only (it holds a secret). The embedded issuer needs none.
	Exchange ExchangeSettings
}

// ExchangeSettings are the server's own credentials at the issuer for
// token exchange (--upstream-auth exchange).
type ExchangeSettings struct {
	ClientID, ClientSecret string
	// Audience is the backend's audience (AppSync's OIDC client id).
	Audience string
	// TokenURL overrides the issuer's token endpoint.
	TokenURL string
}

// The values of --oauth-issuer and --upstream-auth with a meaning of their own.
const (
	EmbeddedIssuer   = "embedded"
	UpstreamExchange = "exchange"
	UpstreamService  = "service"
)

// OAuth reports whether inbound requests are authenticated with OAuth.
func (h HTTPConfig) OAuth() bool { return len(h.Issuers) > 0 }

// httpFlags registers the HTTP service's flags on fs; the list flags are
// read into h by readFlags.
func httpFlags(fs *flag.FlagSet, h *HTTPConfig, f *flags) {
	fs.StringVar(&h.Addr, "http", "", "serve MCP Streamable HTTP at ADDR/mcp (e.g. 127.0.0.1:8080) instead of stdio")
	fs.StringVar(&h.PublicURL, "public-url", "", "HTTP: the exact URL clients use for /mcp, e.g. https://mcp.example.com/mcp; the audience every token must carry")
	fs.Var(&f.issuers, "oauth-issuer", "HTTP: an OAuth issuer URL whose tokens are accepted; repeatable; \"embedded\" is the issuer --embedded starts")
	fs.StringVar(&h.ReadScope, "read-scope", "companies:read", "HTTP: the scope a token needs for read tools")
	fs.StringVar(&h.WriteScope, "write-scope", "companies:write", "HTTP: the scope a token needs for write tools, which --allow-mutations must also enable")
	fs.StringVar(&h.Upstream, "upstream-auth", "", "HTTP with OAuth: whose identity reaches the backend: exchange (each user's own, by token exchange; the default with --oauth-issuer embedded or MCP_EXCHANGE_CLIENT_ID) or service (the server's own; per-user tools are refused)")
	fs.Var(&f.origins, "allowed-origins", "HTTP: an Origin allowed to call /mcp, e.g. https://app.example.com; repeatable or comma-separated")
	fs.Var(&f.hosts, "allowed-hosts", "HTTP: a Host name /mcp answers to besides --public-url's; repeatable or comma-separated")
}

// validateHTTP checks the HTTP settings against each other and the rest.
// Every refusal names the settings as they were given and what to set.
func validateHTTP(c *Config) error {
	h, s := &c.HTTP, c.from
	if h.Addr == "" {
		for _, flag := range []string{"public-url", "oauth-issuer", "upstream-auth"} {
			if s.flags[flag] || s.env[flag] {
				return fmt.Errorf("%s applies to HTTP mode only: add %s", s.name(flag), s.likeSetting(flag, "http", "ADDR"))
			}
		}
		return nil
	}
	host, port, err := net.SplitHostPort(h.Addr)
	if err != nil || port == "" || !isDigits(port) {
		addr := strings.TrimSuffix(h.Addr, ":")
		if isDigits(addr) {
			return fmt.Errorf("%s is a port alone: give host:port, e.g. %s (loopback only) or %s (every interface, which needs %s)",
				s.setting("http", h.Addr), s.setting("http", "127.0.0.1:"+addr), s.setting("http", ":"+addr), s.like("http", "oauth-issuer"))
		}
		return fmt.Errorf("%s is not host:port with a numeric port: give e.g. %s", s.setting("http", h.Addr), s.setting("http", "127.0.0.1:8080"))
	}
	if !h.OAuth() {
		if !loopback.Addr(h.Addr) {
			where := "is not a loopback address"
			if host == "" {
				where = "listens on every interface"
			}
			return fmt.Errorf("%s %s, and without OAuth anyone who reaches it would act with the server's credentials: "+
				"set %s and %s to require a token from every caller, or listen on 127.0.0.1", s.setting("http", h.Addr), where,
				s.likeSetting("http", "oauth-issuer", "URL"), s.likeSetting("http", "public-url", "URL"))
		}
		if h.Upstream != "" {
			return fmt.Errorf("%s needs %s: without OAuth the local single-user mode always uses the server's own credentials", s.name("upstream-auth"), s.like("upstream-auth", "oauth-issuer"))
		}
	}
	for _, iss := range h.Issuers {
		name := s.item("oauth-issuer", iss)
		if iss == EmbeddedIssuer {
			if !c.Embedded {
				embedded := "--embedded"
				if name != "--oauth-issuer" {
					embedded = "MCP_EMBEDDED=true"
				}
				return fmt.Errorf("%s names the embedded backend's issuer: add %s, or give the issuer's URL", itemSetting(name, iss), embedded)
			}
			continue
		}
		if err := secureURL(iss); err != nil {
			return fmt.Errorf("%s: %w", itemSetting(name, fmt.Sprintf("%q", iss)), err)
		}
	}
	if h.OAuth() {
		if h.PublicURL == "" && !loopback.Addr(h.Addr) {
			return fmt.Errorf("%s is required with %s on a non-loopback address: it is the URL clients use (e.g. https://mcp.example.com/mcp) and the audience their tokens must carry",
				s.like("oauth-issuer", "public-url"), s.name("oauth-issuer"))
		}
		switch h.Upstream {
		case "":
			// Each user's own identity where the server can obtain it;
			// the exchange's own check then says what is missing.
			h.Upstream = UpstreamService
			if slices.Contains(h.Issuers, EmbeddedIssuer) || h.Exchange.ClientID != "" {
				h.Upstream = UpstreamExchange
				if err := checkExchange(c); err != nil {
					return err
				}
			}
		case UpstreamExchange:
			if err := checkExchange(c); err != nil {
				return err
			}
		case UpstreamService:
		default:
			return fmt.Errorf("%s: %q is not exchange or service", s.name("upstream-auth"), h.Upstream)
		}
	}
	if h.PublicURL != "" {
		if err := secureURL(h.PublicURL); err != nil {
			return fmt.Errorf("%s: %w", s.setting("public-url", fmt.Sprintf("%q", h.PublicURL)), err)
		}
		h.PublicURL = strings.TrimSuffix(h.PublicURL, "/")
	}
	if err := checkGuardLists(h, s); err != nil {
		return err
	}
	if h.ReadScope == "" || h.WriteScope == "" || h.ReadScope == h.WriteScope || strings.ContainsAny(h.ReadScope+h.WriteScope, " \"\\") {
		return fmt.Errorf("%s and %s must be two different scope names without spaces or quotes",
			s.setting("read-scope", fmt.Sprintf("%q", h.ReadScope)), s.setting("write-scope", fmt.Sprintf("%q", h.WriteScope)))
	}
	return nil
}

// checkGuardLists refuses an allowed origin or host that could never match
// a request, which would leave a client refused with no hint why: an Origin
// header is exactly scheme://host[:port], a Host is compared by its name.
func checkGuardLists(h *HTTPConfig, s sources) error {
	for _, o := range h.AllowedOrigins {
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
			return fmt.Errorf("%s: an origin is scheme://host[:port] and nothing more, e.g. https://app.example.com", itemSetting(s.item("allowed-origins", o), fmt.Sprintf("%q", o)))
		}
	}
	for _, host := range h.AllowedHosts {
		if strings.ContainsAny(host, "/:@ ") && net.ParseIP(strings.Trim(host, "[]")) == nil {
			return fmt.Errorf("%s: give a host name alone, without scheme, port or path, e.g. mcp.internal.example", itemSetting(s.item("allowed-hosts", host), fmt.Sprintf("%q", host)))
		}
	}
	return nil
}

// itemSetting writes one item of a list setting as it was given: name is
// the flag ("--oauth-issuer") or its variable.
func itemSetting(name, value string) string {
	if strings.HasPrefix(name, "--") {
		return name + " " + value
	}
	return name + ": " + value
}

// checkExchange refuses an exchange that cannot work: it needs one issuer
// to exchange at and, unless that is the embedded one, the server's client
// at it and the backend's audience.
func checkExchange(c *Config) error {
	h, s := c.HTTP, c.from
	if len(h.Issuers) != 1 {
		upstream := s.setting("upstream-auth", UpstreamExchange)
		if !s.flags["upstream-auth"] && !s.env["upstream-auth"] {
			upstream += " (the default with an embedded issuer or MCP_EXCHANGE_CLIENT_ID)"
		}
		return fmt.Errorf("%s trades each user's token at its issuer, so it takes exactly one issuer in %s (got %d); use %s with several",
			upstream, s.name("oauth-issuer"), len(h.Issuers), s.likeSetting("oauth-issuer", "upstream-auth", UpstreamService))
	}
	if h.Issuers[0] == EmbeddedIssuer {
		return nil
	}
	if h.Exchange.ClientID == "" || h.Exchange.ClientSecret == "" || h.Exchange.Audience == "" {
		return fmt.Errorf("%s needs MCP_EXCHANGE_CLIENT_ID and MCP_EXCHANGE_CLIENT_SECRET (the server's client at the issuer) and MCP_EXCHANGE_AUDIENCE (the backend's audience); or use %s",
			s.setting("upstream-auth", UpstreamExchange), s.likeSetting("upstream-auth", "upstream-auth", UpstreamService))
	}
	if h.Exchange.TokenURL != "" {
		if err := secureURL(h.Exchange.TokenURL); err != nil {
			return fmt.Errorf("MCP_EXCHANGE_TOKEN_URL: %w", err)
		}
	}
	return nil
}

// secureURL accepts an absolute https URL, or http on a loopback host:
// credentials never travel over plain http beyond this machine.
func secureURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return fmt.Errorf("want an absolute https URL")
	}
	if u.Scheme == "http" && !loopback.Host(u.Hostname()) {
		return fmt.Errorf("plain http is allowed on loopback hosts only; use https")
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("a query or fragment is not allowed")
	}
	return nil
}

// splitList flattens comma-separated values, dropping empty ones.
func splitList(values []string) []string {
	var out []string
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			if part = strings.TrimSpace(part); part != "" {
				out = append(out, part)
			}
		}
	}
	return out
}

// isDigits reports whether s is a non-empty run of ASCII digits.
func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}
