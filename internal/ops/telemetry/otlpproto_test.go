package telemetry

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkinstr "go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	collectorpb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	resourcepb "go.opentelemetry.io/proto/otlp/resource/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// decode reads what appendTraceRequest wrote with the official generated
// types, as a collector would.
func decode(t *testing.T, spans []sdktrace.ReadOnlySpan) *collectorpb.ExportTraceServiceRequest {
	t.Helper()
	var req collectorpb.ExportTraceServiceRequest
	require.NoError(t, proto.Unmarshal(appendTraceRequest(nil, spans), &req))
	return &req
}

// equalProto asserts two messages are equal, showing both when not.
func equalProto(t *testing.T, want, got proto.Message, what string) {
	t.Helper()
	assert.True(t, proto.Equal(want, got), "%s:\nwant %s\n got %s", what,
		prototext.Format(want), prototext.Format(got))
}

// AnyValue builders for the expectations.
func str(s string) *commonpb.AnyValue {
	return &commonpb.AnyValue{Value: &commonpb.AnyValue_StringValue{StringValue: s}}
}
func boolean(b bool) *commonpb.AnyValue {
	return &commonpb.AnyValue{Value: &commonpb.AnyValue_BoolValue{BoolValue: b}}
}
func integer(i int64) *commonpb.AnyValue {
	return &commonpb.AnyValue{Value: &commonpb.AnyValue_IntValue{IntValue: i}}
}
func double(f float64) *commonpb.AnyValue {
	return &commonpb.AnyValue{Value: &commonpb.AnyValue_DoubleValue{DoubleValue: f}}
}
func array(vs ...*commonpb.AnyValue) *commonpb.AnyValue {
	return &commonpb.AnyValue{Value: &commonpb.AnyValue_ArrayValue{ArrayValue: &commonpb.ArrayValue{Values: vs}}}
}
func kv(k string, v *commonpb.AnyValue) *commonpb.KeyValue {
	return &commonpb.KeyValue{Key: k, Value: v}
}

