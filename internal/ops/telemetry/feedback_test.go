package telemetry

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A report is one event on the span in its context, with the number of
// tools tried and no argument values; without a recording span it is
// nothing.
func TestMissingCapabilityIsASpanEvent(t *testing.T) {
	tr, rec := recording(t)
	ctx, span := tr.Tracer().Start(context.Background(), "tools/call report_missing_capability")
	tr.ObserveMissingCapability(ctx, 2)
	span.End()
	tr.ObserveMissingCapability(context.Background(), 1) // no span: no effect, no panic

	ended := rec.Ended()
	require.Len(t, ended, 1)
	events := ended[0].Events()
	require.Len(t, events, 1)
	assert.Equal(t, MissingCapabilityEvent, events[0].Name)
	require.Len(t, events[0].Attributes, 1)
	assert.Equal(t, TriedCountKey, string(events[0].Attributes[0].Key))
	assert.EqualValues(t, 2, events[0].Attributes[0].Value.AsInt64())
}
