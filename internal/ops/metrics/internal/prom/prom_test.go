package prom

import (
	"math"
	"strings"
	"sync"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/internal/ops/metrics/internal/promtest"
)

// scrape fetches reg's page over real HTTP and parses it with Prometheus's
// own text parser, which fails on anything the format does not allow.
func scrape(t *testing.T, reg *Registry) (map[string]*dto.MetricFamily, string) {
	t.Helper()
	return promtest.Scrape(t, reg)
}

// labels maps a parsed metric's label pairs by name.
func labels(m *dto.Metric) map[string]string {
	out := map[string]string{}
	for _, l := range m.GetLabel() {
		out[l.GetName()] = l.GetValue()
	}
	return out
}

func TestEveryFamilyParsesWithItsType(t *testing.T) {
	var reg Registry
	calls := reg.NewCounterVec("calls_total", "Calls by tool.", "tool", "outcome")
	calls.With("search", "ok").Inc()
	calls.With("search", "ok").Inc()
	calls.With("get", "rate_limited").Inc()
	reg.NewCounterVec("reports_total", "Reports, no labels.")
	reg.NewCounterVec("unused_total", "Never counted.", "tool")
	reg.NewHistogramVec("took_seconds", "Durations.", []float64{0.1, 1}, "op").With("Search").Observe(0.5)
	reg.Func(func() []Family {
		return []Family{
			{Name: "temperature", Help: "A gauge.", Type: GaugeType, Samples: []Sample{{Value: -2.5}}},
			{Name: "pauses_seconds", Help: "A summary.", Type: SummaryType, Samples: []Sample{
				{Labels: []Label{{"quantile", "0.5"}}, Value: 0.001},
				{Suffix: "_sum", Value: 0.25},
				{Suffix: "_count", Value: 40},
			}},
		}
	})
	families, page := scrape(t, &reg)

	want := map[string]dto.MetricType{
		"calls_total": dto.MetricType_COUNTER, "reports_total": dto.MetricType_COUNTER,
		"took_seconds": dto.MetricType_HISTOGRAM, "temperature": dto.MetricType_GAUGE, "pauses_seconds": dto.MetricType_SUMMARY,
	}
	require.Len(t, families, len(want), "a family without series is left out: %v", page)
	for name, typ := range want {
		require.Contains(t, families, name)
		assert.Equal(t, typ, families[name].GetType(), name)
	}
	byTool := map[string]float64{}
	for _, m := range families["calls_total"].GetMetric() {
		l := labels(m)
		byTool[l["tool"]+"/"+l["outcome"]] = m.GetCounter().GetValue()
	}
	assert.Equal(t, map[string]float64{"search/ok": 2, "get/rate_limited": 1}, byTool)
	assert.Equal(t, 0.0, families["reports_total"].GetMetric()[0].GetCounter().GetValue(), "a counter without labels shows from the start")
	assert.Equal(t, -2.5, families["temperature"].GetMetric()[0].GetGauge().GetValue())
	s := families["pauses_seconds"].GetMetric()[0].GetSummary()
	assert.Equal(t, uint64(40), s.GetSampleCount())
	assert.Equal(t, 0.25, s.GetSampleSum())
	assert.Equal(t, 0.001, s.GetQuantile()[0].GetValue())
}

func TestHistogramBucketsAreCumulative(t *testing.T) {
	var reg Registry
	h := reg.NewHistogramVec("took_seconds", "Durations.", []float64{0.01, 0.1, 1, 300}, "op").With("Search")
	for _, v := range []float64{0.005, 0.01, 0.05, 0.1, 0.5, 2, 301, 1e9} { // 0.01 and 0.1 sit on a bound: le is inclusive
		h.Observe(v)
	}
	families, page := scrape(t, &reg)
	got := families["took_seconds"].GetMetric()[0].GetHistogram()
	var bounds []float64
	var counts []uint64
	for _, b := range got.GetBucket() {
		bounds = append(bounds, b.GetUpperBound())
		counts = append(counts, b.GetCumulativeCount())
	}
	assert.Equal(t, []float64{0.01, 0.1, 1, 300, math.Inf(1)}, bounds)
	assert.Equal(t, []uint64{2, 4, 5, 6, 8}, counts)
	assert.Equal(t, uint64(8), got.GetSampleCount(), "the count is the +Inf bucket")
	assert.InDelta(t, 0.005+0.01+0.05+0.1+0.5+2+301+1e9, got.GetSampleSum(), 1e-6)
	assert.Contains(t, page, `took_seconds_bucket{op="Search",le="300"} 6`+"\n")
	assert.Contains(t, page, `took_seconds_bucket{op="Search",le="+Inf"} 8`+"\n")
}

