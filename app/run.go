package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/companyintel/mcp-server/auth"
	"github.com/companyintel/mcp-server/graphql"
	"github.com/companyintel/mcp-server/graphql/mutation"
	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/internal/config"
	"github.com/companyintel/mcp-server/internal/edge"
	"github.com/companyintel/mcp-server/internal/ops/telemetry"
	"github.com/companyintel/mcp-server/internal/sealed"
	"github.com/companyintel/mcp-server/internal/tasks"
	"github.com/companyintel/mcp-server/ratelimit"
	"github.com/companyintel/mcp-server/tools"
	"github.com/companyintel/mcp-server/tools/feedback"
	"github.com/companyintel/mcp-server/tools/read"
)

// Stdio is the process's standard streams: stdout carries only the
// protocol, stderr every log line.
type Stdio struct {
	In       io.Reader
	Out, Err io.Writer
}

// Run serves MCP until ctx is canceled: over stdio until the input ends, or
// over Streamable HTTP when cfg.HTTP.Addr is set. Both transports serve the
// one assembly (tools, mutation gate, validation, limits, audit) built by
// assemble.
func Run(ctx context.Context, cfg config.Config, stdio Stdio, getenv func(string) string) error {
	logger, err := config.NewLogger(stdio.Err, cfg.LogFormat, cfg.LogLevel)
	if err != nil {
		return config.Misconfigured(err)
	}
	for _, w := range cfg.Warnings {
		logger.Warn(w.String(), "variable", w.Name, "nearest", w.Nearest)
	}
	if getenv == nil {
		getenv = os.Getenv
	}
	tr, logger, err := startTracing(ctx, getenv, logger)
	if err != nil {
		return err
	}
	defer stopTracing(tr, logger)
	if cfg.HTTP.Addr != "" {
		b, err := connect(ctx, cfg, logger, getenv)
		if err != nil {
			return err
		}
		defer b.Close()
		b.tracing = tr
		return runHTTP(ctx, cfg, logger, b)
	}
	restoreGC := edge.RelaxStartupGC(getenv, debug.SetGCPercent)
	defer restoreGC()
	b, err := connectInBackground(ctx, cfg, logger, getenv)
	if err != nil {
		return err
	}
	defer b.Close()
	b.tracing = tr
	return runStdio(ctx, cfg, logger, b, stdio, restoreGC)
}

// backendConn is how the server reaches the backend and spends its limits:
// the endpoint, the server's own credentials from the chain, the embedded
// backend when --embedded started one, and the rate limiter.
type backendConn struct {
	endpoint string
	// pool holds the connections to the backend (transport.go); the
	// credentials of the server and of each user are added on top of it.
	pool *http.Transport
	// id is the server's own credentials; src is the same source, set when
	// connect resolved it before returning.
	id  *identity
	src *auth.Source
	emb *embedded
	// limiter holds the rate limits, shared by every request and user.
	limiter      Limiter
	closeLimiter func()
	// closeConfirm releases the confirmation step's store (confirm.go).
	closeConfirm func()
	// exports runs the export reads (export.go); assemble makes it, and
	// the HTTP service serves its downloads. closeExports releases the
	// export directory.
	exports      *exportReads
	closeExports func()
	// closeTasks releases the task records' store (tasks.go).
	closeTasks func()
	// tracing is nil when tracing is off; the GraphQL client and both
	// transports' edges check it once per request.
	tracing *telemetry.Tracing
}

// connect starts the embedded backend if asked, resolves the server's own
// credentials and opens the rate limiter.
func connect(ctx context.Context, cfg config.Config, logger *slog.Logger, getenv func(string) string) (*backendConn, error) {
	b, resolve, err := prepare(ctx, cfg, logger, getenv)
	if err != nil {
		return nil, err
	}
	src, err := resolve()
	if err != nil {
		b.Close()
		return nil, config.Misconfigured(err)
	}
	b.src, b.id = src, resolvedIdentity(src)
	if err := b.openLimiter(ctx, cfg, logger); err != nil {
		b.Close()
		return nil, err
	}
	return b, nil
}

