// Package metrics is the HTTP service's Prometheus metrics, named after the
// OpenTelemetry semantic conventions for MCP where they exist
// (mcp.server.operation.duration, http.client.request.duration), and under
// one project prefix, companyintel_, where they do not. Label values that a
// client chooses (method, tool, protocol version) are bounded to known
// values, else "_OTHER", so that no client can grow the series without end.
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
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/companyintel/mcp-server/graphql"
	"github.com/companyintel/mcp-server/mcphttp"
)

// other replaces a label value outside the known set.
const other = "_OTHER"

// knownMethods are the MCP methods labelled by name.
var knownMethods = []string{
	"initialize", "ping", "server/discover", "tools/list", "tools/call",
	"resources/list", "resources/read", "resources/templates/list",
	"prompts/list", "prompts/get", "completion/complete", "logging/setLevel",
	"subscriptions/listen", "notifications/initialized", "notifications/cancelled",
}

// knownVersions are the protocol revisions labelled by name.
var knownVersions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}

// Metrics holds the collectors and their registry.
type Metrics struct {
	reg        *prometheus.Registry
	tools      []string
	operations *prometheus.HistogramVec
	calls      *prometheus.CounterVec
	refusals   *prometheus.CounterVec
	exchanges  *prometheus.CounterVec
	cache      *prometheus.CounterVec
	backend    *prometheus.HistogramVec
	missing    prometheus.Counter
}

// New registers the collectors; tools are the tool names labelled by name.
func New(tools []string) *Metrics {
	m := &Metrics{
		reg:   prometheus.NewRegistry(),
		tools: tools,
		operations: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "mcp_server_operation_duration_seconds",
			Help:    "MCP requests served (OTel mcp.server.operation.duration): duration by method, tool, error type and protocol version.",
			Buckets: []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300},
		}, []string{"mcp_method_name", "gen_ai_tool_name", "error_type", "rpc_response_status_code", "mcp_protocol_version", "network_transport"}),
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "companyintel_tool_calls_total",
			Help: "Tool calls by tool and outcome: ok or the error class (invalid_arguments, mutations_disabled, rate_limited, ...).",
		}, []string{"gen_ai_tool_name", "outcome"}),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "companyintel_rate_limit_refusals_total",
			Help: "Tool calls refused by a rate limit, by tool.",
		}, []string{"gen_ai_tool_name"}),
		exchanges: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "companyintel_token_exchanges_total",
			Help: "RFC 8693 token exchanges at the issuer, by result: ok, refused (an OAuth error) or error.",
		}, []string{"result"}),
		cache: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "companyintel_token_cache_lookups_total",
			Help: "Backend token lookups per request, by result: hit (a cached exchanged token) or miss.",
		}, []string{"result"}),
		backend: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "http_client_request_duration_seconds",
			Help:    "Requests to the GraphQL backend (OTel http.client.request.duration), by operation and status.",
			Buckets: []float64{0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10},
		}, []string{"graphql_operation_name", "http_response_status_code", "error_type"}),
		missing: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "companyintel_missing_capability_reports_total",
			Help: "Needs no tool met, reported by a model with report_missing_capability (--feedback-tool); what was wanted is in the log.",
		}),
	}
	m.reg.MustRegister(m.operations, m.calls, m.refusals, m.exchanges, m.cache, m.backend, m.missing,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the registry in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// ObserveCall counts one finished tool call (tools.Runtime.Observe).
func (m *Metrics) ObserveCall(_ context.Context, tool, outcome string, _ time.Duration) {
	tool = m.tool(tool)
	m.calls.WithLabelValues(tool, outcome).Inc()
	if outcome == "rate_limited" {
		m.refusals.WithLabelValues(tool).Inc()
	}
}

// CountMissingCapability counts one report of a need no tool met. It has no
// labels: what was wanted is free text, and the log record holds it.
func (m *Metrics) CountMissingCapability() { m.missing.Inc() }

// OnExchange counts a token exchange (upstream.ExchangeConfig.OnExchange).
func (m *Metrics) OnExchange(result string) { m.exchanges.WithLabelValues(result).Inc() }

// OnCacheLookup counts a backend token lookup (upstream.ExchangeConfig.OnCacheLookup).
func (m *Metrics) OnCacheLookup(hit bool) {
	result := "miss"
	if hit {
		result = "hit"
	}
	m.cache.WithLabelValues(result).Inc()
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
		m.backend.WithLabelValues(graphql.OperationName(r.Context()), status, errType).Observe(time.Since(start).Seconds())
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
// mcphttp.ReadMessage, whose Message names the method and tool.
func (m *Metrics) Operations(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		msg, ok := mcphttp.MessageFrom(r.Context())
		if !ok || msg.Method == "" {
			next.ServeHTTP(w, r)
			return
		}
		start := time.Now()
		o := &outcome{}
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(sw, r.WithContext(context.WithValue(r.Context(), outcomeKey{}, o)))
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
		m.operations.WithLabelValues(known(msg.Method, knownMethods), tool, errType, rpcCode,
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
