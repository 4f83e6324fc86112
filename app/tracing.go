package app

import (
	"context"
	"log/slog"
	"maps"
	"slices"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/companyintel/mcp-server/internal/ops/telemetry"
	"github.com/companyintel/mcp-server/tools/feedback"
)

// startTracing sets tracing up from the OTEL_* environment and returns the
// logger to use: with tracing on, its records inside a span carry the
// span's trace_id and span_id. Off, it returns nil and logger unchanged.
func startTracing(ctx context.Context, getenv func(string) string, logger *slog.Logger) (*telemetry.Tracing, *slog.Logger, error) {
	tr, err := telemetry.New(ctx, telemetry.Settings{Getenv: getenv, ServiceVersion: Version(), Logger: logger})
	if err != nil {
		return nil, nil, misconfigured(err)
	}
	if tr == nil {
		return nil, logger, nil
	}
	return tr, slog.New(telemetry.LogHandler(logger.Handler())), nil
}

// tracingFields are the start-up line's word on tracing: where spans go,
// when it is on.
func tracingFields(tr *telemetry.Tracing) []any {
	if tr == nil {
		return nil
	}
	return []any{"tracing", tr.Endpoint()}
}

// stopTracing flushes the spans still queued, bounded by
// telemetry.ShutdownTimeout, whichever way the server stops.
func stopTracing(tr *telemetry.Tracing, logger *slog.Logger) {
	if err := tr.Shutdown(); err != nil {
		logger.Warn("tracing: spans lost at shutdown", "err", err.Error())
	}
}

// traceTargets tells tracing which tools and prompts s serves: the only
// names its spans are named after.
func traceTargets(tr *telemetry.Tracing, s *server.MCPServer) {
	if tr == nil {
		return
	}
	names := slices.Collect(maps.Keys(s.ListTools()))
	for name := range s.ListPrompts() {
		names = append(names, name)
	}
	tr.SetTargets(names...)
}

// observeCalls is the tool pipeline's Observe hook: metrics (HTTP) and
// the tool's outcome on its span (tracing), either or both or none.
func observeCalls(metrics func(context.Context, string, string, time.Duration), tr *telemetry.Tracing) func(context.Context, string, string, time.Duration) {
	switch {
	case tr == nil:
		return metrics
	case metrics == nil:
		return tr.ObserveCall
	}
	return func(ctx context.Context, tool, outcome string, d time.Duration) {
		metrics(ctx, tool, outcome, d)
		tr.ObserveCall(ctx, tool, outcome, d)
	}
}

// reportObservers adds the span event of a missing-capability report to the
// transport's observers when tracing is on.
func reportObservers(observers []func(context.Context, feedback.Report), tr *telemetry.Tracing) []func(context.Context, feedback.Report) {
	if tr == nil {
		return observers
	}
	return append(slices.Clone(observers), func(ctx context.Context, r feedback.Report) {
		tr.ObserveMissingCapability(ctx, len(r.Tried))
	})
}
