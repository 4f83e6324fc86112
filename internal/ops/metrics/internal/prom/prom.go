// Package prom holds counters and histograms with fixed label names and
// writes them, with any families read at scrape time, in the Prometheus text
// exposition format 0.0.4.
//
// It replaces github.com/prometheus/client_golang, whose package
// initialisation (with procfs, client_model, common and the protobuf
// registry they pull in) cost about 4 ms on every start of the server, in
// stdio mode too, where /metrics is never served: Go runs the init of every
// linked package. This package has no init work and no dependencies beyond
// the standard library; it does only what the server's metrics need.
package prom

import (
	"cmp"
	"math"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
)

// Type is a family's metric type, as written on its # TYPE line.
type Type string

// The metric types the text format knows and this package writes.
const (
	CounterType   Type = "counter"
	GaugeType     Type = "gauge"
	HistogramType Type = "histogram"
	SummaryType   Type = "summary"
)

// Family is one metric family as it stands at a scrape.
type Family struct {
	Name, Help string
	Type       Type
	Samples    []Sample
}

// Sample is one line of a family: Suffix (e.g. "_bucket", "_sum") follows
// the family's name.
type Sample struct {
	Suffix string
	Labels []Label
	Value  float64
}

// Label is one label pair of a sample.
type Label struct{ Name, Value string }

// ContentType is the text exposition format's media type.
const ContentType = "text/plain; version=0.0.4; charset=utf-8"

// Registry holds the families one /metrics page shows.
type Registry struct {
	mu      sync.Mutex
	names   []string
	readers []func() []Family
}

// Func adds families read at each scrape (and only then: they cost nothing
// until scraped). read returns only the families it could read.
func (r *Registry) Func(read func() []Family) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.readers = append(r.readers, read)
}

// add registers a vector's family under its name, which must be new.
func (r *Registry) add(name string, labels []string, read func() []Family) {
	if !validName(name) || slices.ContainsFunc(labels, func(l string) bool { return !validName(l) || l == "le" }) {
		panic("prom: invalid metric or label name in " + name)
	}
	if len(slices.Compact(slices.Sorted(slices.Values(labels)))) != len(labels) {
		panic("prom: " + name + " names a label twice")
	}
	if len(labels) > maxLabels {
		panic("prom: " + name + " has more than " + strconv.Itoa(maxLabels) + " labels")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if slices.Contains(r.names, name) {
		panic("prom: " + name + " registered twice")
	}
	r.names = append(r.names, name)
	r.readers = append(r.readers, read)
}

// Gather reads every family, leaves out those without samples, and sorts
// them by name, so that each page lists them in the same order.
func (r *Registry) Gather() []Family {
	r.mu.Lock()
	readers := slices.Clone(r.readers)
	r.mu.Unlock()
	var out []Family
	for _, read := range readers {
		for _, f := range read() {
			if len(f.Samples) > 0 {
				out = append(out, f)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b Family) int { return cmp.Compare(a.Name, b.Name) })
	return out
}

// ServeHTTP writes the page in the text format.
func (r *Registry) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", ContentType)
	w.Write(AppendText(nil, r.Gather()))
}

// AppendText appends families to b in the text exposition format 0.0.4.
func AppendText(b []byte, families []Family) []byte {
	for _, f := range families {
		b = append(b, "# HELP "...)
		b = append(b, f.Name...)
		b = append(b, ' ')
		b = appendEscaped(b, f.Help, false)
		b = append(b, "\n# TYPE "...)
		b = append(b, f.Name...)
		b = append(b, ' ')
		b = append(b, f.Type...)
		b = append(b, '\n')
		for _, s := range f.Samples {
			b = append(b, f.Name...)
			b = append(b, s.Suffix...)
			for i, l := range s.Labels {
				if i == 0 {
					b = append(b, '{')
				} else {
					b = append(b, ',')
				}
				b = append(b, l.Name...)
				b = append(b, `="`...)
				b = appendEscaped(b, l.Value, true)
				b = append(b, '"')
			}
			if len(s.Labels) > 0 {
				b = append(b, '}')
			}
			b = append(b, ' ')
			b = AppendFloat(b, s.Value)
			b = append(b, '\n')
		}
	}
	return b
}

// AppendFloat appends v as the text format writes numbers: +Inf, -Inf and
// NaN by name, whole numbers in plain digits, others by strconv's shortest
// 'g' form.
func AppendFloat(b []byte, v float64) []byte {
	switch {
	case math.IsInf(v, 1):
		return append(b, "+Inf"...)
	case math.IsInf(v, -1):
		return append(b, "-Inf"...)
	case v == math.Trunc(v) && math.Abs(v) < 1e15:
		return strconv.AppendInt(b, int64(v), 10)
	}
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}

// appendEscaped escapes a backslash and a newline, and in a label value a
// double quote too.
func appendEscaped(b []byte, s string, quote bool) []byte {
	for i := range len(s) {
		switch c := s[i]; {
		case c == '\\':
			b = append(b, `\\`...)
		case c == '\n':
			b = append(b, `\n`...)
		case c == '"' && quote:
			b = append(b, `\"`...)
		default:
			b = append(b, c)
		}
	}
	return b
}

// validName is the text format's rule for metric and label names (without
// the colons only recording rules use).
func validName(s string) bool {
	for i := range len(s) {
		c := s[i]
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return s != ""
}

// maxLabels bounds a family's label names, so that a series' label values
// fit a fixed array: a map key that costs no allocation per lookup.
const maxLabels = 8

type key [maxLabels]string

// vec is the series of one family, one per distinct tuple of label values,
// each created on first use.
type vec[S any] struct {
	labels []string
	order  []int // label indexes by name: the order they are written in
	mu     sync.RWMutex
	series map[key]*S
	fresh  func() *S // a new series
}

func newVec[S any](labels []string, fresh func() *S) *vec[S] {
	order := make([]int, len(labels))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(labels[a], labels[b]) })
	return &vec[S]{labels: labels, order: order, series: map[key]*S{}, fresh: fresh}
}

