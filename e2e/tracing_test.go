package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"

	"github.com/companyintel/mcp-server/internal/ops/telemetry/otlptest"
)

// These tests point the binary's OTLP exporter at a local receiver
// (otlptest: the official OTLP protobuf types over HTTP) and follow one
// tools/call from the client's trace context to the request the embedded
// backend received. The server flushes its spans before it exits, so each
// test ends the server and then reads the receiver: nothing is waited for
// by time.

// A client's trace: the ids its own span would have.
const (
	clientTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
	clientSpan  = "00f067aa0ba902b7"
	// secretQuery is an argument value: no span may carry it.
	secretQuery = "quantum robotics zq7"
)

func traceparent(traceID, spanID string) string { return "00-" + traceID + "-" + spanID + "-01" }

// callSpans finds the server span of one tools/call search_companies in
// trace traceID and the client span of its GraphQL request, and checks what
// the MCP and GraphQL conventions ask of them. It returns both.
func callSpans(t *testing.T, spans []otlptest.Span, traceID, transport string) (server, client otlptest.Span) {
	t.Helper()
	for _, s := range otlptest.Find(spans, "tools/call search_companies") {
		if s.TraceID == traceID {
			server = s
		}
	}
	require.NotEmpty(t, server.SpanID, "no server span tools/call search_companies in trace %s among %d spans", traceID, len(spans))
	assert.Equal(t, tracepb.Span_SPAN_KIND_SERVER, server.Kind)
	assert.Equal(t, "tools/call", server.Attributes["mcp.method.name"])
	assert.Equal(t, "search_companies", server.Attributes["gen_ai.tool.name"])
	assert.Equal(t, "execute_tool", server.Attributes["gen_ai.operation.name"])
	assert.Equal(t, transport, server.Attributes["network.transport"])
	assert.NotEmpty(t, server.Attributes["jsonrpc.request.id"])
	assert.NotEmpty(t, server.Attributes["mcp.protocol.version"])
	assert.NotContains(t, server.Attributes, "error.type", "the call succeeded")
	assert.Equal(t, "mcp-e2e", server.Service, "OTEL_SERVICE_NAME names the service")

	for _, s := range otlptest.Find(spans, "query SearchCompanies") {
		if s.ParentSpanID == server.SpanID {
			client = s
		}
	}
	require.NotEmpty(t, client.SpanID, "no client span for the GraphQL request under the server span")
	assert.Equal(t, traceID, client.TraceID)
	assert.Equal(t, tracepb.Span_SPAN_KIND_CLIENT, client.Kind)
	assert.Equal(t, "SearchCompanies", client.Attributes["graphql.operation.name"])
	assert.Equal(t, "200", client.Attributes["http.response.status_code"])

	for _, s := range spans {
		for k, v := range s.Attributes {
			assert.NotContains(t, v, secretQuery, "span %q attribute %s carries an argument value", s.Name, k)
		}
	}
	return server, client
}

// backendReceived returns, by operation, the traceparent headers the
// embedded backend logged for the requests it served (its debug "request"
// lines, text logs).
func backendReceived(stderr string) map[string][]string {
	got := map[string][]string{}
	for _, line := range strings.Split(stderr, "\n") {
		if !strings.Contains(line, "msg=request ") || !strings.Contains(line, "component=embedded-backend") {
			continue
		}
		if tp := field(line, "traceparent"); tp != "" {
			got[field(line, "operation")] = append(got[field(line, "operation")], tp)
		}
	}
	return got
}

// auditIDs returns the trace_id and span_id of each tool call record for
// tool (text logs).
func auditIDs(stderr, tool string) [][2]string {
	var out [][2]string
	for _, line := range strings.Split(stderr, "\n") {
		if strings.Contains(line, `msg="tool call"`) && field(line, "tool") == tool {
			out = append(out, [2]string{field(line, "trace_id"), field(line, "span_id")})
		}
	}
	return out
}

// field reads key=value from a text log line (values here are unquoted).
func field(line, key string) string {
	m := regexp.MustCompile(`(?:^| )` + regexp.QuoteMeta(key) + `=(\S+)`).FindStringSubmatch(line)
	if m == nil {
		return ""
	}
	return m[1]
}

func searchCall(id int, meta map[string]any) map[string]any {
	params := map[string]any{"name": "search_companies", "arguments": map[string]any{"query": secretQuery, "limit": 3}}
	if meta != nil {
		params["_meta"] = meta
	}
	return map[string]any{"id": id, "method": "tools/call", "params": params}
}