func TestEveryFieldOfASpanDecodesWithTheOfficialTypes(t *testing.T) {
	tid := trace.TraceID{0x4b, 0xf9, 0x2f, 0x35, 0x77, 0xb3, 0x4d, 0xa6, 0xa3, 0xce, 0x92, 0x9d, 0x0e, 0x0e, 0x47, 0x36}
	sid := trace.SpanID{1, 2, 3, 4, 5, 6, 7, 8}
	psid := trace.SpanID{8, 7, 6, 5, 4, 3, 2, 1}
	ltid := trace.TraceID{0xaa, 15: 0xbb}
	lsid := trace.SpanID{0xcc, 7: 0xdd}
	state, err := trace.ParseTraceState("vendor=opaque,other=x")
	require.NoError(t, err)
	linkState, err := trace.ParseTraceState("linked=1")
	require.NoError(t, err)
	start := time.Date(2026, 12, 1, 23, 0, 0, 123456789, time.UTC)
	// Long enough that its KeyValue, the span and every message around it
	// need lengths of three bytes.
	long := strings.Repeat("x", 20000)

	res := resource.NewWithAttributes("https://opentelemetry.io/schemas/1.26.0",
		attribute.String("service.name", "svc"), attribute.Int64("process.pid", 42))
	scope := sdkinstr.Scope{Name: "github.com/example/scope", Version: "v1.2.3",
		SchemaURL: "https://opentelemetry.io/schemas/1.27.0", Attributes: attribute.NewSet(attribute.Bool("scope.flag", true))}

	full := tracetest.SpanStub{
		Name: "tools/call search_companies",
		SpanContext: trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid,
			TraceFlags: trace.FlagsSampled, TraceState: state}),
		Parent:    trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: psid, TraceFlags: trace.FlagsSampled, Remote: true}),
		SpanKind:  trace.SpanKindServer,
		StartTime: start,
		EndTime:   start.Add(1500 * time.Microsecond),
		Attributes: []attribute.KeyValue{
			attribute.String("s", "text"),
			attribute.String("empty", ""),
			attribute.Bool("t", true),
			attribute.Bool("f", false),
			attribute.Int64("i", -7),
			attribute.Int64("zero", 0),
			attribute.Float64("d", 2.5),
			attribute.StringSlice("ss", []string{"a", ""}),
			attribute.BoolSlice("bs", []bool{true, false}),
			attribute.Int64Slice("is", []int64{1, -1, 1 << 40}),
			attribute.Float64Slice("ds", []float64{0.5, -3}),
			attribute.ByteSlice("bytes", []byte{0, 1, 2}),
			attribute.Slice("mixed", attribute.StringValue("m"), attribute.Int64Value(3)),
			attribute.Map("map", attribute.Bool("k1", true), attribute.String("k2", "v")),
			attribute.String("long", long),
		},
		Events: []sdktrace.Event{
			{Name: "exception", Time: start.Add(time.Millisecond), DroppedAttributeCount: 3,
				Attributes: []attribute.KeyValue{attribute.String("exception.message", "boom")}},
			{Name: "bare", Time: start.Add(2 * time.Millisecond)},
		},
		Links: []sdktrace.Link{
			{SpanContext: trace.NewSpanContext(trace.SpanContextConfig{TraceID: ltid, SpanID: lsid,
				TraceFlags: trace.FlagsSampled, TraceState: linkState, Remote: true}),
				Attributes: []attribute.KeyValue{attribute.String("link.why", "header")}, DroppedAttributeCount: 2},
			{SpanContext: trace.NewSpanContext(trace.SpanContextConfig{TraceID: ltid, SpanID: sid})},
		},
		Status:               sdktrace.Status{Code: codes.Error, Description: "the backend refused"},
		DroppedAttributes:    4,
		DroppedEvents:        5,
		DroppedLinks:         6,
		Resource:             res,
		InstrumentationScope: scope,
	}
	req := decode(t, []sdktrace.ReadOnlySpan{full.Snapshot()})

	want := &collectorpb.ExportTraceServiceRequest{ResourceSpans: []*tracepb.ResourceSpans{{
		Resource: &resourcepb.Resource{Attributes: []*commonpb.KeyValue{
			kv("process.pid", integer(42)), kv("service.name", str("svc")), // a set: sorted by key
		}},
		SchemaUrl: "https://opentelemetry.io/schemas/1.26.0",
		ScopeSpans: []*tracepb.ScopeSpans{{
			Scope: &commonpb.InstrumentationScope{Name: "github.com/example/scope", Version: "v1.2.3",
				Attributes: []*commonpb.KeyValue{kv("scope.flag", boolean(true))}},
			SchemaUrl: "https://opentelemetry.io/schemas/1.27.0",
			Spans: []*tracepb.Span{{
				TraceId:           tid[:],
				SpanId:            sid[:],
				TraceState:        "vendor=opaque,other=x",
				ParentSpanId:      psid[:],
				Flags:             0x01 | 0x100 | 0x200, // sampled; whether the parent is remote is known; it is
				Name:              "tools/call search_companies",
				Kind:              tracepb.Span_SPAN_KIND_SERVER,
				StartTimeUnixNano: uint64(start.UnixNano()),
				EndTimeUnixNano:   uint64(start.Add(1500 * time.Microsecond).UnixNano()),
				Attributes: []*commonpb.KeyValue{
					kv("s", str("text")),
					kv("empty", str("")),
					kv("t", boolean(true)),
					kv("f", boolean(false)),
					kv("i", integer(-7)),
					kv("zero", integer(0)),
					kv("d", double(2.5)),
					kv("ss", array(str("a"), str(""))),
					kv("bs", array(boolean(true), boolean(false))),
					kv("is", array(integer(1), integer(-1), integer(1<<40))),
					kv("ds", array(double(0.5), double(-3))),
					kv("bytes", &commonpb.AnyValue{Value: &commonpb.AnyValue_BytesValue{BytesValue: []byte{0, 1, 2}}}),
					kv("mixed", array(str("m"), integer(3))),
					kv("map", &commonpb.AnyValue{Value: &commonpb.AnyValue_KvlistValue{KvlistValue: &commonpb.KeyValueList{
						Values: []*commonpb.KeyValue{kv("k1", boolean(true)), kv("k2", str("v"))}}}}),
					kv("long", str(long)),
				},
				DroppedAttributesCount: 4,
				Events: []*tracepb.Span_Event{
					{Name: "exception", TimeUnixNano: uint64(start.Add(time.Millisecond).UnixNano()),
						Attributes: []*commonpb.KeyValue{kv("exception.message", str("boom"))}, DroppedAttributesCount: 3},
					{Name: "bare", TimeUnixNano: uint64(start.Add(2 * time.Millisecond).UnixNano())},
				},
				DroppedEventsCount: 5,
				Links: []*tracepb.Span_Link{
					{TraceId: ltid[:], SpanId: lsid[:], TraceState: "linked=1",
						Attributes: []*commonpb.KeyValue{kv("link.why", str("header"))}, DroppedAttributesCount: 2,
						Flags: 0x01 | 0x100 | 0x200},
					{TraceId: ltid[:], SpanId: sid[:], Flags: 0x100}, // not sampled, local
				},
				DroppedLinksCount: 6,
				Status:            &tracepb.Status{Code: tracepb.Status_STATUS_CODE_ERROR, Message: "the backend refused"},
			}},
		}},
	}}}
	equalProto(t, want, req, "the export request")
}