// with returns the series for values, creating it on first use.
func (v *vec[S]) with(values []string) *S {
	if len(values) != len(v.labels) {
		panic("prom: " + strconv.Itoa(len(values)) + " label values for " + strconv.Itoa(len(v.labels)) + " labels")
	}
	var k key
	copy(k[:], values)
	v.mu.RLock()
	s, ok := v.series[k]
	v.mu.RUnlock()
	if ok {
		return s
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if s, ok = v.series[k]; !ok {
		s = v.fresh()
		v.series[k] = s
	}
	return s
}

// each calls f with every series and its labels in name order, the series
// sorted by those label values.
func (v *vec[S]) each(f func(labels []Label, s *S)) {
	type entry struct {
		labels []Label
		s      *S
	}
	v.mu.RLock()
	all := make([]entry, 0, len(v.series))
	for k, s := range v.series {
		labels := make([]Label, len(v.order))
		for i, j := range v.order {
			labels[i] = Label{v.labels[j], k[j]}
		}
		all = append(all, entry{labels, s})
	}
	v.mu.RUnlock()
	slices.SortFunc(all, func(a, b entry) int {
		return slices.CompareFunc(a.labels, b.labels, func(x, y Label) int { return cmp.Compare(x.Value, y.Value) })
	})
	for _, e := range all {
		f(e.labels, e.s)
	}
}

// Counter is one counter series; safe for concurrent use.
type Counter struct{ n atomic.Uint64 }

// Inc adds one.
func (c *Counter) Inc() { c.n.Add(1) }

// CounterVec is a counter family with fixed label names.
type CounterVec struct{ v *vec[Counter] }

// NewCounterVec registers a counter family. Without label names its one
// series exists from the start, so that the page shows it at 0.
func (r *Registry) NewCounterVec(name, help string, labels ...string) *CounterVec {
	c := &CounterVec{newVec(labels, func() *Counter { return &Counter{} })}
	if len(labels) == 0 {
		c.With()
	}
	r.add(name, labels, func() []Family {
		f := Family{Name: name, Help: help, Type: CounterType}
		c.v.each(func(labels []Label, s *Counter) {
			f.Samples = append(f.Samples, Sample{Labels: labels, Value: float64(s.n.Load())})
		})
		return []Family{f}
	})
	return c
}

// With returns the series for the label values, in the order the labels
// were named.
func (c *CounterVec) With(values ...string) *Counter { return c.v.with(values) }

// Histogram is one histogram series; safe for concurrent use.
type Histogram struct {
	bounds []float64
	counts []atomic.Uint64 // per bucket, not cumulative; the last is +Inf
	sum    atomic.Uint64   // float64 bits
}

// Observe records one value.
func (h *Histogram) Observe(v float64) {
	i, _ := slices.BinarySearch(h.bounds, v) // the first bound >= v: le is inclusive
	h.counts[i].Add(1)
	for {
		old := h.sum.Load()
		if h.sum.CompareAndSwap(old, math.Float64bits(math.Float64frombits(old)+v)) {
			return
		}
	}
}

// HistogramVec is a histogram family with fixed label names and buckets.
type HistogramVec struct{ v *vec[Histogram] }

// NewHistogramVec registers a histogram family; buckets are the upper
// bounds, ascending, without +Inf (always added).
func (r *Registry) NewHistogramVec(name, help string, buckets []float64, labels ...string) *HistogramVec {
	if !slices.IsSorted(buckets) || slices.ContainsFunc(buckets, func(b float64) bool { return math.IsInf(b, 0) || math.IsNaN(b) }) {
		panic("prom: " + name + "'s buckets are not finite and ascending")
	}
	bounds := slices.Clone(buckets)
	h := &HistogramVec{newVec(labels, func() *Histogram {
		return &Histogram{bounds: bounds, counts: make([]atomic.Uint64, len(bounds)+1)}
	})}
	r.add(name, labels, func() []Family {
		f := Family{Name: name, Help: help, Type: HistogramType}
		h.v.each(func(labels []Label, s *Histogram) {
			// The count is the last cumulative bucket, read from the same
			// loads, so that a page never shows a count its buckets miss.
			var total uint64
			for i := range s.counts {
				total += s.counts[i].Load()
				le := math.Inf(1)
				if i < len(bounds) {
					le = bounds[i]
				}
				f.Samples = append(f.Samples, Sample{Suffix: "_bucket",
					Labels: append(slices.Clip(labels), Label{"le", string(AppendFloat(nil, le))}), Value: float64(total)})
			}
			f.Samples = append(f.Samples,
				Sample{Suffix: "_sum", Labels: labels, Value: math.Float64frombits(s.sum.Load())},
				Sample{Suffix: "_count", Labels: labels, Value: float64(total)})
		})
		return []Family{f}
	})
	return h
}

// With returns the series for the label values, in the order the labels
// were named.
func (h *HistogramVec) With(values ...string) *Histogram { return h.v.with(values) }