func TestStdioCallIsTracedFromTheClientsContextToTheBackend(t *testing.T) {
	ctx := testContext(t)
	recv := otlptest.Start(t)
	r := startRawWith(t, ctx, []string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + recv.URL, "OTEL_SERVICE_NAME=mcp-e2e"}, "--log-level", "debug")
	r.initialize(t, ctx)
	r.send(t, searchCall(2, map[string]any{"traceparent": traceparent(clientTrace, clientSpan), "tracestate": "vendor=abc"}))
	res := r.response(t, ctx, 2)
	require.Nil(t, res.Error, "tools/call: %+v", res.Error)
	require.NoError(t, r.stdin.Close())
	require.Equal(t, 0, r.wait(t, ctx, "end of input"))
	stderr := r.stderr.String()
	assert.Contains(t, stderr, "tracing="+recv.URL+"/v1/traces", "the start-up line says where spans go")

	server, client := callSpans(t, recv.Spans(), clientTrace, "pipe")
	assert.Equal(t, clientSpan, server.ParentSpanID, "the server span's parent is the span in params._meta")
	assert.Equal(t, "2", server.Attributes["jsonrpc.request.id"])
	assert.Equal(t, "2025-11-25", server.Attributes["mcp.protocol.version"])

	assert.Equal(t, []string{traceparent(clientTrace, client.SpanID)}, backendReceived(stderr)["SearchCompanies"],
		"the backend received the client span's traceparent")
	assert.Equal(t, [][2]string{{clientTrace, server.SpanID}}, auditIDs(stderr, "search_companies"),
		"the call's record names its trace and server span")
}

// spanInTrace returns the one server span of trace traceID.
func spanInTrace(t *testing.T, spans []otlptest.Span, traceID string) otlptest.Span {
	t.Helper()
	var found []otlptest.Span
	for _, s := range spans {
		if s.TraceID == traceID && s.Kind == tracepb.Span_SPAN_KIND_SERVER {
			found = append(found, s)
		}
	}
	require.Len(t, found, 1, "server spans in trace %s", traceID)
	return found[0]
}

// TestStdioFailuresAreErrorSpans: a tool's failure (isError) and a
// JSON-RPC error each end their server span as an error, with error.type
// as the MCP conventions give it.
func TestStdioFailuresAreErrorSpans(t *testing.T) {
	ctx := testContext(t)
	recv := otlptest.Start(t)
	r := startRawWith(t, ctx, []string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + recv.URL})
	r.initialize(t, ctx)
	const toolErrorTrace, unknownTrace = "55555555555555555555555555555555", "66666666666666666666666666666666"
	bad := searchCall(2, map[string]any{"traceparent": traceparent(toolErrorTrace, clientSpan)})
	bad["params"].(map[string]any)["arguments"] = map[string]any{"query": secretQuery, "limit": 1000}
	r.send(t, bad)
	unknown := searchCall(3, map[string]any{"traceparent": traceparent(unknownTrace, clientSpan)})
	unknown["params"].(map[string]any)["name"] = "no_such_tool"
	r.send(t, unknown)
	require.Contains(t, string(r.response(t, ctx, 2).Result), `"isError":true`)
	require.NotNil(t, r.response(t, ctx, 3).Error)
	require.NoError(t, r.stdin.Close())
	require.Equal(t, 0, r.wait(t, ctx, "end of input"))

	spans := recv.Spans()
	failed := spanInTrace(t, spans, toolErrorTrace)
	assert.Equal(t, "tools/call search_companies", failed.Name)
	assert.Equal(t, "tool_error", failed.Attributes["error.type"])
	assert.Equal(t, "invalid_arguments", failed.Attributes["io.companyintel.error.class"])
	assert.Equal(t, tracepb.Status_STATUS_CODE_ERROR, failed.Status)
	assert.Empty(t, otlptest.Find(spans, "query SearchCompanies"), "refused before any backend call")

	refused := spanInTrace(t, spans, unknownTrace)
	assert.Equal(t, "tools/call", refused.Name)
	assert.NotContains(t, refused.Attributes, "gen_ai.tool.name")
	assert.Equal(t, "-32602", refused.Attributes["error.type"])
	assert.Equal(t, tracepb.Status_STATUS_CODE_ERROR, refused.Status)
}

func TestHTTPCallIsTracedFromMetaOrHeaderToTheBackend(t *testing.T) {
	ctx := testContext(t)
	recv := otlptest.Start(t)
	base, stderr, stop := startHTTPProcessWith(t, []string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=" + recv.URL + "/v1/traces", "OTEL_SERVICE_NAME=mcp-e2e"}, "--log-level", "debug")

	var postCall func(id int, tool string, meta map[string]any, header string) (int, string)
	const (
		metaTrace   = "11111111111111111111111111111111"
		metaSpan    = "1111111111111111"
		headerTrace = "22222222222222222222222222222222"
		headerSpan  = "2222222222222222"
	)
	// Both: _meta's context is the parent, the header's a link.
	post := func(id int, meta map[string]any, header string) {
		status, b := postCall(id, "search_companies", meta, header)
		require.Equal(t, http.StatusOK, status, "%s", b)
		require.Contains(t, b, `"result"`)
		require.NotContains(t, b, `"isError":true`)
	}
	postCall = func(id int, tool string, meta map[string]any, header string) (int, string) {
		body := searchCall(id, meta)
		body["params"].(map[string]any)["name"] = tool
		body["jsonrpc"] = "2.0"
		modern := map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28",
			"io.modelcontextprotocol/clientCapabilities": map[string]any{}, "io.modelcontextprotocol/clientInfo": map[string]any{"name": "e2e", "version": "1"}}
		for k, v := range meta {
			modern[k] = v
		}
		body["params"].(map[string]any)["_meta"] = modern
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/mcp", strings.NewReader(mustJSON(t, body)))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", tool)
		if header != "" {
			req.Header.Set("traceparent", header)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	post(7, map[string]any{"traceparent": traceparent(metaTrace, metaSpan)}, traceparent(headerTrace, headerSpan))
	const onlyHeaderTrace = "33333333333333333333333333333333"
	post(8, nil, traceparent(onlyHeaderTrace, headerSpan))
	const unknownToolTrace = "44444444444444444444444444444444"
	status, body := postCall(9, "no_such_tool", map[string]any{"traceparent": traceparent(unknownToolTrace, metaSpan)}, "")
	require.Contains(t, body, `"code":-32602`, "HTTP %d", status)
	stop() // SIGTERM: the server flushes its spans before it exits

	spans := recv.Spans()
	fromMeta, metaClient := callSpans(t, spans, metaTrace, "tcp")
	assert.Equal(t, metaSpan, fromMeta.ParentSpanID, "params._meta wins over the header")
	assert.Equal(t, []string{headerTrace + "-" + headerSpan}, fromMeta.Links, "the header's context is linked")
	assert.Equal(t, "7", fromMeta.Attributes["jsonrpc.request.id"])
	assert.Equal(t, "2026-07-28", fromMeta.Attributes["mcp.protocol.version"])

	fromHeader, headerClient := callSpans(t, spans, onlyHeaderTrace, "tcp")
	assert.Equal(t, headerSpan, fromHeader.ParentSpanID, "without _meta, the header's traceparent is the parent")

	refused := spanInTrace(t, spans, unknownToolTrace)
	assert.Equal(t, "tools/call", refused.Name, "a name the server does not serve is no span name")
	assert.Equal(t, "-32602", refused.Attributes["error.type"], "the JSON-RPC error the client got, through the HTTP edge")
	assert.Equal(t, tracepb.Status_STATUS_CODE_ERROR, refused.Status)

	logs := stderr.String()
	assert.ElementsMatch(t, []string{traceparent(metaTrace, metaClient.SpanID), traceparent(onlyHeaderTrace, headerClient.SpanID)},
		backendReceived(logs)["SearchCompanies"], "the backend received each client span's traceparent")
	assert.ElementsMatch(t, [][2]string{{metaTrace, fromMeta.SpanID}, {onlyHeaderTrace, fromHeader.SpanID}}, auditIDs(logs, "search_companies"))
}

// TestNoTracingConfiguredNothingIsExported: tracing stays off, and nothing
// reaches the receiver, unless a traces endpoint is set and tracing is not
// switched off. Each server gets a traced call and exits.
func TestNoTracingConfiguredNothingIsExported(t *testing.T) {
	cases := map[string]func(url string) []string{
		// Every OTEL variable but a traces endpoint: the endpoints of other
		// signals are not this server's.
		"no traces endpoint": func(url string) []string {
			return []string{"OTEL_SERVICE_NAME=mcp-e2e", "OTEL_TRACES_SAMPLER=always_on",
				"OTEL_EXPORTER_OTLP_METRICS_ENDPOINT=" + url + "/v1/traces", "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT=" + url + "/v1/traces"}
		},
		"OTEL_SDK_DISABLED": func(url string) []string {
			return []string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + url, "OTEL_SDK_DISABLED=true"}
		},
		"OTEL_TRACES_EXPORTER=none": func(url string) []string {
			return []string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + url, "OTEL_TRACES_EXPORTER=none"}
		},
	}
	for name, env := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := testContext(t)
			recv := otlptest.Start(t)
			r := startRawWith(t, ctx, env(recv.URL), "--log-level", "debug")
			r.initialize(t, ctx)
			r.send(t, searchCall(2, map[string]any{"traceparent": traceparent(clientTrace, clientSpan)}))
			require.Nil(t, r.response(t, ctx, 2).Error)
			require.NoError(t, r.stdin.Close())
			require.Equal(t, 0, r.wait(t, ctx, "end of input"))

			assert.Zero(t, recv.Requests(), "an export was attempted")
			stderr := r.stderr.String()
			assert.NotContains(t, stderr, "tracing=")
			assert.NotContains(t, stderr, "trace_id=")
			assert.Contains(t, stderr, "operation=SearchCompanies", "the backend's request log is on")
			assert.NotContains(t, stderr, "traceparent=", "no trace context was sent to the backend")
		})
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}