// TestSpansAreGroupedByResourceAndScope: one ResourceSpans per resource,
// one ScopeSpans per scope within it, in the order the batch names them;
// a root span has no parent id, its flags say the parent is not remote,
// and a span of no scope has no scope message.
func TestSpansAreGroupedByResourceAndScope(t *testing.T) {
	resA := resource.NewSchemaless(attribute.String("service.name", "a"))
	resB := resource.NewSchemaless(attribute.String("service.name", "b"))
	scope1, scope2 := sdkinstr.Scope{Name: "one"}, sdkinstr.Scope{Name: "two", Version: "v2"}
	span := func(name string, res *resource.Resource, scope sdkinstr.Scope) sdktrace.ReadOnlySpan {
		sc := trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{1}, SpanID: trace.SpanID{byte(len(name))}})
		return tracetest.SpanStub{Name: name, SpanContext: sc, SpanKind: trace.SpanKindClient,
			Resource: res, InstrumentationScope: scope}.Snapshot()
	}
	req := decode(t, []sdktrace.ReadOnlySpan{
		span("a1", resA, scope1), span("b11", resB, scope1), span("a2", resA, scope2),
		span("a1b", resA, scope1), span("b0", resB, sdkinstr.Scope{}),
	})

	type group struct {
		service, scope string
		spans          []string
	}
	var got []group
	for _, rs := range req.GetResourceSpans() {
		for _, ss := range rs.GetScopeSpans() {
			g := group{service: rs.GetResource().GetAttributes()[0].GetValue().GetStringValue(), scope: ss.GetScope().GetName()}
			if ss.Scope == nil {
				g.scope = "(none)"
			}
			for _, s := range ss.GetSpans() {
				g.spans = append(g.spans, s.GetName())
				assert.Empty(t, s.GetParentSpanId(), "a root span has no parent id")
				assert.Equal(t, uint32(0x100), s.GetFlags(), "not sampled; the parent's remoteness is known: there is none")
				assert.Equal(t, tracepb.Span_SPAN_KIND_CLIENT, s.GetKind())
				assert.Equal(t, tracepb.Status_STATUS_CODE_UNSET, s.GetStatus().GetCode())
			}
			got = append(got, g)
		}
	}
	assert.Equal(t, []group{
		{"a", "one", []string{"a1", "a1b"}},
		{"a", "two", []string{"a2"}},
		{"b", "one", []string{"b11"}},
		{"b", "(none)", []string{"b0"}},
	}, got)
	assert.Equal(t, "v2", req.GetResourceSpans()[0].GetScopeSpans()[1].GetScope().GetVersion())
	assert.Empty(t, appendTraceRequest(nil, nil), "no spans, no bytes")
}