func TestLabelValuesAndHelpRoundTrip(t *testing.T) {
	odd := []string{`say "hi"`, `C:\path\`, "two\nlines", `\n is not a newline`, "", "ünïcode ✓"}
	help := `Help with a backslash \ and a` + "\nnewline."
	var reg Registry
	c := reg.NewCounterVec("odd_total", help, "v")
	for _, v := range odd {
		c.With(v).Inc()
	}
	families, _ := scrape(t, &reg)
	assert.Equal(t, help, families["odd_total"].GetHelp())
	var got []string
	for _, m := range families["odd_total"].GetMetric() {
		got = append(got, labels(m)["v"])
		assert.Equal(t, 1.0, m.GetCounter().GetValue())
	}
	assert.ElementsMatch(t, odd, got)
}

func TestConcurrentCountsSumExactly(t *testing.T) {
	var reg Registry
	c := reg.NewCounterVec("calls_total", "Calls.", "tool")
	h := reg.NewHistogramVec("took_seconds", "Durations.", []float64{1, 2}, "tool")
	const workers, each = 32, 500
	tools := []string{"a", "b", "c"}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				tool := tools[(w+i)%len(tools)]
				c.With(tool).Inc()
				h.With(tool).Observe(1.5) // exact in binary: the sum is exact too
			}
		})
	}
	wg.Go(func() { // scrapes while the counts move: the race detector watches
		for range 5 {
			scrape(t, &reg)
		}
	})
	wg.Wait()
	families, _ := scrape(t, &reg)
	var total float64
	for _, m := range families["calls_total"].GetMetric() {
		total += m.GetCounter().GetValue()
	}
	assert.Equal(t, float64(workers*each), total)
	var count uint64
	var sum float64
	for _, m := range families["took_seconds"].GetMetric() {
		count += m.GetHistogram().GetSampleCount()
		sum += m.GetHistogram().GetSampleSum()
	}
	assert.Equal(t, uint64(workers*each), count)
	assert.Equal(t, 1.5*workers*each, sum)
}

// The page lists families by name, labels by name and series by their
// label values, whatever order they were registered or first counted in.
func TestPageOrderIsDeterministic(t *testing.T) {
	page := func(order []string) string {
		var reg Registry
		z := reg.NewCounterVec("z_total", "Z.", "tool", "outcome")
		a := reg.NewCounterVec("a_total", "A.", "result")
		for _, v := range order {
			z.With(v, "ok").Inc()
			a.With(v).Inc()
		}
		_, p := scrape(t, &reg)
		return p
	}
	first := page([]string{"b", "c", "a"})
	assert.Equal(t, first, page([]string{"c", "a", "b"}))
	assert.Equal(t, `# HELP a_total A.
# TYPE a_total counter
a_total{result="a"} 1
a_total{result="b"} 1
a_total{result="c"} 1
# HELP z_total Z.
# TYPE z_total counter
z_total{outcome="ok",tool="a"} 1
z_total{outcome="ok",tool="b"} 1
z_total{outcome="ok",tool="c"} 1
`, first)
}

func TestAppendFloat(t *testing.T) {
	for v, want := range map[float64]string{
		0: "0", 1: "1", -1: "-1", 300: "300", 0.005: "0.005", 1.5e-7: "1.5e-07", 26632835: "26632835",
		1.7648304001e9: "1.7648304001e+09", 1e20: "1e+20", math.Inf(1): "+Inf", math.Inf(-1): "-Inf",
	} {
		assert.Equal(t, want, string(AppendFloat(nil, v)), "%v", v)
	}
	assert.Equal(t, "NaN", string(AppendFloat(nil, math.NaN())))
}

func TestMisuseIsRefusedAtOnce(t *testing.T) {
	var reg Registry
	c := reg.NewCounterVec("calls_total", "Calls.", "tool")
	for name, f := range map[string]func(){
		"too few values":   func() { c.With() },
		"too many values":  func() { c.With("a", "b") },
		"a name twice":     func() { reg.NewCounterVec("calls_total", "Again.") },
		"a bad name":       func() { reg.NewCounterVec("calls-total", "Dash.") },
		"le as a label":    func() { reg.NewHistogramVec("h", "H.", []float64{1}, "le") },
		"unsorted buckets": func() { reg.NewHistogramVec("h2", "H.", []float64{2, 1}) },
		"too many labels":  func() { reg.NewCounterVec("wide_total", "W.", strings.Fields("a b c d e f g h i")...) },
		"a label twice":    func() { reg.NewCounterVec("twice_total", "T.", "tool", "tool") },
	} {
		assert.Panics(t, f, name)
	}
}
