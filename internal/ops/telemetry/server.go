package telemetry

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"time"
	"unicode/utf8"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// Transports, as network.transport names them: stdio is a pipe, Streamable
// HTTP runs on TCP.
const (
	Pipe = "pipe"
	TCP  = "tcp"
)

// Request is one MCP request as a transport's edge read it.
type Request struct {
	// Method is the JSON-RPC method, e.g. tools/call.
	Method string
	// ID is the request's id as text: a string's value, an integer's
	// digits.
	ID string
	// Params is the params member as sent (nil when absent).
	Params json.RawMessage
	// Transport is Pipe or TCP.
	Transport string
	// ProtocolVersion is the MCP revision the transport knows the request
	// to speak (negotiated on stdio, the MCP-Protocol-Version header on
	// HTTP); a version in params._meta wins over it.
	ProtocolVersion string
	// Header is the HTTP request's header on HTTP: its traceparent is the
	// parent when params._meta carries none.
	Header http.Header
}

// params is what a server span reads from a request's params: names and
// the trace context, never the arguments.
type params struct {
	Name            string `json:"name"`
	URI             string `json:"uri"`
	ProtocolVersion string `json:"protocolVersion"` // initialize's
	Meta            struct {
		Traceparent     string `json:"traceparent"`
		Tracestate      string `json:"tracestate"`
		Baggage         string `json:"baggage"`
		ProtocolVersion string `json:"io.modelcontextprotocol/protocolVersion"`
	} `json:"_meta"`
}

// maxURI bounds the resource URI recorded on a span.
const maxURI = 256

// StartServer starts the server span of one MCP request, named
// "{mcp.method.name} {target}" (tools/call search_companies), as a child of
// the trace context the request carries. The returned context holds the
// span: serve the request in it, and end the span with Finish.
func (t *Tracing) StartServer(ctx context.Context, r Request) (context.Context, trace.Span) {
	var p params
	if len(r.Params) > 0 {
		_ = json.Unmarshal(r.Params, &p) // best effort: the edge has checked the frame
	}
	attrs := make([]attribute.KeyValue, 0, 8)
	attrs = append(attrs,
		attribute.String("mcp.method.name", r.Method),
		attribute.String("network.transport", r.Transport),
	)
	if r.ID != "" {
		attrs = append(attrs, attribute.String("jsonrpc.request.id", r.ID))
	}
	version := p.Meta.ProtocolVersion
	if version == "" {
		version = r.ProtocolVersion
	}
	if version == "" && r.Method == "initialize" {
		version = p.ProtocolVersion
	}
	if version != "" {
		attrs = append(attrs, attribute.String("mcp.protocol.version", version))
	}
	name := r.Method
	switch r.Method {
	case "tools/call":
		attrs = append(attrs, attribute.String("gen_ai.operation.name", "execute_tool"))
		if t.targets[p.Name] {
			name += " " + p.Name
			attrs = append(attrs, attribute.String("gen_ai.tool.name", p.Name))
		}
	case "prompts/get":
		if t.targets[p.Name] {
			name += " " + p.Name
			attrs = append(attrs, attribute.String("gen_ai.prompt.name", p.Name))
		}
	case "resources/read", "resources/subscribe", "resources/unsubscribe":
		if p.URI != "" && len(p.URI) <= maxURI && utf8.ValidString(p.URI) {
			attrs = append(attrs, attribute.String("mcp.resource.uri", p.URI))
		}
	}

	opts := []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(attrs...)}
	parent := ctx
	if p.Meta.Traceparent != "" {
		parent = t.propagator.Extract(ctx, propagation.MapCarrier{
			"traceparent": p.Meta.Traceparent, "tracestate": p.Meta.Tracestate, "baggage": p.Meta.Baggage,
		})
	}
	if r.Header != nil {
		ambient := t.propagator.Extract(ctx, propagation.HeaderCarrier(r.Header))
		switch sc := trace.SpanContextFromContext(ambient); {
		case !trace.SpanContextFromContext(parent).IsValid():
			parent = ambient
		case sc.IsValid() && sc.TraceID() != trace.SpanContextFromContext(parent).TraceID():
			// The MCP conventions: _meta's context is the parent, the
			// transport's is linked.
			opts = append(opts, trace.WithLinks(trace.Link{SpanContext: sc}))
		}
	}
	return t.tracer.Start(parent, name, opts...)
}

// Outcome is how a request ended, as its transport saw it.
type Outcome struct {
	// Code is the JSON-RPC error code of the answer; 0 for a result.
	Code int
	// Message is the JSON-RPC error's message.
	Message string
	// HTTPStatus is the status of an HTTP answer that carried no JSON-RPC
	// message (the transport refused the request); 0 otherwise.
	HTTPStatus int
}

// Finish ends a server span with the request's outcome. A JSON-RPC error
// sets error.type and rpc.response.status_code to its code and the status
// to Error with its message, as the MCP conventions say; a tool's failure
// inside a result was recorded by ObserveCall.
func Finish(span trace.Span, o Outcome) {
	switch {
	case o.Code != 0:
		code := strconv.Itoa(o.Code)
		span.SetAttributes(attribute.String("error.type", code), attribute.String("rpc.response.status_code", code))
		span.SetStatus(codes.Error, o.Message)
	case o.HTTPStatus >= 400:
		span.SetAttributes(attribute.String("error.type", strconv.Itoa(o.HTTPStatus)))
		span.SetStatus(codes.Error, http.StatusText(o.HTTPStatus))
	}
	span.End()
}

// ErrorClassKey is the attribute that carries a failed tool call's class
// (invalid_arguments, backend_timeout, …): error.type is the conventions'
// "tool_error" for every one of them.
const ErrorClassKey = "io.companyintel.error.class"

// ObserveCall records a tool call's outcome ("ok" or its error class) on
// the request's server span: a failed call is an isError result, which
// JSON-RPC sees as a success. It has the signature of the tool pipeline's
// Observe hook.
func (t *Tracing) ObserveCall(ctx context.Context, _, outcome string, _ time.Duration) {
	if outcome == "ok" {
		return
	}
	span := trace.SpanFromContext(ctx)
	if !span.IsRecording() {
		return
	}
	span.SetAttributes(attribute.String("error.type", "tool_error"), attribute.String(ErrorClassKey, outcome))
	span.SetStatus(codes.Error, outcome)
}