// connectInBackground is connect for a stdio server: the credential chain
// runs while the server starts answering (see identity), and its outcome
// is b.id.
func connectInBackground(ctx context.Context, cfg config.Config, logger *slog.Logger, getenv func(string) string) (*backendConn, error) {
	b, resolve, err := prepare(ctx, cfg, logger, getenv)
	if err != nil {
		return nil, err
	}
	b.id = newIdentity()
	go func() { b.id.set(resolve()) }()
	if err := b.openLimiter(ctx, cfg, logger); err != nil {
		b.id.wait(context.Background()) // the chain may be using the embedded backend
		b.Close()
		return nil, err
	}
	return b, nil
}

// prepare starts the embedded backend if asked and returns how to resolve
// the server's own credentials.
func prepare(ctx context.Context, cfg config.Config, logger *slog.Logger, getenv func(string) string) (*backendConn, func() (*auth.Source, error), error) {
	b := &backendConn{endpoint: cfg.Endpoint, pool: newBackendTransport()}
	authOpts := auth.Options{Force: cfg.Auth, ForcedBy: cfg.Setting("auth", string(cfg.Auth)), Getenv: getenv, Logger: logger, Base: b.pool}
	if cfg.Embedded {
		emb, err := startEmbedded(ctx, cfg, logger)
		if err != nil {
			return nil, nil, err
		}
		b.emb, b.endpoint = emb, emb.URL
		authOpts = emb.authOptions(authOpts)
	}
	authOpts.Endpoint = b.endpoint
	return b, func() (*auth.Source, error) {
		src, err := auth.Resolve(ctx, authOpts)
		if errors.Is(err, auth.ErrNoCredentials) && cfg.HTTP.OAuth() && cfg.HTTP.Upstream == config.UpstreamExchange {
			// Every backend request carries its user's exchanged token; the
			// server needs no identity of its own (readiness pings go without).
			return &auth.Source{Method: "none", Principal: "none"}, nil
		}
		return src, err
	}, nil
}

// openLimiter opens the rate limiter.
func (b *backendConn) openLimiter(ctx context.Context, cfg config.Config, logger *slog.Logger) error {
	limiter, closeLimiter, err := newLimiter(ctx, cfg, logger)
	if err != nil {
		return config.Misconfigured(err)
	}
	b.limiter, b.closeLimiter = limiter, closeLimiter
	return nil
}

// Close releases the rate limiter and stops the embedded backend, if any.
func (b *backendConn) Close() {
	if b.closeTasks != nil {
		b.closeTasks()
	}
	if b.closeConfirm != nil {
		b.closeConfirm()
	}
	if b.closeExports != nil {
		b.closeExports()
	}
	if b.closeLimiter != nil {
		b.closeLimiter()
	}
	if b.emb != nil {
		b.emb.Close()
	}
}

// assembly is what differs between the transports' use of assemble.
type assembly struct {
	// transport names the transport: "stdio" or "http".
	transport string
	// upstream authenticates each backend request.
	upstream http.RoundTripper
	// gate, when set, adds a per-tool gate (after the tool's own).
	gate func(tool string) func(context.Context) error
	// observe, when set, is told of each finished call (metrics).
	observe func(ctx context.Context, tool, outcome string, d time.Duration)
	// hooks, when set, are mcp-go's hooks (metrics).
	hooks *server.Hooks
	// onReport, when set, is told of each report_missing_capability report
	// after its log record (metrics); tracing adds its own (reportObservers).
	onReport []func(context.Context, feedback.Report)
	// onConfirm, when set, counts each write's confirmation (metrics).
	onConfirm func(ctx context.Context, tool, outcome string)
	// downloadBase, over HTTP, is where download links live
	// (downloadBase); on stdio an export's file goes to --export-dir.
	downloadBase string
	// onTask, when set, counts each task event (metrics).
	onTask func(tool, event string)
	// extensions are the backend's schema extensions: learned before
	// assemble (HTTP, check), or pending and settled later (stdio).
	extensions *extensionView
}

