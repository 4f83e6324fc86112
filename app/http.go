package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"slices"
	"syscall"
	"time"

	"github.com/companyintel/mcp-server/graphql"
	"github.com/companyintel/mcp-server/internal/config"
	"github.com/companyintel/mcp-server/internal/edge"
	"github.com/companyintel/mcp-server/internal/loopback"
	"github.com/companyintel/mcp-server/internal/oauth/exchange"
	"github.com/companyintel/mcp-server/internal/oauth/resource"
	"github.com/companyintel/mcp-server/internal/ops/health"
	"github.com/companyintel/mcp-server/internal/ops/metrics"
	"github.com/companyintel/mcp-server/tools"
	"github.com/companyintel/mcp-server/tools/feedback"
	"github.com/companyintel/mcp-server/tools/read"
)

// The HTTP service's fixed bounds.
const (
	// httpDrainTimeout bounds how long a stop waits for requests in flight.
	httpDrainTimeout = 10 * time.Second
	// readyEvery is how often the readiness checks run in the background.
	readyEvery = 15 * time.Second
	// readyTimeout bounds one readiness check.
	readyTimeout = 3 * time.Second
)

// runHTTP serves MCP Streamable HTTP at /mcp, stateless, beside /healthz,
// /readyz and /metrics, until ctx ends; then it drains requests in flight.
func runHTTP(ctx context.Context, cfg config.Config, logger *slog.Logger, b *backendConn) error {
	h := cfg.HTTP
	ln, err := listenHTTP(cfg)
	if err != nil {
		return err
	}
	defer ln.Close()
	publicURL := h.PublicURL
	if publicURL == "" {
		publicURL = "http://" + ln.Addr().String() + "/mcp"
	}
	pub, err := url.Parse(publicURL)
	if err != nil {
		return fmt.Errorf("%s: %w", cfg.Name("public-url"), err)
	}

	m := metrics.New(ToolNames())
	a := assembly{transport: "http", upstream: m.Backend(b.src.Transport), observe: m.ObserveCall, hooks: m.Hooks(),
		onReport:  []func(context.Context, feedback.Report){func(context.Context, feedback.Report) { m.CountMissingCapability() }},
		onConfirm: m.ObserveConfirmation, onTask: m.ObserveTask}
	var users *resource.Authenticator
	if h.OAuth() {
		if users, err = newAuthenticator(ctx, cfg, logger, b, publicURL); err != nil {
			return err
		}
		if a.upstream, a.gate, err = upstreamFor(cfg, b, users, m); err != nil {
			return err
		}
	}
	a.downloadBase = downloadBase(pub)
	a.extensions = &extensionView{}
	ext := learnExtensionsNow(ctx, cfg, logger, b, b.src.Transport, time.Now())
	a.extensions.v.Store(&ext)
	s, counts, t := assemble(cfg, logger, b, a)
	var authenticate func(http.Handler) http.Handler
	if users != nil {
		authenticate = func(next http.Handler) http.Handler { return edge.OneCredential(users.Middleware(attachUser, next)) }
	} else {
		caller := tools.Caller{ID: b.src.Principal, AuthMethod: string(b.src.Method)}
		authenticate = func(next http.Handler) http.Handler { return localUser(caller, next) }
	}
	requestTimeout := cfg.Timeout + 10*time.Second
	mux := http.NewServeMux()
	guard := edge.Guard{
		Hosts:    append([]string{pub.Hostname()}, h.AllowedHosts...),
		Origins:  append([]string{pub.Scheme + "://" + pub.Host}, h.AllowedOrigins...),
		Loopback: !h.OAuth() || loopback.Host(pub.Hostname()),
	}
	mux.Handle("/mcp", edge.Handler(s, edge.HTTPOptions{
		Logger:       logger,
		Guard:        guard,
		MaxBody:      edge.DefaultMaxBody,
		Timeout:      requestTimeout,
		Observe:      m.Operations,
		Authenticate: authenticate,
		CheckPrompt:  promptCheck(s),
		Tracing:      b.tracing,
		Tasks:        edgeTasks(t),
	}))
	// Downloads carry no token (the link is the capability) but the same
	// Host and Origin guard as /mcp.
	mux.Handle("GET "+downloadPrefix+"{name}", guard.Wrap(downloads(b.exports)))
	mux.HandleFunc("GET /healthz", health.Live)
	mux.Handle("GET /metrics", m.Handler())
	ready := health.NewReadiness(readyTimeout, logger,
		health.Check{Name: "backend", Run: b.ping(b.src.Transport)},
	)
	if store, ok := b.limiter.(interface{ Ping(context.Context) error }); ok {
		// With --redis-url, limited tools need Redis; the others do not. All
		// replicas share the one Redis, so failing readiness on it would
		// take every replica out of rotation and stop the tools that still
		// work: it degrades, and is reported.
		ready.Add(health.Check{Name: "rate_limit_store", Run: store.Ping, Degrades: true})
	}
	mux.Handle("GET /readyz", ready)
	if users != nil {
		for _, p := range users.MetadataPaths() {
			mux.HandleFunc("GET "+p, users.Metadata)
		}
		for name, check := range users.Checks() {
			ready.Add(health.Check{Name: name, Run: check})
		}
	}

	rctx, stopReady := context.WithCancel(ctx)
	defer stopReady()
	go ready.Run(rctx, readyEvery)

	mode := "local"
	if h.OAuth() {
		mode = "oauth"
	}
	extra := []any{"addr", ln.Addr().String(), "url", publicURL, "mode", mode}
	if users != nil {
		extra = append(extra, "upstream", h.Upstream)
	}
	extra = append(extra, tasksField(t)...)
	extra = append(extra, tracingFields(b.tracing)...)
	logStart(logger, cfg, "http", b.src.Method, counts, ext, extra...)
	if cfg.Confirm.Key == nil && !loopback.Addr(h.Addr) {
		logger.Warn("export links are sealed with this process's own key: in a replica set, a download link opens only on the replica that made it; "+
			"give every replica the same --confirm-state-key", "export_download_ttl", read.DownloadTTL.String())
	}
	err = edge.Serve(ctx, ln, mux, edge.Timeouts{Request: requestTimeout, Drain: httpDrainTimeout})
	if errors.Is(err, edge.ErrDrainCut) {
		logger.Warn("stopped mcp-server with requests cut off", "drain_timeout", httpDrainTimeout.String())
		return nil
	}
	if err != nil {
		return fmt.Errorf("http: %w", err)
	}
	logger.Info("stopped mcp-server", "reason", "signal")
	return nil
}

