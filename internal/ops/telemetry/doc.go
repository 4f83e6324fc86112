// Package telemetry is the server's tracing: OpenTelemetry set up from the
// standard OTEL_* environment variables, one server span per MCP request
// (named and attributed as OpenTelemetry's MCP semantic conventions say),
// and the trace and span ids on the log records written inside one.
//
// Tracing is off unless an OTLP endpoint is set (OTEL_EXPORTER_OTLP_ENDPOINT
// or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT). Off, [New] returns a nil
// *Tracing: no provider, no exporter, no goroutine, and the transports'
// edges and the GraphQL client pay one nil check per request.
//
// What a span never carries: argument values, tokens, credentials. A server
// span names the method, the tool or prompt (only one this server serves:
// a client's unknown name is not a span name), the request id, the
// protocol version and the transport; the client span of a backend request
// (package graphql) names the operation, the HTTP status and AppSync's
// errorType.
//
// Export: OTLP over HTTP (protobuf), in batches (the SDK's batch span
// processor), by a small exporter of this package's that writes the
// protobuf bytes itself (otlphttp.go and otlpproto.go say why not the
// SDK's exporters: their start-up cost, tracing on or off); what is queued
// is flushed when the server stops, for at most ShutdownTimeout.
//
// Parents: the W3C trace context a client puts in params._meta
// (traceparent, tracestate, baggage), as the MCP conventions ask; on HTTP,
// else the request's traceparent header (and when both are there and
// differ, the header's context becomes a link).
package telemetry