// TestSpansOfTheRealSDKDecode: spans as the SDK's tracer records them
// (limits dropping attributes, a local parent, a status set, an event),
// handed synchronously to the encoder, decode to what the spans hold.
func TestSpansOfTheRealSDKDecode(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(
		sdktrace.WithSpanProcessor(rec),
		sdktrace.WithRawSpanLimits(sdktrace.SpanLimits{AttributeCountLimit: 2, EventCountLimit: 1,
			LinkCountLimit: -1, AttributeValueLengthLimit: -1, AttributePerEventCountLimit: -1, AttributePerLinkCountLimit: -1}),
		sdktrace.WithResource(resource.NewSchemaless(attribute.String("service.name", "real"))),
	)
	tracer := tp.Tracer(instrumentation, trace.WithInstrumentationVersion("v0.0.1"))
	ctx, parent := tracer.Start(context.Background(), "parent", trace.WithSpanKind(trace.SpanKindServer))
	_, child := tracer.Start(ctx, "child", trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attribute.Int("a", 1), attribute.Int("b", 2), attribute.Int("c", 3)))
	child.AddEvent("first", trace.WithAttributes(attribute.Float64("x", 1.5)))
	child.AddEvent("second")
	child.SetStatus(codes.Ok, "")
	child.End()
	parent.End()
	require.NoError(t, tp.Shutdown(context.Background()))

	ended := rec.Ended()
	require.Len(t, ended, 2)
	req := decode(t, ended)
	require.Len(t, req.GetResourceSpans(), 1)
	require.Len(t, req.GetResourceSpans()[0].GetScopeSpans(), 1)
	ss := req.GetResourceSpans()[0].GetScopeSpans()[0]
	assert.Equal(t, instrumentation, ss.GetScope().GetName())
	assert.Equal(t, "v0.0.1", ss.GetScope().GetVersion())
	require.Len(t, ss.GetSpans(), 2)

	for i, got := range ss.GetSpans() {
		s := ended[i]
		tid, sid, psid := s.SpanContext().TraceID(), s.SpanContext().SpanID(), s.Parent().SpanID()
		assert.Equal(t, s.Name(), got.GetName())
		assert.Equal(t, tid[:], got.GetTraceId())
		assert.Equal(t, sid[:], got.GetSpanId())
		if s.Parent().IsValid() {
			assert.Equal(t, psid[:], got.GetParentSpanId())
		} else {
			assert.Empty(t, got.GetParentSpanId())
		}
		assert.Equal(t, uint64(s.StartTime().UnixNano()), got.GetStartTimeUnixNano())
		assert.Equal(t, uint64(s.EndTime().UnixNano()), got.GetEndTimeUnixNano())
		assert.Equal(t, uint32(0x101), got.GetFlags(), "sampled, parent local or none")
		assert.Len(t, got.GetAttributes(), len(s.Attributes()))
		assert.Equal(t, uint32(s.DroppedAttributes()), got.GetDroppedAttributesCount())
		assert.Equal(t, uint32(s.DroppedEvents()), got.GetDroppedEventsCount())
	}
	child0 := ss.GetSpans()[0]
	assert.Equal(t, "child", child0.GetName())
	assert.Equal(t, tracepb.Span_SPAN_KIND_CLIENT, child0.GetKind())
	assert.Equal(t, uint32(1), child0.GetDroppedAttributesCount(), "the limit kept two of three")
	assert.Equal(t, uint32(1), child0.GetDroppedEventsCount(), "the limit kept one event of two")
	require.Len(t, child0.GetEvents(), 1)
	equalProto(t, &tracepb.Span_Event{Name: "second", TimeUnixNano: uint64(ended[0].Events()[0].Time.UnixNano())},
		child0.GetEvents()[0], "the event kept (the SDK keeps the latest)")
	assert.Equal(t, tracepb.Status_STATUS_CODE_OK, child0.GetStatus().GetCode())
	assert.Equal(t, tracepb.Span_SPAN_KIND_SERVER, ss.GetSpans()[1].GetKind())
}

