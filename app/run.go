package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net/http"
	"os"
	"runtime/debug"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/companyintel/mcp-server/auth"
	"github.com/companyintel/mcp-server/graphql"
	"github.com/companyintel/mcp-server/graphql/mutation"
	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/ratelimit"
	"github.com/companyintel/mcp-server/tools"
)

// maxConcurrentCalls bounds the tool calls served at once on stdio; more
// wait in mcp-go's queue.
const maxConcurrentCalls = 32

// Stdio is the process's standard streams: stdout carries only the
// protocol, stderr every log line.
type Stdio struct {
	In       io.Reader
	Out, Err io.Writer
}

// Run serves MCP over stdio until the input ends or ctx is canceled.
func Run(ctx context.Context, cfg Config, stdio Stdio, getenv func(string) string) error {
	logger, err := NewLogger(stdio.Err, cfg.LogFormat, cfg.LogLevel)
	if err != nil {
		return misconfigured(err)
	}

	if getenv == nil {
		getenv = os.Getenv
	}
	endpoint, authOpts := cfg.Endpoint, auth.Options{Force: cfg.Auth, Getenv: getenv, Logger: logger}
	if cfg.Embedded {
		emb, err := startEmbedded(cfg, logger)
		if err != nil {
			return err
		}
		defer emb.Close()
		endpoint = emb.URL
		authOpts = emb.authOptions(authOpts)
	}
	authOpts.Endpoint = endpoint

	src, err := auth.Resolve(ctx, authOpts)
	if err != nil {
		return misconfigured(err)
	}
	client := graphql.NewClient(endpoint, &http.Client{Transport: src.Transport}, cfg.Timeout)

	limiter, closeLimiter, err := newLimiter(ctx, cfg, logger)
	if err != nil {
		return misconfigured(err)
	}
	defer closeLimiter()

	version := Version()
	s, counts := NewMCPServer(Parts{
		Reader:       query.NewReader(client),
		Writer:       mutation.NewWriter(client),
		Mutations:    cfg.Mutations,
		HideDisabled: cfg.HideDisabledTools,
		Limiter:      limiter,
		Runtime: tools.Runtime{
			Logger:           logger,
			UnauthorizedHint: src.UnauthorizedHint,
			ErrorClasses:     cfg.ErrorClasses,
			CallTimeout:      cfg.Timeout + 5*time.Second,
		},
		Transport:      "stdio",
		Auth:           src.Status,
		Version:        version,
		ValidateOutput: cfg.ValidateOutput,
	})

	logger.Info("starting mcp-server",
		"version", version,
		"transport", "stdio",
		"auth", string(src.Method),
		"mutations", cfg.Mutations.Any(),
		"tools", counts.Tools,
		"resources", counts.Resources,
		"prompts", counts.Prompts,
	)
	if cfg.Mutations.Any() {
		logger.Info("write tools enabled", "tools", cfg.Mutations.Enabled())
	}

	caller := tools.Caller{ID: src.Principal, AuthMethod: string(src.Method)}
	stdioServer := server.NewStdioServer(s)
	// mcp-go serves tool calls from a pool of 5 workers by default, so an
	// agent's sixth parallel call waited for a backend round trip to end
	// (BENCHMARKS.md: +59 ms p50 at 8 callers with a 100 ms backend). A
	// call mostly waits on the backend, so workers are cheap.
	server.WithWorkerPoolSize(maxConcurrentCalls)(stdioServer)
	stdioServer.SetErrorLogger(log.New(slogWriter{logger}, "", 0))
	stdioServer.SetContextFunc(func(ctx context.Context) context.Context {
		return tools.WithCaller(ctx, caller)
	})
	d := newDrain(ctx)
	err = stdioServer.Listen(ctx, d.Reader(stdio.In), d.Writer(stdio.Out))
	if err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("stdio: %w", err)
	}
	logger.Info("stopped mcp-server", "reason", stopReason(ctx))
	return nil
}

// rateLimits merges the defaults with the configured specs, rejecting a
// tool name that does not exist.
func rateLimits(specs []string) (map[string]ratelimit.Limit, error) {
	over, err := ratelimit.ParseSpecs(specs, ToolNames())
	if err != nil {
		return nil, fmt.Errorf("--rate-limit: %w", err)
	}
	return ratelimit.Merge(ratelimit.Defaults(), over), nil
}

func stopReason(ctx context.Context) string {
	if ctx.Err() != nil {
		return "signal"
	}
	return "input closed"
}

// Version is the module version the binary was built from, or "dev".
func Version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// slogWriter carries mcp-go's own error log lines into the structured log.
type slogWriter struct{ l *slog.Logger }

func (w slogWriter) Write(p []byte) (int, error) {
	w.l.Error("mcp transport", "detail", string(trimNewline(p)))
	return len(p), nil
}

func trimNewline(p []byte) []byte {
	for len(p) > 0 && (p[len(p)-1] == '\n' || p[len(p)-1] == '\r') {
		p = p[:len(p)-1]
	}
	return p
}
