package config

import (
	"flag"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strings"
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

// httpFlags registers the HTTP service's flags on fs.
func httpFlags(fs *flag.FlagSet, h *HTTPConfig, getenv func(string) string) (finish func()) {
	var issuers, origins, hosts repeated
	fs.StringVar(&h.Addr, "http", getenv("MCP_HTTP_ADDR"), "serve MCP Streamable HTTP at ADDR/mcp (e.g. 127.0.0.1:8080) instead of stdio (env MCP_HTTP_ADDR)")
	fs.StringVar(&h.PublicURL, "public-url", getenv("MCP_PUBLIC_URL"), "HTTP: the exact URL clients use for /mcp, e.g. https://mcp.example.com/mcp; the audience every token must carry (env MCP_PUBLIC_URL)")
	fs.Var(&issuers, "oauth-issuer", "HTTP: an OAuth issuer URL whose tokens are accepted; repeatable; \"embedded\" is the issuer --embedded starts (env MCP_OAUTH_ISSUERS, comma-separated)")
	fs.StringVar(&h.ReadScope, "read-scope", envOr(getenv("MCP_READ_SCOPE"), "companies:read"), "HTTP: the scope a token needs for read tools (env MCP_READ_SCOPE)")
	fs.StringVar(&h.WriteScope, "write-scope", envOr(getenv("MCP_WRITE_SCOPE"), "companies:write"), "HTTP: the scope a token needs for write tools, which --allow-mutations must also enable (env MCP_WRITE_SCOPE)")
	fs.StringVar(&h.Upstream, "upstream-auth", getenv("MCP_UPSTREAM_AUTH"), "HTTP with OAuth: whose identity reaches the backend: exchange (each user's own, by token exchange; the default with --oauth-issuer embedded or MCP_EXCHANGE_CLIENT_ID) or service (the server's own; per-user tools are refused) (env MCP_UPSTREAM_AUTH)")
	fs.Var(&origins, "allowed-origins", "HTTP: an Origin allowed to call /mcp, e.g. https://app.example.com; repeatable or comma-separated (env MCP_ALLOWED_ORIGINS)")
	fs.Var(&hosts, "allowed-hosts", "HTTP: a Host name /mcp answers to besides --public-url's; repeatable or comma-separated (env MCP_ALLOWED_HOSTS)")
	return func() {
		h.Issuers = splitList(append([]string{getenv("MCP_OAUTH_ISSUERS")}, issuers...))
		h.AllowedOrigins = splitList(append([]string{getenv("MCP_ALLOWED_ORIGINS")}, origins...))
		h.AllowedHosts = splitList(append([]string{getenv("MCP_ALLOWED_HOSTS")}, hosts...))
		h.Exchange = ExchangeSettings{
			ClientID:     getenv("MCP_EXCHANGE_CLIENT_ID"),
			ClientSecret: getenv("MCP_EXCHANGE_CLIENT_SECRET"),
			Audience:     getenv("MCP_EXCHANGE_AUDIENCE"),
			TokenURL:     getenv("MCP_EXCHANGE_TOKEN_URL"),
		}
	}
}

// validateHTTP checks the HTTP settings against each other and the rest.
// Every refusal says what to set.
func validateHTTP(c *Config) error {
	h := &c.HTTP
	if h.Addr == "" {
		for flagName, set := range map[string]bool{"--public-url": h.PublicURL != "", "--oauth-issuer": h.OAuth(), "--upstream-auth": h.Upstream != ""} {
			if set {
				return fmt.Errorf("%s applies to HTTP mode only: add --http ADDR", flagName)
			}
		}
		return nil
	}
	if _, _, err := net.SplitHostPort(h.Addr); err != nil {
		if isDigits(h.Addr) {
			return fmt.Errorf("--http %s is a port alone: give host:port, e.g. --http 127.0.0.1:%s (loopback only) or --http :%s (every interface, which needs --oauth-issuer)", h.Addr, h.Addr, h.Addr)
		}
		return fmt.Errorf("--http %s is not host:port: give e.g. --http 127.0.0.1:8080", h.Addr)
	}
	if !h.OAuth() {
		if !loopbackAddr(h.Addr) {
			return fmt.Errorf("--http %s is not a loopback address, and without OAuth anyone who reaches it would act with the server's credentials: "+
				"set --oauth-issuer URL and --public-url URL to require a token from every caller, or listen on 127.0.0.1", h.Addr)
		}
		if h.Upstream != "" {
			return fmt.Errorf("--upstream-auth needs --oauth-issuer: without OAuth the local single-user mode always uses the server's own credentials")
		}
	}
	for _, iss := range h.Issuers {
		if iss == EmbeddedIssuer {
			if !c.Embedded {
				return fmt.Errorf("--oauth-issuer embedded names the issuer --embedded starts: add --embedded, or give the issuer's URL")
			}
			continue
		}
		if err := secureURL(iss); err != nil {
			return fmt.Errorf("--oauth-issuer %q: %w", iss, err)
		}
	}
	if h.OAuth() {
		if h.PublicURL == "" && !loopbackAddr(h.Addr) {
			return fmt.Errorf("--public-url is required with --oauth-issuer on a non-loopback address: it is the URL clients use (e.g. https://mcp.example.com/mcp) and the audience their tokens must carry")
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
			return fmt.Errorf("--upstream-auth: %q is not exchange or service", h.Upstream)
		}
	}
	if h.PublicURL != "" {
		if err := secureURL(h.PublicURL); err != nil {
			return fmt.Errorf("--public-url %q: %w", h.PublicURL, err)
		}
		h.PublicURL = strings.TrimSuffix(h.PublicURL, "/")
	}
	if h.ReadScope == "" || h.WriteScope == "" || h.ReadScope == h.WriteScope || strings.ContainsAny(h.ReadScope+h.WriteScope, " \"\\") {
		return fmt.Errorf("--read-scope %q and --write-scope %q must be two different scope names without spaces or quotes", h.ReadScope, h.WriteScope)
	}
	return nil
}

// checkExchange refuses an exchange that cannot work: it needs one issuer
// to exchange at and, unless that is the embedded one, the server's client
// at it and the backend's audience.
func checkExchange(c *Config) error {
	h := c.HTTP
	if len(h.Issuers) != 1 {
		return fmt.Errorf("--upstream-auth exchange trades each user's token at its issuer, so it takes exactly one --oauth-issuer (got %d); use --upstream-auth service with several", len(h.Issuers))
	}
	if h.Issuers[0] == EmbeddedIssuer {
		return nil
	}
	if h.Exchange.ClientID == "" || h.Exchange.ClientSecret == "" || h.Exchange.Audience == "" {
		return fmt.Errorf("--upstream-auth exchange needs MCP_EXCHANGE_CLIENT_ID and MCP_EXCHANGE_CLIENT_SECRET (the server's client at the issuer) and MCP_EXCHANGE_AUDIENCE (the backend's audience); or use --upstream-auth service")
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
	if u.Scheme == "http" && !loopbackName(u.Hostname()) {
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

// loopbackName reports whether host (without port) is localhost or a
// loopback IP: the same test as the HTTP edge's guard (edge.IsLoopbackName),
// so that what starts here without OAuth is what the edge then serves as
// one local user. Configuration does not import the edge, which is below
// the assembly and may read a Config.
func loopbackName(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// loopbackAddr reports whether a listen address such as "127.0.0.1:8080"
// binds only a loopback interface. An empty host (":8080") binds all.
func loopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil || host == "" {
		return false
	}
	return loopbackName(host)
}
