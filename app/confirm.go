package app

import (
	"context"
	"log/slog"

	"github.com/redis/go-redis/v9"

	"github.com/companyintel/mcp-server/internal/config"
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
	c = &tools.Confirmation{Mode: cfg.Confirm.Mode, Key: cfg.Confirm.Key, Observe: observe}
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
	return c, close
}

func onceName(cfg config.Config) string {
	if cfg.RedisURL != "" {
		return "redis"
	}
	return "process"
}