// assemble builds the MCP server both transports serve: the same tools,
// gate, validation, rate limits and audit record.
func assemble(cfg config.Config, logger *slog.Logger, b *backendConn, a assembly) (*server.MCPServer, Counts, *tasks.Engine) {
	client := graphql.NewClient(b.endpoint, &http.Client{Transport: a.upstream}, cfg.Timeout)
	if b.tracing != nil {
		client.SetTracer(b.tracing.Tracer())
	}
	confirm, closeConfirm := newConfirmation(cfg, logger, a.onConfirm)
	b.closeConfirm = closeConfirm
	reader := query.NewReader(client, query.WithLogger(logger))
	var exportKey read.Sealer = sealed.RandomKey()
	if confirm.Key != nil {
		exportKey = confirm.Key
	}
	x := newExportReads(reader, exportKey, b.limiter, cfg.Export.Concurrent, time.Now, logger)
	x.hint = b.id.UnauthorizedHint
	b.exports = x
	var delivery read.Delivery = noFile{}
	switch {
	case a.downloadBase != "":
		delivery = httpDelivery{base: a.downloadBase, now: time.Now}
	case cfg.Export.Dir != "":
		dd, err := openExportDir(cfg.Export.Dir, x)
		if err != nil {
			logger.Warn("no export files: the export directory cannot be opened", "dir", cfg.Export.Dir, "error", err.Error())
			break
		}
		delivery, b.closeExports = dd, func() { _ = dd.root.Close() }
	}
	s, counts := NewMCPServer(Parts{
		exports:      x,
		Delivery:     delivery,
		Reader:       reader,
		Writer:       mutation.NewWriter(client),
		Jobs:         query.NewJobs(client),
		TasksStore:   tasksStoreKind(cfg),
		Mutations:    cfg.Mutations,
		HideDisabled: cfg.HideDisabledTools,
		WriteScope:   cfg.HTTP.WriteScope,
		Gate:         a.gate,
		Hooks:        a.hooks,
		Limiter:      b.limiter,
		Runtime: tools.Runtime{
			Logger:           logger,
			UnauthorizedHint: b.id.UnauthorizedHint,
			ErrorClasses:     cfg.ErrorClasses,
			CallTimeout:      cfg.Timeout + 5*time.Second,
			AnswerBound:      cfg.MaxAnswerBytes,
			Observe:          observeCalls(a.observe, b.tracing),
			Confirm:          confirm,
		},
		Transport:         a.transport,
		Extensions:        a.extensions,
		ExtensionsSetting: cfg.Name("schema-extensions") + " on or off",
		Auth:              b.id.Status,
		Version:           Version(),
		ValidateOutput:    cfg.ValidateOutput,

		// A report is logged by the tool, then told to each observer: the
		// metric in HTTP mode, and a span event when tracing is on.
		FeedbackTool:      cfg.FeedbackTool,
		FeedbackObservers: reportObservers(a.onReport, b.tracing),
	})
	traceTargets(b.tracing, s)
	t, closeTasks := newTasks(cfg, logger, counts, a.onTask)
	b.closeTasks = closeTasks
	return s, counts, t
}

// learnExtensionsNow learns the backend's schema extensions with the
// server's own credentials (upstream), within extensionBudget of start, and
// tells the operator when it could not tell or the backend lacks some.
func learnExtensionsNow(ctx context.Context, cfg config.Config, logger *slog.Logger, b *backendConn, upstream http.RoundTripper, start time.Time) Extensions {
	ctx, cancel := context.WithDeadline(ctx, start.Add(extensionBudget))
	defer cancel()
	c := graphql.NewClient(b.endpoint, &http.Client{Transport: upstream}, extensionBudget)
	e := learnExtensions(ctx, cfg.SchemaExtensions, cfg.Embedded, c)
	served, left := extensionTools(e, cfg.FeedbackTool)
	switch {
	case !e.Known:
		logger.Warn("could not tell whether the backend has the schema extensions; serving the original schema's tools",
			"not_served", strings.Join(left, ","), "reason", e.Detail,
			"fix", "set "+cfg.Name("schema-extensions")+" on (or off) to say so")
	case len(left) > 0:
		logger.Info("the backend serves the original schema; tools that need an extension are not served",
			"from", e.From, "lacks", strings.Join(missing(e), ","), "not_served", strings.Join(left, ","))
	case len(served) > 0 && e.From != "embedded backend":
		logger.Debug("the backend has the schema extensions", "from", e.From)
	}
	return e
}

