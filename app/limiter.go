package app

import (
	"context"
	"log/slog"

	"github.com/companyintel/mcp-server/internal/config"
	"github.com/companyintel/mcp-server/ratelimit"
)

// newLimiter returns the rate limiter the configuration asks for: buckets
// in this process, or, with --redis-url, in Redis, where every replica
// pointed at the same Redis spends from the same buckets. close releases
// it.
//
// A Redis that does not answer at start-up does not stop the server: the
// limited tools are refused (never served unlimited) until it answers,
// the other tools work, and /readyz reports it.
func newLimiter(ctx context.Context, cfg config.Config, logger *slog.Logger) (l Limiter, close func(), err error) {
	limits, err := rateLimits(cfg.RateLimits)
	if err != nil {
		return nil, nil, err
	}
	if !cfg.Export.PerCaller.Unlimited() {
		limits[ExportLimitKey] = cfg.Export.PerCaller
	}
	if cfg.RedisURL == "" {
		return ratelimit.New(limits), func() {}, nil
	}
	opts, err := ratelimit.ParseRedisURL(cfg.RedisURL) // checked by ParseConfig
	if err != nil {
		return nil, nil, err
	}
	r := ratelimit.NewRedis(opts, limits, ratelimit.WithTimeout(cfg.RedisTimeout), ratelimit.WithLogger(logger))
	logger.Info("rate limits kept in redis", "redis", opts.Addr, "timeout", cfg.RedisTimeout.String())
	// A failed ping logs its own warning, once.
	_ = r.Ping(ctx)
	return r, func() { _ = r.Close() }, nil
}
