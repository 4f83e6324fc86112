package app

import (
	"log/slog"

	"github.com/companyintel/mcp-server/internal/config"
	"github.com/companyintel/mcp-server/internal/edge"
	"github.com/companyintel/mcp-server/internal/tasks"
	"github.com/companyintel/mcp-server/ratelimit"
)

// TasksExtension is the MCP tasks extension this server implements.
const TasksExtension = tasks.Extension

// newTasks returns the tasks extension over the followed tools: its records
// in the Redis of --redis-url, where every replica reads them, else in this
// process. It returns nil (no extension) when no served tool is followed.
// close releases the store.
func newTasks(cfg config.Config, logger *slog.Logger, counts Counts, observe func(tool, event string)) (t *tasks.Engine, close func()) {
	if len(counts.Followers) == 0 {
		return nil, func() {}
	}
	var store tasks.Store = tasks.NewMemory(nil)
	close = func() {}
	if cfg.RedisURL != "" {
		opts, err := ratelimit.ParseRedisURL(cfg.RedisURL) // checked by ParseConfig
		if err == nil {
			r := tasks.NewRedis(opts, nil)
			store, close = r, func() { _ = r.Close() }
		}
	}
	return tasks.New(store, tasks.Options{Followers: counts.Followers, Logger: logger, Observe: observe}), close
}

// edgeTasks is t for the edge: nil stays a nil interface.
func edgeTasks(t *tasks.Engine) edge.Tasks {
	if t == nil {
		return nil
	}
	return t
}

// tasksField is the start-up line's field naming where task records live.
func tasksField(t *tasks.Engine) []any {
	if t == nil {
		return []any{"tasks", "off"}
	}
	return []any{"tasks", t.StoreKind()}
}

// tasksStoreKind is where newTasks keeps the records.
func tasksStoreKind(cfg config.Config) string {
	if cfg.RedisURL != "" {
		return "redis"
	}
	return "memory"
}
