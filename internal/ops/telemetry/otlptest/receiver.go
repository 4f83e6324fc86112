// Package otlptest is a local OTLP/HTTP trace receiver for tests: an
// httptest server that decodes each export with the official OTLP protobuf
// types (go.opentelemetry.io/proto/otlp), as a collector would, and keeps
// the spans for the test to read. Tests wait on it, never sleep: WaitFor
// wakes at each export.
package otlptest

import (
	"compress/gzip"
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"

	collectorpb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// Span is one exported span, flattened for assertions.
type Span struct {
	Name                          string
	Kind                          tracepb.Span_SpanKind
	TraceID, SpanID, ParentSpanID string // hex, as in a traceparent
	// Attributes hold every attribute's value as text.
	Attributes map[string]string
	// Links are the linked spans' contexts as "traceid-spanid".
	Links []string
	// Events are the span's events, in order.
	Events []Event
	// Status is the span's status code; StatusMessage its description.
	Status        tracepb.Status_StatusCode
	StatusMessage string
	// Service is the resource's service.name.
	Service string
}

// Event is one span event, flattened like a span.
type Event struct {
	Name       string
	Attributes map[string]string
}

// Receiver is an OTLP/HTTP trace endpoint on a loopback port.
type Receiver struct {
	// URL is the base URL, as OTEL_EXPORTER_OTLP_ENDPOINT takes it; spans
	// are accepted at URL + "/v1/traces".
	URL string

	mu       sync.Mutex
	spans    []Span
	requests int
	header   http.Header   // the last export's
	changed  chan struct{} // closed and replaced at each export
}

// Start starts a receiver, stopped when the test ends.
func Start(t testing.TB) *Receiver {
	t.Helper()
	r := &Receiver{changed: make(chan struct{})}
	srv := httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(srv.Close)
	r.URL = srv.URL
	return r
}

func (r *Receiver) serve(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	r.requests++
	r.mu.Unlock()
	defer r.notify()
	if req.Method != http.MethodPost || req.URL.Path != "/v1/traces" {
		http.Error(w, "POST /v1/traces only", http.StatusNotFound)
		return
	}
	if ct := req.Header.Get("Content-Type"); ct != "application/x-protobuf" {
		http.Error(w, "unsupported content type "+ct, http.StatusUnsupportedMediaType)
		return
	}
	r.mu.Lock()
	r.header = req.Header.Clone()
	r.mu.Unlock()
	var in io.Reader = req.Body
	if req.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(req.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		in = zr
	}
	body, err := io.ReadAll(in)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var export collectorpb.ExportTraceServiceRequest
	if err := proto.Unmarshal(body, &export); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var got []Span
	for _, rs := range export.GetResourceSpans() {
		service := attrs(rs.GetResource().GetAttributes())["service.name"]
		for _, ss := range rs.GetScopeSpans() {
			for _, s := range ss.GetSpans() {
				got = append(got, flatten(s, service))
			}
		}
	}
	r.mu.Lock()
	r.spans = append(r.spans, got...)
	r.mu.Unlock()
	out, _ := proto.Marshal(&collectorpb.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = w.Write(out)
}

func (r *Receiver) notify() {
	r.mu.Lock()
	close(r.changed)
	r.changed = make(chan struct{})
	r.mu.Unlock()
}

// Spans returns every span received so far.
func (r *Receiver) Spans() []Span {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Span(nil), r.spans...)
}

// Header is the header of the last export received.
func (r *Receiver) Header() http.Header {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.header.Clone()
}

// Requests is how many requests reached the receiver, exports or not.
func (r *Receiver) Requests() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.requests
}

// WaitFor waits until cond holds for the spans received, checking after
// each request, or until ctx ends.
func (r *Receiver) WaitFor(ctx context.Context, cond func([]Span) bool) error {
	for {
		r.mu.Lock()
		spans, changed := append([]Span(nil), r.spans...), r.changed
		r.mu.Unlock()
		if cond(spans) {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("waiting for spans: %w (received %d)", ctx.Err(), len(spans))
		}
	}
}

// Find returns the spans named name.
func Find(spans []Span, name string) []Span {
	var out []Span
	for _, s := range spans {
		if s.Name == name {
			out = append(out, s)
		}
	}
	return out
}

func flatten(s *tracepb.Span, service string) Span {
	out := Span{
		Name:          s.GetName(),
		Kind:          s.GetKind(),
		TraceID:       hex.EncodeToString(s.GetTraceId()),
		SpanID:        hex.EncodeToString(s.GetSpanId()),
		ParentSpanID:  hex.EncodeToString(s.GetParentSpanId()),
		Attributes:    attrs(s.GetAttributes()),
		Status:        s.GetStatus().GetCode(),
		StatusMessage: s.GetStatus().GetMessage(),
		Service:       service,
	}
	for _, l := range s.GetLinks() {
		out.Links = append(out.Links, hex.EncodeToString(l.GetTraceId())+"-"+hex.EncodeToString(l.GetSpanId()))
	}
	for _, e := range s.GetEvents() {
		out.Events = append(out.Events, Event{Name: e.GetName(), Attributes: attrs(e.GetAttributes())})
	}
	return out
}

func attrs(kvs []*commonpb.KeyValue) map[string]string {
	m := make(map[string]string, len(kvs))
	for _, kv := range kvs {
		m[kv.GetKey()] = text(kv.GetValue())
	}
	return m
}

func text(v *commonpb.AnyValue) string {
	switch x := v.GetValue().(type) {
	case *commonpb.AnyValue_StringValue:
		return x.StringValue
	case *commonpb.AnyValue_IntValue:
		return strconv.FormatInt(x.IntValue, 10)
	case *commonpb.AnyValue_BoolValue:
		return strconv.FormatBool(x.BoolValue)
	case *commonpb.AnyValue_DoubleValue:
		return strconv.FormatFloat(x.DoubleValue, 'g', -1, 64)
	}
	return fmt.Sprint(v.GetValue())
}
