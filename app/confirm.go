package app

import (
	"context"
	"log/slog"

	"github.com/redis/go-redis/v9"

	"github.com/companyintel/mcp-server/internal/config"
	"github.com/companyintel/mcp-server/internal/loopback"
	"github.com/companyintel/mcp-server/internal/sealed"
	"github.com/companyintel/mcp-server/ratelimit"
	"github.com/companyintel/mcp-server/tools"
)

// newConfirmation builds the pipeline's confirmation step from the
// configuration: the key that seals a pending confirmation (the operator's,
// else one of this process's own, which config allows only where one
// process serves: stdio, a loopback HTTP server), and the memory of states
// already used: Redis with --redis-url, so that a state is honoured once
// across the replica set, else this process. close releases it.
func newConfirmation(cfg config.Config, logger *slog.Logger, observe func(ctx context.Context, tool, outcome string)) (c *tools.Confirmation, close func()) {
	c = &tools.Confirmation{Mode: cfg.Confirm.Mode, Key: cfg.Confirm.Key, Observe: observe, Stateless: cfg.HTTP.Addr != ""}
	close = func() {}
	if c.Mode == tools.ConfirmOff || !cfg.Mutations.Any() {
		return c, close
	}
	if c.Key == nil {
		c.Key = sealed.RandomKey()
	}
	c.Once = &sealed.Memory{}
	if cfg.RedisURL != "" {
		if opts, err := ratelimit.ParseRedisURL(cfg.RedisURL); err == nil { // checked by ParseConfig
			opts.ReadTimeout, opts.WriteTimeout = cfg.RedisTimeout, cfg.RedisTimeout
			client := redis.NewClient(opts)
			c.Once = &sealed.Redis{Client: client}
			close = func() { _ = client.Close() }
		}
	}
	logger.Info("writes are confirmed by the user", "confirm_writes", string(c.Mode), "shared_key", cfg.Confirm.Key != nil, "single_use", onceName(cfg))
	if cfg.HTTP.Addr != "" && cfg.RedisURL == "" && (cfg.Confirm.Key != nil || !loopback.Addr(cfg.HTTP.Addr)) {
		// A shared key, or a non-loopback service, is a replica set: a
		// confirmation remembered by one replica only could be sent again
		// to another and written twice.
		logger.Warn("confirmations are single-use within this process only: in a replica set, a confirmed write's state could be "+
			"answered once on each replica; give every replica the same --redis-url", "confirm_writes", string(c.Mode), "single_use", "process")
	}
	return c, close
}

// confirmWrites is the start-up line's confirm_writes: how writes are
// confirmed, or "no" when none are (writes off, or --confirm-writes=off).
func confirmWrites(cfg config.Config) string {
	if !cfg.Mutations.Any() || cfg.Confirm.Mode == tools.ConfirmOff || cfg.Confirm.Mode == "" {
		return "no"
	}
	return string(cfg.Confirm.Mode)
}

func onceName(cfg config.Config) string {
	if cfg.RedisURL != "" {
		return "redis"
	}
	return "process"
}