// logStart writes the start-up line; extra fields follow the design's.
// extension_tools names the tools served only because the backend has a
// schema extension ("none" against the original schema), and
// schema_extensions says what is known of them.
func logStart(logger *slog.Logger, cfg config.Config, transport string, method auth.Method, counts Counts, ext Extensions, extra ...any) {
	served, _ := extensionTools(ext, cfg.FeedbackTool)
	names := strings.Join(served, ",")
	if names == "" {
		names = "none"
	}
	logger.Info("starting mcp-server", append([]any{
		"version", Version(),
		"transport", transport,
		"auth", string(method),
		"mutations", cfg.Mutations.Any(),
		"tools", counts.Tools,
		"resources", counts.Resources,
		"prompts", counts.Prompts,
		"extension_tools", names,
		"schema_extensions", ext.State(),
		"catalog", catalogueID(cfg.FeedbackTool, ext.Has[extRemove]),
		"confirm_writes", confirmWrites(cfg),
	}, extra...)...)
	if cfg.Mutations.Any() {
		logger.Info("write tools enabled", "tools", cfg.Mutations.Enabled())
	}
}

// runStdio serves one client over the process's standard streams, as the
// server's own identity. The start-up line follows the credential chain's
// outcome, which it names; a chain that fails stops the server with that
// error even if the client already has the catalogue.
func runStdio(ctx context.Context, cfg config.Config, logger *slog.Logger, b *backendConn, stdio Stdio, restoreGC func()) error {
	start := time.Now()
	view := &extensionView{}
	s, _, t := assemble(cfg, logger, b, assembly{transport: "stdio", upstream: b.id, extensions: view})
	// What the backend's schema serves is learned while the handshake is
	// answered: tools/list and tools/call wait for it, within
	// extensionBudget of start (the credential chain's wait included; the
	// embedded backend is known at once).
	catalogueReady := make(chan struct{})
	var counts Counts
	go func() {
		// The backend is asked with the server's own credentials, which
		// the probe's requests wait for: within the same budget.
		counts = settleExtensions(s, view, learnExtensionsNow(ctx, cfg, logger, b, b.id, start))
		close(catalogueReady)
	}()
	// A chain that fails ends the input: nothing more is read, and the
	// requests read so far (those that waited for the chain) are answered
	// in its words before the server stops.
	chainFailed := make(chan struct{})
	started := make(chan struct{})
	go func() {
		defer close(started)
		// The chain is bounded by its own timeouts and by ctx.
		src, err := b.id.wait(context.Background())
		if err != nil {
			close(chainFailed)
			return
		}
		<-catalogueReady
		ext, _ := view.load()
		logStart(logger, cfg, "stdio", src.Method, counts, ext, append(tasksField(t), tracingFields(b.tracing)...)...)
	}()

	err := edge.ServeStdio(ctx, s, stdio.In, stdio.Out, edge.StdioOptions{
		Logger: logger, Identity: b.id, CheckPrompt: promptCheck(s), AfterFirstAnswer: restoreGC, Tracing: b.tracing, EndInput: chainFailed,
		Tasks:     edgeTasks(t),
		Catalogue: catalogueReady,
	})
	<-started
	if _, idErr := b.id.wait(context.Background()); idErr != nil && ctx.Err() == nil {
		return config.Misconfigured(idErr)
	}
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
	return ratelimit.Merge(defaultLimits(), over), nil
}

func stopReason(ctx context.Context) string {
	if ctx.Err() != nil {
		return "signal"
	}
	return "input closed"
}
