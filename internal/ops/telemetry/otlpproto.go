package telemetry

import (
	"encoding/binary"
	"math"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkinstr "go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// This file writes an OTLP ExportTraceServiceRequest straight from the
// SDK's spans, in the protobuf wire format, with the standard library
// alone. Why not the SDK's otlptrace exporter: it converts spans into the
// generated types of go.opentelemetry.io/proto/otlp, and those packages
// register their descriptors in protobuf's global registry when the
// program starts: 0.8 ms of every start, tracing on or off
// (GODEBUG=inittrace=1; 1.9 ms with the init of the protobuf runtime under
// them, which goes too when nothing else links it), for the one job of
// turning a batch into bytes. Nor protobuf's protowire package: under it
// is internal/detrand, whose init reads the executable (0.25 ms of every
// start), and the wire format needs only the few helpers at the end of
// this file. The field numbers are those of opentelemetry-proto:
// collector/trace/v1/trace_service.proto, trace/v1/trace.proto,
// common/v1/common.proto and resource/v1/resource.proto. The tests decode
// what this writes with the official generated types.

// Span flags (trace.proto's SpanFlags): the low byte is the W3C trace
// flags; these two say whether the parent (or linked) context is remote.
const (
	flagHasIsRemote = 0x100
	flagIsRemote    = 0x200
)

// appendTraceRequest appends the ExportTraceServiceRequest of spans to b:
// one ResourceSpans per resource, and in it one ScopeSpans per
// instrumentation scope, in the order the batch first names each.
func appendTraceRequest(b []byte, spans []sdktrace.ReadOnlySpan) []byte {
	type scopeGroup struct {
		scope sdkinstr.Scope
		spans []sdktrace.ReadOnlySpan
	}
	type resourceGroup struct {
		res    *resource.Resource
		key    attribute.Distinct
		schema string
		scopes []scopeGroup
	}
	// A batch holds one resource and a scope or two: a linear search is
	// all the grouping needs.
	var groups []resourceGroup
	for _, s := range spans {
		if s == nil {
			continue
		}
		r := s.Resource()
		key, schema := r.Equivalent(), r.SchemaURL()
		i := 0
		for i < len(groups) && (groups[i].key != key || groups[i].schema != schema) {
			i++
		}
		if i == len(groups) {
			groups = append(groups, resourceGroup{res: r, key: key, schema: schema})
		}
		g, scope := &groups[i], s.InstrumentationScope()
		j := 0
		for j < len(g.scopes) && g.scopes[j].scope != scope {
			j++
		}
		if j == len(g.scopes) {
			g.scopes = append(g.scopes, scopeGroup{scope: scope})
		}
		g.scopes[j].spans = append(g.scopes[j].spans, s)
	}
	for _, g := range groups {
		rs := len(b)
		b = openField(b, 1) // ExportTraceServiceRequest.resource_spans
		if g.res != nil {
			m := len(b)
			b = openField(b, 1) // ResourceSpans.resource
			b = appendAttributes(b, 1, g.res.Iter())
			b = closeField(b, m)
		}
		for _, sg := range g.scopes {
			ss := len(b)
			b = openField(b, 2) // ResourceSpans.scope_spans
			if sg.scope != (sdkinstr.Scope{}) {
				m := len(b)
				b = openField(b, 1) // ScopeSpans.scope
				b = appendString(b, 1, sg.scope.Name)
				b = appendString(b, 2, sg.scope.Version)
				b = appendAttributes(b, 3, sg.scope.Attributes.Iter())
				b = closeField(b, m)
			}
			for _, s := range sg.spans {
				m := len(b)
				b = openField(b, 2) // ScopeSpans.spans
				b = appendSpan(b, s)
				b = closeField(b, m)
			}
			b = appendString(b, 3, sg.scope.SchemaURL)
			b = closeField(b, ss)
		}
		b = appendString(b, 3, g.schema)
		b = closeField(b, rs)
	}
	return b
}

// appendSpan appends the fields of one Span message.
func appendSpan(b []byte, s sdktrace.ReadOnlySpan) []byte {
	sc, parent := s.SpanContext(), s.Parent()
	tid, sid := sc.TraceID(), sc.SpanID()
	b = appendBytes(b, 1, tid[:])
	b = appendBytes(b, 2, sid[:])
	b = appendString(b, 3, sc.TraceState().String())
	if psid := parent.SpanID(); psid.IsValid() {
		b = appendBytes(b, 4, psid[:])
	}
	b = appendString(b, 5, s.Name())
	b = appendVarint(b, 6, uint64(spanKind(s.SpanKind())))
	b = appendTime(b, 7, s.StartTime().UnixNano())
	b = appendTime(b, 8, s.EndTime().UnixNano())
	b = appendKeyValues(b, 9, s.Attributes())
	b = appendVarint(b, 10, count(s.DroppedAttributes()))
	for _, e := range s.Events() {
		m := len(b)
		b = openField(b, 11) // Span.events
		b = appendTime(b, 1, e.Time.UnixNano())
		b = appendString(b, 2, e.Name)
		b = appendKeyValues(b, 3, e.Attributes)
		b = appendVarint(b, 4, count(e.DroppedAttributeCount))
		b = closeField(b, m)
	}
	b = appendVarint(b, 12, count(s.DroppedEvents()))
	for _, l := range s.Links() {
		ltid, lsid := l.SpanContext.TraceID(), l.SpanContext.SpanID()
		m := len(b)
		b = openField(b, 13) // Span.links
		b = appendBytes(b, 1, ltid[:])
		b = appendBytes(b, 2, lsid[:])
		b = appendString(b, 3, l.SpanContext.TraceState().String())
		b = appendKeyValues(b, 4, l.Attributes)
		b = appendVarint(b, 5, count(l.DroppedAttributeCount))
		b = appendFlags(b, 6, l.SpanContext.TraceFlags(), l.SpanContext)
		b = closeField(b, m)
	}
	b = appendVarint(b, 14, count(s.DroppedLinks()))
	m := len(b)
	b = openField(b, 15) // Span.status, always there as the SDK's exporter sends it
	b = appendString(b, 2, s.Status().Description)
	b = appendVarint(b, 3, uint64(statusCode(s.Status().Code)))
	b = closeField(b, m)
	return appendFlags(b, 16, sc.TraceFlags(), parent)
}

// spanKind is trace.proto's SpanKind number of k.
func spanKind(k trace.SpanKind) int {
	switch k {
	case trace.SpanKindInternal:
		return 1
	case trace.SpanKindServer:
		return 2
	case trace.SpanKindClient:
		return 3
	case trace.SpanKindProducer:
		return 4
	case trace.SpanKindConsumer:
		return 5
	}
	return 0 // SPAN_KIND_UNSPECIFIED
}

// statusCode is trace.proto's Status.StatusCode number of c.
func statusCode(c codes.Code) int {
	switch c {
	case codes.Ok:
		return 1
	case codes.Error:
		return 2
	}
	return 0 // STATUS_CODE_UNSET
}

// appendFlags appends a span's or a link's flags: the W3C trace flags,
// and whether the context is remote (always known here).
func appendFlags(b []byte, num int, tf trace.TraceFlags, sc trace.SpanContext) []byte {
	flags := uint32(tf) | flagHasIsRemote
	if sc.IsRemote() {
		flags |= flagIsRemote
	}
	b = appendTag(b, num, wireFixed32)
	return binary.LittleEndian.AppendUint32(b, flags)
}

// appendKeyValues appends each attribute as a KeyValue in field num.
func appendKeyValues(b []byte, num int, kvs []attribute.KeyValue) []byte {
	for _, kv := range kvs {
		b = appendKeyValue(b, num, kv)
	}
	return b
}

// appendAttributes is appendKeyValues for a set's attributes.
func appendAttributes(b []byte, num int, it attribute.Iterator) []byte {
	for it.Next() {
		b = appendKeyValue(b, num, it.Attribute())
	}
	return b
}

// appendKeyValue appends one common.proto KeyValue in field num.
func appendKeyValue(b []byte, num int, kv attribute.KeyValue) []byte {
	m := len(b)
	b = openField(b, num)
	b = appendString(b, 1, string(kv.Key))
	b = appendAnyValue(b, 2, kv.Value)
	return closeField(b, m)
}

// appendAnyValue appends v as an AnyValue in field num. The AnyValue's
// value is a oneof: its member is written even when zero ("", false, 0),
// since which member is there is part of the value. Slices become an
// ArrayValue, maps a KeyValueList, as the SDK's exporter sends them.
func appendAnyValue(b []byte, num int, v attribute.Value) []byte {
	m := len(b)
	b = openField(b, num)
	switch v.Type() {
	case attribute.STRING:
		b = appendTag(b, 1, wireBytes)
		b = appendLen(b, v.AsString())
	case attribute.BOOL:
		b = appendTag(b, 2, wireVarint)
		b = append(b, boolByte(v.AsBool()))
	case attribute.INT64:
		b = appendTag(b, 3, wireVarint)
		b = binary.AppendUvarint(b, uint64(v.AsInt64())) // int64: two's complement, 10 bytes when negative
	case attribute.FLOAT64:
		b = appendDouble(b, 4, v.AsFloat64())
	case attribute.BYTESLICE:
		b = appendTag(b, 7, wireBytes)
		b = appendLen(b, v.AsByteSlice())
	case attribute.STRINGSLICE, attribute.BOOLSLICE, attribute.INT64SLICE, attribute.FLOAT64SLICE, attribute.SLICE:
		a := len(b)
		b = openField(b, 5) // AnyValue.array_value
		b = appendArray(b, v)
		b = closeField(b, a)
	case attribute.MAP:
		kl := len(b)
		b = openField(b, 6) // AnyValue.kvlist_value
		b = appendKeyValues(b, 1, v.AsMap())
		b = closeField(b, kl)
	case attribute.EMPTY:
		// An empty AnyValue.
	default:
		b = appendTag(b, 1, wireBytes)
		b = appendLen(b, "INVALID") // as the SDK's exporter says it
	}
	return closeField(b, m)
}

// appendArray appends the values of a slice as ArrayValue.values (field 1).
func appendArray(b []byte, v attribute.Value) []byte {
	switch v.Type() {
	case attribute.STRINGSLICE:
		for _, s := range v.AsStringSlice() {
			b = appendAnyValue(b, 1, attribute.StringValue(s))
		}
	case attribute.BOOLSLICE:
		for _, x := range v.AsBoolSlice() {
			b = appendAnyValue(b, 1, attribute.BoolValue(x))
		}
	case attribute.INT64SLICE:
		for _, x := range v.AsInt64Slice() {
			b = appendAnyValue(b, 1, attribute.Int64Value(x))
		}
	case attribute.FLOAT64SLICE:
		for _, x := range v.AsFloat64Slice() {
			b = appendAnyValue(b, 1, attribute.Float64Value(x))
		}
	case attribute.SLICE:
		for _, x := range v.AsSlice() {
			b = appendAnyValue(b, 1, x)
		}
	}
	return b
}

// The wire types of the protobuf encoding used here.
const (
	wireVarint  = 0
	wireFixed64 = 1
	wireBytes   = 2 // length-delimited: strings, bytes, messages
	wireFixed32 = 5
)

// appendTag appends a field's key: its number and wire type, as a varint
// (binary.AppendUvarint writes protobuf's base-128 varints).
func appendTag(b []byte, num, typ int) []byte {
	return binary.AppendUvarint(b, uint64(num)<<3|uint64(typ))
}

// appendLen appends a length-delimited value.
func appendLen[T string | []byte](b []byte, v T) []byte {
	b = binary.AppendUvarint(b, uint64(len(v)))
	return append(b, v...)
}

// boolByte is a bool's varint.
func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// openField starts the length-delimited field num at the end of b,
// leaving one byte for its length (a message under 128 bytes, the common
// case, needs no more); closeField(b, len(b) before openField) ends it.
func openField(b []byte, num int) []byte {
	return append(appendTag(b, num, wireBytes), 0)
}

// closeField writes the length of the field opened at start, moving its
// body along when the length takes more than the one byte left for it.
func closeField(b []byte, start int) []byte {
	at := start
	for b[at] >= 0x80 { // the tag's varint
		at++
	}
	at++ // the byte left for the length
	n := uint64(len(b) - at - 1)
	var length [binary.MaxVarintLen64]byte
	size := len(binary.AppendUvarint(length[:0], n))
	if size > 1 {
		b = append(b, length[1:size]...) // room: the body moves size-1 bytes along
		copy(b[at+size:], b[at+1:at+1+int(n)])
	}
	copy(b[at:], length[:size])
	return b
}

// appendString appends a string field, omitted when empty (proto3).
func appendString(b []byte, num int, s string) []byte {
	if s == "" {
		return b
	}
	b = appendTag(b, num, wireBytes)
	return appendLen(b, s)
}

// appendBytes appends a bytes field.
func appendBytes(b []byte, num int, v []byte) []byte {
	b = appendTag(b, num, wireBytes)
	return appendLen(b, v)
}

// appendVarint appends a varint field, omitted when zero (proto3).
func appendVarint(b []byte, num int, v uint64) []byte {
	if v == 0 {
		return b
	}
	b = appendTag(b, num, wireVarint)
	return binary.AppendUvarint(b, v)
}

// appendTime appends a fixed64 *_time_unix_nano field; a time before 1970
// is sent as 0, as the SDK's exporter does.
func appendTime(b []byte, num int, ns int64) []byte {
	if ns <= 0 {
		return b
	}
	b = appendTag(b, num, wireFixed64)
	return binary.LittleEndian.AppendUint64(b, uint64(ns))
}

// appendDouble appends a double field.
func appendDouble(b []byte, num int, f float64) []byte {
	b = appendTag(b, num, wireFixed64)
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(f))
}

// count is a dropped-items count as the uint32 OTLP holds.
func count(n int) uint64 {
	if n <= 0 {
		return 0
	}
	return min(uint64(n), math.MaxUint32)
}