// localUser serves every request as the server's own identity: the local
// single-user mode, where whoever can reach a loopback port is the user who
// started the server (as on stdio).
func localUser(c tools.Caller, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(tools.WithCaller(r.Context(), c)))
	})
}

// ping is the backend's readiness check over the given credentials.
func (b *backendConn) ping(rt http.RoundTripper) func(context.Context) error {
	client := graphql.NewClient(b.endpoint, &http.Client{Transport: rt}, readyTimeout)
	return client.Ping
}

// issuerURLs are the configured issuers, the embedded one by its URL.
func issuerURLs(cfg config.Config, b *backendConn) []string {
	var out []string
	for _, iss := range cfg.HTTP.Issuers {
		if iss == config.EmbeddedIssuer {
			iss = b.emb.issuerURL()
		}
		out = append(out, iss)
	}
	return out
}

// discoveryTimeout bounds reading the issuers' metadata at start-up.
const discoveryTimeout = 5 * time.Second

// newAuthenticator discovers the issuers. The embedded issuer is told the
// public URL, so that its authorization endpoint issues tokens for it.
func newAuthenticator(ctx context.Context, cfg config.Config, logger *slog.Logger, b *backendConn, publicURL string) (*resource.Authenticator, error) {
	if slices.Contains(cfg.HTTP.Issuers, config.EmbeddedIssuer) {
		if err := b.emb.allowResource(publicURL); err != nil {
			return nil, err
		}
	}
	dctx, cancel := context.WithTimeout(ctx, discoveryTimeout)
	defer cancel()
	users, err := resource.New(dctx, resource.Config{
		Resource:   publicURL,
		Issuers:    issuerURLs(cfg, b),
		ReadScope:  cfg.HTTP.ReadScope,
		WriteScope: cfg.HTTP.WriteScope,
		IsWrite:    isWrite,
		Allowed:    cfg.Mutations.Allowed,
		AnyWrite:   cfg.Mutations.Any(),
		Logger:     logger.With("component", "oauth"),
		// A step-up from the embedded issuer's token cannot refresh back
		// to the scopes that were refused.
		OnInsufficientScope: b.emb.endNarrowGrants,
	})
	if err != nil {
		return nil, config.Misconfigured(fmt.Errorf("%s: %w", cfg.Name("oauth-issuer"), err))
	}
	return users, nil
}