// TestFieldLengthsAtVarintBoundaries: a field's length takes one byte up
// to 127, then two, three, four; protobuf's own reader finds the tag, the
// body and nothing after it at each size.
func TestFieldLengthsAtVarintBoundaries(t *testing.T) {
	for _, n := range []int{0, 1, 127, 128, 16383, 16384, 2097151, 2097152} {
		for _, num := range []int{1, 15, 16, 2047} { // one- and two-byte tags
			body := bytes.Repeat([]byte{0xa5}, n)
			b := []byte{0xff} // something before the field, left alone
			b = openField(b, num)
			b = append(b, body...)
			b = closeField(b, 1)
			gotNum, typ, tagLen := protowire.ConsumeTag(b[1:])
			require.Positive(t, tagLen, "n=%d num=%d", n, num)
			got, bodyLen := protowire.ConsumeBytes(b[1+tagLen:])
			require.Positive(t, bodyLen, "n=%d num=%d", n, num)
			assert.Equal(t, protowire.Number(num), gotNum)
			assert.Equal(t, protowire.BytesType, typ)
			assert.True(t, bytes.Equal(body, got), "n=%d num=%d: the body moved intact", n, num)
			assert.Equal(t, len(b), 1+tagLen+bodyLen, "n=%d num=%d: nothing after the field", n, num)
			assert.Equal(t, byte(0xff), b[0])
		}
	}
}

// serverSpans are n spans as the server records them: a server span's
// attributes, a remote parent, an OK status.
func serverSpans(n int) []sdktrace.ReadOnlySpan {
	res := resource.NewSchemaless(attribute.String("service.name", "mcp-server"), attribute.String("service.version", "v1.0.0"),
		attribute.String("telemetry.sdk.language", "go"), attribute.String("telemetry.sdk.name", "opentelemetry"))
	start := time.Date(2026, 12, 1, 23, 0, 0, 0, time.UTC)
	spans := make([]sdktrace.ReadOnlySpan, n)
	for i := range spans {
		spans[i] = tracetest.SpanStub{
			Name:        "tools/call search_companies",
			SpanContext: trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{1, 2, 3}, SpanID: trace.SpanID{byte(i), 1}, TraceFlags: trace.FlagsSampled}),
			Parent:      trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{1, 2, 3}, SpanID: trace.SpanID{9}, Remote: true}),
			SpanKind:    trace.SpanKindServer,
			StartTime:   start, EndTime: start.Add(time.Millisecond),
			Attributes: []attribute.KeyValue{
				attribute.String("mcp.method.name", "tools/call"), attribute.String("network.transport", "pipe"),
				attribute.String("jsonrpc.request.id", "1234"), attribute.String("mcp.protocol.version", "2025-11-25"),
				attribute.String("gen_ai.tool.name", "search_companies"), attribute.String("gen_ai.operation.name", "execute_tool"),
			},
			Status:               sdktrace.Status{Code: codes.Ok},
			Resource:             res,
			InstrumentationScope: sdkinstr.Scope{Name: instrumentation},
		}.Snapshot()
	}
	return spans
}

// BenchmarkEncodeSpans is the encoding of one batch of server spans, per
// span: what an export costs besides the HTTP request.
func BenchmarkEncodeSpans(b *testing.B) {
	spans := serverSpans(128)
	b.ReportAllocs()
	for b.Loop() {
		_ = appendTraceRequest(make([]byte, 0, 512*len(spans)), spans)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(spans)), "ns/span")
}
