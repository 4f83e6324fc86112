package app

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	gql "github.com/Khan/genqlient/graphql"

	"github.com/companyintel/mcp-server/auth"
	"github.com/companyintel/mcp-server/graphql"
	"github.com/companyintel/mcp-server/internal/config"
	"github.com/companyintel/mcp-server/ratelimit"
)

// Preflight is the server assembled from a configuration but not serving:
// what `mcp-server check` (package cli) asks before anyone relies on it. It
// writes nothing to the backend.
type Preflight struct {
	// Endpoint is the GraphQL endpoint the server calls.
	Endpoint string
	// Auth is the server's own credentials: method, principal, expiry.
	Auth auth.Status
	// Counts are what the server registers.
	Counts Counts
	// Extensions are the backend's schema extensions, as start-up learns them.
	Extensions ExtensionStatus
	// SharedLimits says the rate limits live in Redis, shared by replicas;
	// PingLimitStore asks it.
	SharedLimits bool

	b       *backendConn
	timeout time.Duration
}

// StartPreflight starts the embedded backend if asked, resolves the
// credentials, opens the limit store and assembles the server as a run
// would. Close releases what it started.
func StartPreflight(ctx context.Context, cfg config.Config, logger *slog.Logger, getenv func(string) string) (*Preflight, error) {
	b, err := connect(ctx, cfg, logger, getenv)
	if err != nil {
		return nil, err
	}
	view := &extensionView{}
	ext := learnExtensionsNow(ctx, cfg, logger, b, b.src.Transport, time.Now())
	view.v.Store(&ext)
	_, counts, _ := assemble(cfg, logger, b, assembly{transport: "stdio", upstream: b.src.Transport, extensions: view})
	_, shared := b.limiter.(interface{ Ping(context.Context) error })
	return &Preflight{Endpoint: b.endpoint, Auth: b.src.Status(), Counts: counts, Extensions: ext.status(cfg.FeedbackTool, cfg.Name("schema-extensions")+" on or off"), SharedLimits: shared, b: b, timeout: cfg.Timeout}, nil
}

// ProbeBackend asks the backend the cheapest question with the server's
// credentials and times the answer. Unlike the readiness ping, refused
// credentials fail it.
func (p *Preflight) ProbeBackend(ctx context.Context) (time.Duration, error) {
	c := graphql.NewClient(p.b.endpoint, &http.Client{Transport: p.b.src.Transport}, p.timeout)
	var data struct {
		Typename string `json:"__typename"`
	}
	start := time.Now()
	err := c.MakeRequest(ctx, &gql.Request{OpName: "Check", Query: "query Check { __typename }"}, &gql.Response{Data: &data})
	return time.Since(start), err
}

// UnauthorizedHint says what to do about credentials the backend refused,
// in the credential chain's words; "" when it has nothing to add.
func (p *Preflight) UnauthorizedHint() string { return p.b.src.UnauthorizedHint() }

// PingLimitStore asks the shared limit store whether it answers; nil when
// the limits are kept in this process.
func (p *Preflight) PingLimitStore(ctx context.Context) error {
	if s, ok := p.b.limiter.(interface{ Ping(context.Context) error }); ok {
		return s.Ping(ctx)
	}
	return nil
}

// Close stops what StartPreflight started.
func (p *Preflight) Close() { p.b.Close() }

// RateLimits are the limits a server with these specs (--rate-limit,
// RATE_LIMITS) enforces: each tool's default, under the specs.
func RateLimits(specs []string) (map[string]ratelimit.Limit, error) { return rateLimits(specs) }