// attachUser makes a verified token's user the caller of the request: the
// tools see who it is and what its scopes allow, and the token exchange
// sees whose backend token to obtain.
func attachUser(ctx context.Context, p resource.Principal) context.Context {
	ctx = tools.WithCaller(ctx, tools.Caller{
		// Issuer URLs hold no spaces, so the pair cannot be confused.
		ID:         p.Issuer + " " + p.Subject,
		Issuer:     p.Issuer,
		AuthMethod: "oauth",
		User:       p.Subject,
		Client:     p.ClientID,
		Scoped:     true,
		Scopes:     p.Scopes,
	})
	return exchange.WithSubject(ctx, exchange.Subject{
		Issuer: p.Issuer, Subject: p.Subject, Token: p.Token, Scopes: p.Scopes, Expiry: p.Expiry,
	})
}

// upstreamFor returns whose credentials reach the backend for an OAuth
// user: the user's own, by token exchange; or the server's, and then a gate
// that refuses the per-user tools, since the backend could not tell one
// user's collections from another's.
func upstreamFor(cfg config.Config, b *backendConn, users *resource.Authenticator, m *metrics.Metrics) (http.RoundTripper, func(string) func(context.Context) error, error) {
	if cfg.HTTP.Upstream == config.UpstreamService {
		return m.Backend(b.src.Transport), serviceGate, nil
	}
	xc := exchange.ExchangeConfig{
		ClientID:      cfg.HTTP.Exchange.ClientID,
		ClientSecret:  cfg.HTTP.Exchange.ClientSecret,
		Audience:      cfg.HTTP.Exchange.Audience,
		TokenURL:      cfg.HTTP.Exchange.TokenURL,
		OnExchange:    m.OnExchange,
		OnCacheLookup: m.OnCacheLookup,
	}
	if cfg.HTTP.Issuers[0] == config.EmbeddedIssuer {
		xc.ClientID, xc.ClientSecret, xc.Audience = b.emb.exchangeClient()
	}
	if xc.TokenURL == "" {
		xc.TokenURL = users.TokenEndpoint(issuerURLs(cfg, b)[0])
	}
	if err := xc.Check(); err != nil {
		return nil, nil, config.Misconfigured(err)
	}
	return exchange.NewExchanger(xc).Transport(m.Backend(b.pool)), nil, nil
}

// serviceGate refuses the per-user tools under --upstream-auth service.
func serviceGate(tool string) func(context.Context) error {
	if !isPerUser(tool) {
		return nil
	}
	return func(context.Context) error {
		return &tools.Error{Class: tools.Forbidden, Message: "this tool acts on your own data (collections, writes), but this server reaches the data API with its own credentials " +
			"(--upstream-auth service), where your data cannot be told from other users'; ask the operator to run it with --upstream-auth exchange"}
	}
}

// listenHTTP listens at cfg.HTTP.Addr. An address another process holds is
// refused naming the setting to change, as it was given (--http or
// MCP_HTTP_ADDR), and a port of the same host that was free a moment ago; a
// port below 1024 without the privilege says to pick a higher one.
func listenHTTP(cfg config.Config) (net.Listener, error) {
	addr := cfg.HTTP.Addr
	ln, err := net.Listen("tcp", addr)
	if err == nil {
		return ln, nil
	}
	host, port, splitErr := net.SplitHostPort(addr)
	switch {
	case splitErr != nil:
	case errors.Is(err, syscall.EADDRINUSE):
		fix := "stop that process, or give " + cfg.Name("http") + " another port"
		if free, ferr := net.Listen("tcp", net.JoinHostPort(host, "0")); ferr == nil {
			_, p, _ := net.SplitHostPort(free.Addr().String())
			free.Close()
			fix += ", e.g. " + cfg.Setting("http", net.JoinHostPort(host, p)) + " (free now)"
		}
		return nil, config.Misconfigured(fmt.Errorf("%s: port %s is already in use (another process listens there); %s", cfg.Setting("http", addr), port, fix))
	case errors.Is(err, syscall.EACCES):
		return nil, config.Misconfigured(fmt.Errorf("%s: this user may not listen on port %s (ports below 1024 need privileges); give %s a port above 1024, e.g. %s", cfg.Setting("http", addr), port, cfg.Name("http"), cfg.Setting("http", net.JoinHostPort(host, "8080"))))
	}
	return nil, config.Misconfigured(fmt.Errorf("%s: %w", cfg.Setting("http", addr), err))
}
