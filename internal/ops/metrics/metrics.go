// Package metrics is the HTTP service's Prometheus metrics, named after the
// OpenTelemetry semantic conventions for MCP where they exist
// (mcp.server.operation.duration, http.client.request.duration), and under
// one project prefix, companyintel_, where they do not. Label values that a
// client chooses (method, tool, protocol version) are bounded to known
// values, else "_OTHER", so that no client can grow the series without end.
//
// The families are our own (metrics/internal/prom), not client_golang's:
// its package initialisation cost about 4 ms on every start, stdio starts
// included, where /metrics is never served. The process_ and go_ families
// keep client_golang's names and types, so dashboards keep working.
package metrics

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/companyintel/mcp-server/graphql"
	"github.com/companyintel/mcp-server/internal/edge"
	"github.com/companyintel/mcp-server/internal/ops/metrics/internal/prom"
)

// other replaces a label value outside the known set.
const other = "_OTHER"

// knownMethods are the MCP methods labelled by name.
var knownMethods = []string{
	"initialize", "ping", "server/discover", "tools/list", "tools/call",
	"resources/list", "resources/read", "resources/templates/list",
	"prompts/list", "prompts/get", "completion/complete", "logging/setLevel",
	"subscriptions/listen", "notifications/initialized", "notifications/cancelled",
	"tasks/get", "tasks/update", "tasks/cancel",
}

// knownVersions are the protocol revisions labelled by name.
var knownVersions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}

// Metrics holds the server's metric families and the page that shows them.
type Metrics struct {
	reg        prom.Registry
	tools      []string
	operations *prom.HistogramVec
	calls      *prom.CounterVec
	refusals   *prom.CounterVec
	exchanges  *prom.CounterVec
	cache      *prom.CounterVec
	backend    *prom.HistogramVec
	missing    *prom.Counter
	confirms   *prom.CounterVec
	tasks      *prom.CounterVec
}

// New registers the families; tools are the tool names labelled by name.
func New(tools []string) *Metrics {
	m := &Metrics{tools: tools}
	m.operations = m.reg.NewHistogramVec("mcp_server_operation_duration_seconds",
		"MCP requests served (OTel mcp.server.operation.duration): duration by method, tool, error type and protocol version.",
		[]float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300},
		"mcp_method_name", "gen_ai_tool_name", "error_type", "rpc_response_status_code", "mcp_protocol_version", "network_transport")
	m.calls = m.reg.NewCounterVec("companyintel_tool_calls_total",
		"Tool calls by tool and outcome: ok or the error class (invalid_arguments, mutations_disabled, rate_limited, ...).",
		"gen_ai_tool_name", "outcome")
	m.refusals = m.reg.NewCounterVec("companyintel_rate_limit_refusals_total",
		"Tool calls refused by a rate limit, by tool.",
		"gen_ai_tool_name")
	m.exchanges = m.reg.NewCounterVec("companyintel_token_exchanges_total",
		"RFC 8693 token exchanges at the issuer, by result: ok, refused (an OAuth error) or error.",
		"result")
	m.cache = m.reg.NewCounterVec("companyintel_token_cache_lookups_total",
		"Backend token lookups per request, by result: hit (a cached exchanged token) or miss.",
		"result")
	m.backend = m.reg.NewHistogramVec("http_client_request_duration_seconds",
		"Requests to the GraphQL backend (OTel http.client.request.duration), by operation and status.",
		[]float64{0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10},
		"graphql_operation_name", "http_response_status_code", "error_type")
	m.missing = m.reg.NewCounterVec("companyintel_missing_capability_reports_total",
		"Needs no tool met, reported by a model with report_missing_capability (--feedback-tool); what was wanted is in the log.").With()
	m.confirms = m.reg.NewCounterVec("companyintel_write_confirmations_total",
		"Writes put to the person (--confirm-writes), by tool and outcome: accepted, declined, cancelled, asked (a 2026-07-28 question sent), "+
			"not_asked (the client cannot ask; written under ask), refused (it cannot ask; refused under required), unanswered, invalid (a refused requestState), preview_err.",
		"gen_ai_tool_name", "outcome")
	m.tasks = m.reg.NewCounterVec("companyintel_task_events_total",
		"Tasks (the MCP tasks extension) by tool and event: created, completed (the job settled; its answer may be isError), "+
			"failed (a protocol fault), cancelled, expired (first asked after past its ttlMs).",
		"gen_ai_tool_name", "event")
	m.reg.Func(goFamilies)
	m.reg.Func(processFamilies)
	return m
}

// Handler serves the page in the Prometheus text format 0.0.4.
func (m *Metrics) Handler() http.Handler { return &m.reg }

// ObserveCall counts one finished tool call (tools.Runtime.Observe).
func (m *Metrics) ObserveCall(_ context.Context, tool, outcome string, _ time.Duration) {
	tool = m.tool(tool)
	m.calls.With(tool, outcome).Inc()
	if outcome == "rate_limited" {
		m.refusals.With(tool).Inc()
	}
}

