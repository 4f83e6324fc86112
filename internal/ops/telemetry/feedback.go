package telemetry

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
)

// MissingCapabilityEvent is the span event of a report_missing_capability
// call (--feedback-tool), on its request's server span.
const MissingCapabilityEvent = "io.companyintel.missing_capability"

// TriedCountKey is the event's one attribute: how many tools the model
// said it tried. What it wanted and which tools are argument values, which
// no span carries: the call's log record, with the same trace_id, has them.
const TriedCountKey = "io.companyintel.feedback.tried_count"

// ObserveMissingCapability adds MissingCapabilityEvent to the span in ctx.
func (t *Tracing) ObserveMissingCapability(ctx context.Context, tried int) {
	span := trace.SpanFromContext(ctx)
	if !span.IsRecording() {
		return
	}
	span.AddEvent(MissingCapabilityEvent, trace.WithAttributes(attribute.Int(TriedCountKey, tried)))
}
