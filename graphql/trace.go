package graphql

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/Khan/genqlient/graphql"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// SetTracer makes every request to the backend a client span of t, child of
// the span in the call's context (the MCP request's), and sends its W3C
// traceparent with the request so that the trace continues in the backend
// (AppSync, X-Ray). Without it (the default) nothing is traced. Call it
// before the client is used.
//
// Only the trace context is sent, not baggage: baggage is whatever the MCP
// client put there, and nothing of the client's passes through to the
// backend.
func (c *Client) SetTracer(t trace.Tracer) { c.tracer = t }

// operationType is "mutation" or "query", for the span's name.
func operationType(req *graphql.Request) string {
	if m := mutationDef().FindStringSubmatch(req.Query); m != nil {
		return m[1]
	}
	return "query"
}

// startSpan starts the client span of one attempt and puts its trace
// context in hreq's header, before the transport below signs the request
// (SigV4 signs the headers it is given). The span is named as the GraphQL
// conventions name operations, "query SearchCompanies"; it carries the
// operation, never its variables.
func (c *Client) startSpan(hreq *http.Request, op, kind string, n int) trace.Span {
	attrs := []attribute.KeyValue{
		attribute.String("graphql.operation.name", op),
		attribute.String("graphql.operation.type", kind),
		attribute.String("http.request.method", http.MethodPost),
		attribute.String("server.address", hreq.URL.Hostname()),
	}
	if p, err := strconv.Atoi(hreq.URL.Port()); err == nil {
		attrs = append(attrs, attribute.Int("server.port", p))
	}
	if n > 1 {
		attrs = append(attrs, attribute.Int("http.request.resend_count", n-1))
	}
	ctx, span := c.tracer.Start(hreq.Context(), kind+" "+op, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
	propagation.TraceContext{}.Inject(ctx, propagation.HeaderCarrier(hreq.Header))
	return span
}

// AppSyncErrorTypeKey is the span attribute holding the errorType AppSync
// answered with (the first error's, or the x-amzn-ErrorType header's).
const AppSyncErrorTypeKey = "aws.appsync.error_type"

// endSpan records an attempt's outcome and ends its span: the HTTP status,
// and on failure error.type (AppSync's errorType, else the status, else
// what went wrong below HTTP) with the status Error.
func endSpan(span trace.Span, status int, err error) {
	if status != 0 {
		span.SetAttributes(attribute.Int("http.response.status_code", status))
	}
	var e *Error
	if errors.As(err, &e) {
		errType := appSyncErrorType(e)
		if errType != "" {
			span.SetAttributes(attribute.String(AppSyncErrorTypeKey, errType))
		}
		switch {
		case errType != "":
		case status >= 400:
			errType = strconv.Itoa(status)
		case e.Kind == KindTimeout:
			errType = "timeout"
		default:
			errType = e.Kind.String()
		}
		span.SetAttributes(attribute.String("error.type", errType))
		span.SetStatus(codes.Error, e.Kind.String())
	} else if err != nil {
		span.SetAttributes(attribute.String("error.type", "_OTHER"))
		span.SetStatus(codes.Error, "")
	}
	span.End()
}

// appSyncErrorType is the first errorType in the answer, else the
// x-amzn-ErrorType header's.
func appSyncErrorType(e *Error) string {
	for _, ge := range e.Errors {
		if ge.ErrorType != "" {
			return ge.ErrorType
		}
	}
	return e.HeaderErrorType
}