// ObserveConfirmation counts one write's confirmation step
// (tools.Confirmation.Observe). The outcomes are the pipeline's own, a
// fixed set.
func (m *Metrics) ObserveConfirmation(_ context.Context, tool, outcome string) {
	m.confirms.With(m.tool(tool), outcome).Inc()
}

// ObserveTask counts one task event (tasks.Options.Observe); the events
// are a fixed set.
func (m *Metrics) ObserveTask(tool, event string) { m.tasks.With(m.tool(tool), event).Inc() }

// CountMissingCapability counts one report of a need no tool met. It has no
// labels: what was wanted is free text, and the log record holds it.
func (m *Metrics) CountMissingCapability() { m.missing.Inc() }

// OnExchange counts a token exchange (exchange.ExchangeConfig.OnExchange).
func (m *Metrics) OnExchange(result string) { m.exchanges.With(result).Inc() }

// OnCacheLookup counts a backend token lookup (exchange.ExchangeConfig.OnCacheLookup).
func (m *Metrics) OnCacheLookup(hit bool) {
	result := "miss"
	if hit {
		result = "hit"
	}
	m.cache.With(result).Inc()
}

func (m *Metrics) tool(name string) string {
	if name == "" || slices.Contains(m.tools, name) {
		return name
	}
	return other
}

// Backend measures each request to the backend sent through base.
func (m *Metrics) Backend(base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return roundTripper(func(r *http.Request) (*http.Response, error) {
		start := time.Now()
		resp, err := base.RoundTrip(r)
		status, errType := "", ""
		switch {
		case err != nil:
			errType = "transport"
			if errors.Is(err, context.DeadlineExceeded) {
				errType = "timeout"
			}
		default:
			status = strconv.Itoa(resp.StatusCode)
			if resp.StatusCode >= 400 {
				errType = status
			}
		}
		m.backend.With(graphql.OperationName(r.Context()), status, errType).Observe(time.Since(start).Seconds())
		return resp, err
	})
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// outcome is what mcp-go's hooks learn of one request's result, carried in
// its context from Operations to the hooks.
type outcome struct {
	code     int  // a JSON-RPC error code, when the request failed
	toolErr  bool // a tools/call whose result is isError
	answered bool
}

type outcomeKey struct{}

// Hooks are the mcp-go hooks that tell Operations how each request ended.
func (m *Metrics) Hooks() *server.Hooks {
	h := &server.Hooks{}
	h.AddOnSuccess(func(ctx context.Context, _ any, _ mcp.MCPMethod, _ any, result any) {
		if o, ok := ctx.Value(outcomeKey{}).(*outcome); ok {
			o.answered = true
			if r, ok := result.(*mcp.CallToolResult); ok && r.IsError {
				o.toolErr = true
			}
		}
	})
	h.AddOnError(func(ctx context.Context, _ any, _ mcp.MCPMethod, _ any, err error) {
		if o, ok := ctx.Value(outcomeKey{}).(*outcome); ok {
			o.answered = true
			o.code = mcp.INTERNAL_ERROR
			if e, ok := err.(interface{ ToJSONRPCError() mcp.JSONRPCError }); ok {
				o.code = e.ToJSONRPCError().Error.Code
			}
		}
	})
	return h
}

// Operations measures each MCP request to next. It must run after
// edge.ReadMessage, whose Message names the method and tool.
func (m *Metrics) Operations(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		msg, ok := edge.MessageFrom(r.Context())
		if !ok || msg.Method == "" {
			next.ServeHTTP(w, r)
			return
		}
		start := time.Now()
		o := &outcome{}
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		ctx, answered := edge.WithAnswered(context.WithValue(r.Context(), outcomeKey{}, o))
		next.ServeHTTP(sw, r.WithContext(ctx))
		if answered.Seen {
			// The code the client got, which the edge may have changed
			// from the one mcp-go's hooks saw.
			o.answered, o.code = true, answered.Code
		}
		errType, rpcCode := "", ""
		switch {
		case o.code != 0:
			errType, rpcCode = strconv.Itoa(o.code), strconv.Itoa(o.code)
		case o.toolErr:
			errType = "tool_error"
		case !o.answered && sw.status >= 400:
			errType = strconv.Itoa(sw.status) // refused before mcp-go: 401, 403, 400
		}
		tool := ""
		if msg.Method == "tools/call" {
			tool = m.tool(msg.Tool)
		}
		m.operations.With(known(msg.Method, knownMethods), tool, errType, rpcCode,
			known(msg.ProtocolVersion, knownVersions), "tcp").Observe(time.Since(start).Seconds())
	})
}

func known(v string, set []string) string {
	if v == "" || slices.Contains(set, v) {
		return v
	}
	return other
}

// statusWriter remembers the status written.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (s *statusWriter) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

// Flush passes streaming flushes through.
func (s *statusWriter) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the writer below.
func (s *statusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }
