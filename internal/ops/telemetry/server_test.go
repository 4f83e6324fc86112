package telemetry

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// recording returns a Tracing whose spans are kept in memory.
func recording(t *testing.T) (*Tracing, *tracetest.SpanRecorder) {
	t.Helper()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	tr := newTracing("memory", tp)
	tr.SetTargets("search_companies", "company_brief")
	return tr, rec
}

func attrs(s sdktrace.ReadOnlySpan) map[string]string {
	m := map[string]string{}
	for _, kv := range s.Attributes() {
		m[string(kv.Key)] = kv.Value.String()
	}
	return m
}

// serve starts and finishes one request's span and returns it.
func serve(t *testing.T, tr *Tracing, rec *tracetest.SpanRecorder, r Request, o Outcome) sdktrace.ReadOnlySpan {
	t.Helper()
	_, span := tr.StartServer(context.Background(), r)
	Finish(span, o)
	ended := rec.Ended()
	require.NotEmpty(t, ended)
	return ended[len(ended)-1]
}

const (
	metaParent   = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	headerParent = "00-22222222222222222222222222222222-2222222222222222-01"
)

func TestServerSpansAreNamedAndAttributedAsTheMCPConventionsSay(t *testing.T) {
	tr, rec := recording(t)
	s := serve(t, tr, rec, Request{
		Method: "tools/call", ID: "req-7", Transport: Pipe, ProtocolVersion: "2025-11-25",
		Params: json.RawMessage(`{"name":"search_companies","arguments":{"query":"s3cr3t"},"_meta":{"traceparent":"` + metaParent + `","tracestate":"v=1"}}`),
	}, Outcome{})
	assert.Equal(t, "tools/call search_companies", s.Name())
	assert.Equal(t, trace.SpanKindServer, s.SpanKind())
	assert.Equal(t, map[string]string{
		"mcp.method.name": "tools/call", "gen_ai.tool.name": "search_companies", "gen_ai.operation.name": "execute_tool",
		"jsonrpc.request.id": "req-7", "mcp.protocol.version": "2025-11-25", "network.transport": "pipe",
	}, attrs(s), "no argument value, nothing else")
	assert.Equal(t, "4bf92f3577b34da6a3ce929d0e0e4736", s.Parent().TraceID().String())
	assert.Equal(t, "00f067aa0ba902b7", s.Parent().SpanID().String())
	assert.True(t, s.Parent().IsRemote())
	assert.Equal(t, "v=1", s.SpanContext().TraceState().String(), "tracestate is carried on")
	assert.Equal(t, codes.Unset, s.Status().Code)
}

func TestAnUnknownToolNameIsNotASpanName(t *testing.T) {
	tr, rec := recording(t)
	s := serve(t, tr, rec, Request{Method: "tools/call", ID: "1", Transport: TCP,
		Params: json.RawMessage(`{"name":"drop_tables_` + "x" + `"}`)}, Outcome{Code: -32602, Message: "unknown tool"})
	assert.Equal(t, "tools/call", s.Name())
	assert.NotContains(t, attrs(s), "gen_ai.tool.name")
	assert.Equal(t, "-32602", attrs(s)["error.type"])
	assert.Equal(t, "-32602", attrs(s)["rpc.response.status_code"])
	assert.Equal(t, codes.Error, s.Status().Code)
	assert.Equal(t, "unknown tool", s.Status().Description)
}

func TestPromptsResourcesAndVersions(t *testing.T) {
	tr, rec := recording(t)
	s := serve(t, tr, rec, Request{Method: "prompts/get", ID: "2", Transport: Pipe,
		Params: json.RawMessage(`{"name":"company_brief","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`), ProtocolVersion: "2025-11-25"}, Outcome{})
	assert.Equal(t, "prompts/get company_brief", s.Name())
	assert.Equal(t, "company_brief", attrs(s)["gen_ai.prompt.name"])
	assert.Equal(t, "2026-07-28", attrs(s)["mcp.protocol.version"], "the request's own _meta wins")

	s = serve(t, tr, rec, Request{Method: "resources/read", ID: "3", Transport: Pipe,
		Params: json.RawMessage(`{"uri":"companies://server/status"}`)}, Outcome{})
	assert.Equal(t, "resources/read", s.Name(), "a URI is no span name")
	assert.Equal(t, "companies://server/status", attrs(s)["mcp.resource.uri"])

	s = serve(t, tr, rec, Request{Method: "initialize", ID: "4", Transport: Pipe,
		Params: json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}`)}, Outcome{})
	assert.Equal(t, "initialize", s.Name())
	assert.Equal(t, "2025-11-25", attrs(s)["mcp.protocol.version"])
}

func TestOnHTTPTheHeaderIsTheParentOnlyWithoutMeta(t *testing.T) {
	tr, rec := recording(t)
	h := http.Header{}
	h.Set("traceparent", headerParent)

	s := serve(t, tr, rec, Request{Method: "tools/call", ID: "1", Transport: TCP, Header: h,
		Params: json.RawMessage(`{"name":"search_companies","_meta":{"traceparent":"` + metaParent + `"}}`)}, Outcome{})
	assert.Equal(t, "4bf92f3577b34da6a3ce929d0e0e4736", s.Parent().TraceID().String(), "_meta wins")
	require.Len(t, s.Links(), 1)
	assert.Equal(t, "22222222222222222222222222222222", s.Links()[0].SpanContext.TraceID().String(), "the header's context is linked")

	s = serve(t, tr, rec, Request{Method: "tools/call", ID: "2", Transport: TCP, Header: h,
		Params: json.RawMessage(`{"name":"search_companies"}`)}, Outcome{})
	assert.Equal(t, "22222222222222222222222222222222", s.Parent().TraceID().String())
	assert.Empty(t, s.Links())

	s = serve(t, tr, rec, Request{Method: "ping", ID: "3", Transport: TCP, Header: http.Header{}}, Outcome{})
	assert.False(t, s.Parent().IsValid(), "no context anywhere: a new trace")
}

func TestATransportRefusalAndAToolFailureAreErrors(t *testing.T) {
	tr, rec := recording(t)
	s := serve(t, tr, rec, Request{Method: "tools/call", ID: "1", Transport: TCP}, Outcome{HTTPStatus: http.StatusNotAcceptable})
	assert.Equal(t, "406", attrs(s)["error.type"])
	assert.Equal(t, codes.Error, s.Status().Code)

	ctx, span := tr.StartServer(context.Background(), Request{Method: "tools/call", ID: "2", Transport: Pipe,
		Params: json.RawMessage(`{"name":"search_companies"}`)})
	tr.ObserveCall(ctx, "search_companies", "backend_timeout", 0)
	Finish(span, Outcome{})
	s = rec.Ended()[len(rec.Ended())-1]
	assert.Equal(t, "tool_error", attrs(s)["error.type"], "the MCP conventions' value for isError")
	assert.Equal(t, "backend_timeout", attrs(s)[ErrorClassKey])
	assert.Equal(t, codes.Error, s.Status().Code)
	assert.Equal(t, "backend_timeout", s.Status().Description)

	ctx, span = tr.StartServer(context.Background(), Request{Method: "tools/call", ID: "3", Transport: Pipe})
	tr.ObserveCall(ctx, "search_companies", "ok", 0)
	Finish(span, Outcome{})
	s = rec.Ended()[len(rec.Ended())-1]
	assert.NotContains(t, attrs(s), "error.type")
	assert.Equal(t, codes.Unset, s.Status().Code)
}

func TestRecordsInsideASpanCarryItsIDs(t *testing.T) {
	tr, _ := recording(t)
	var buf bytes.Buffer
	logger := slog.New(LogHandler(slog.NewJSONHandler(&buf, nil))).With("component", "test")

	logger.InfoContext(context.Background(), "outside")
	ctx, span := tr.StartServer(context.Background(), Request{Method: "tools/call", ID: "1", Transport: Pipe})
	logger.InfoContext(ctx, "inside", slog.Attr{Key: "k", Value: slog.StringValue("v")})
	Finish(span, Outcome{})

	lines := bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n"))
	require.Len(t, lines, 2)
	var outside, inside map[string]any
	require.NoError(t, json.Unmarshal(lines[0], &outside))
	require.NoError(t, json.Unmarshal(lines[1], &inside))
	assert.NotContains(t, outside, "trace_id")
	assert.Equal(t, span.SpanContext().TraceID().String(), inside["trace_id"])
	assert.Equal(t, span.SpanContext().SpanID().String(), inside["span_id"])
	assert.Equal(t, "test", inside["component"], "the handler's own attributes are kept")
}
