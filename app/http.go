package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/companyintel/mcp-server/graphql"
	"github.com/companyintel/mcp-server/health"
	"github.com/companyintel/mcp-server/mcphttp"
	"github.com/companyintel/mcp-server/tools"
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

// runHTTP serves MCP Streamable HTTP at /mcp, stateless, beside /healthz and
// /readyz, until ctx ends; then it drains requests in flight.
func runHTTP(ctx context.Context, cfg Config, logger *slog.Logger, b *backendConn) error {
	h := cfg.HTTP
	ln, err := net.Listen("tcp", h.Addr)
	if err != nil {
		return misconfigured(fmt.Errorf("--http %s: %w", h.Addr, err))
	}
	defer ln.Close()
	publicURL := h.PublicURL
	if publicURL == "" {
		publicURL = "http://" + ln.Addr().String() + "/mcp"
	}
	pub, err := url.Parse(publicURL)
	if err != nil {
		return fmt.Errorf("--public-url: %w", err)
	}

	s, counts := assemble(cfg, logger, b, assembly{transport: "http", upstream: b.src.Transport})
	// Stateless: no session ids, so any replica answers any request. The
	// standalone GET stream is off because without sessions every GET
	// would share one stream (mcp-go's stateless id is ""); 405 is the
	// answer the transport allows. Host checks are ours (Guard), which
	// also cover non-loopback deployments.
	mcpHandler := server.NewStreamableHTTPServer(s,
		server.WithStateLess(true),
		server.WithDisableStreaming(true),
		server.WithDisableLocalhostProtection(true),
		server.WithStreamableHTTPLogger(logger.With("component", "mcp-http")),
	)

	caller := tools.Caller{ID: b.src.Principal, AuthMethod: string(b.src.Method)}
	var authenticated http.Handler = localUser(caller, mcpHandler)

	guard := mcphttp.Guard{
		Hosts:    append([]string{pub.Hostname()}, h.AllowedHosts...),
		Origins:  append([]string{pub.Scheme + "://" + pub.Host}, h.AllowedOrigins...),
		Loopback: !h.OAuth() || mcphttp.IsLoopbackName(pub.Hostname()),
	}
	requestTimeout := cfg.Timeout + 10*time.Second
	mux := http.NewServeMux()
	mux.Handle("/mcp", guard.Wrap(mcphttp.ReadMessage(mcphttp.DefaultMaxBody, mcphttp.Deadline(requestTimeout, authenticated))))
	mux.HandleFunc("GET /healthz", health.Live)
	ready := health.NewReadiness(readyTimeout, logger,
		health.Check{Name: "backend", Run: b.ping(b.src.Transport)},
	)
	if store, ok := b.limiter.(interface{ Ping(context.Context) error }); ok {
		// With --redis-url, limited tools need Redis: a replica that cannot
		// reach it refuses them, so it is not ready.
		ready.Add(health.Check{Name: "rate_limit_store", Run: store.Ping})
	}
	mux.Handle("GET /readyz", ready)

	rctx, stopReady := context.WithCancel(ctx)
	defer stopReady()
	go ready.Run(rctx, readyEvery)

	mode := "local"
	if h.OAuth() {
		mode = "oauth"
	}
	logStart(logger, cfg, "http", b.src.Method, counts, "addr", ln.Addr().String(), "url", publicURL, "mode", mode)
	err = mcphttp.Serve(ctx, ln, mux, mcphttp.Timeouts{Request: requestTimeout, Drain: httpDrainTimeout})
	if errors.Is(err, mcphttp.ErrDrainCut) {
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
