package metrics

import (
	"context"
	"runtime"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/internal/ops/metrics/internal/promtest"
)

// scrape fetches m's page over real HTTP and parses it with Prometheus's
// own text parser.
func scrape(t *testing.T, m *Metrics) map[string]*dto.MetricFamily {
	t.Helper()
	families, _ := promtest.Scrape(t, m.Handler())
	return families
}

func value(f *dto.MetricFamily) float64 {
	m := f.GetMetric()[0]
	if f.GetType() == dto.MetricType_COUNTER {
		return m.GetCounter().GetValue()
	}
	return m.GetGauge().GetValue()
}

// The go_ families keep the names and types of client_golang's Go
// collector, which dashboards were built on.
func TestGoFamiliesKeepClientGolangNamesAndTypes(t *testing.T) {
	families := scrape(t, New(nil))
	want := map[string]dto.MetricType{
		"go_goroutines":                 dto.MetricType_GAUGE,
		"go_threads":                    dto.MetricType_GAUGE,
		"go_info":                       dto.MetricType_GAUGE,
		"go_memstats_heap_alloc_bytes":  dto.MetricType_GAUGE,
		"go_memstats_alloc_bytes_total": dto.MetricType_COUNTER,
		"go_memstats_sys_bytes":         dto.MetricType_GAUGE,
		"go_gc_duration_seconds":        dto.MetricType_SUMMARY,
	}
	for name, typ := range want {
		require.Contains(t, families, name)
		assert.Equal(t, typ, families[name].GetType(), name)
	}
	assert.GreaterOrEqual(t, value(families["go_goroutines"]), 2.0, "the test's and the server's")
	assert.Positive(t, value(families["go_threads"]))
	assert.Equal(t, runtime.Version(), families["go_info"].GetMetric()[0].GetLabel()[0].GetValue())
	assert.Positive(t, value(families["go_memstats_heap_alloc_bytes"]))
	assert.GreaterOrEqual(t, value(families["go_memstats_alloc_bytes_total"]), value(families["go_memstats_heap_alloc_bytes"]))
	gc := families["go_gc_duration_seconds"].GetMetric()[0].GetSummary()
	assert.Len(t, gc.GetQuantile(), 5, "min, quartiles, max")
}

// The server's own families, counted through the methods app wires in.
func TestCountsShowOnThePage(t *testing.T) {
	m := New([]string{"get_company"})
	ctx := context.Background()
	m.ObserveCall(ctx, "get_company", "ok", time.Millisecond)
	m.ObserveCall(ctx, "get_company", "rate_limited", time.Millisecond)
	m.ObserveCall(ctx, "no_such_tool", "invalid_arguments", time.Millisecond)
	m.OnExchange("ok")
	m.OnCacheLookup(true)
	m.OnCacheLookup(false)
	m.CountMissingCapability()
	families := scrape(t, m)
	calls := map[string]float64{}
	for _, s := range families["companyintel_tool_calls_total"].GetMetric() {
		calls[s.GetLabel()[0].GetValue()+"/"+s.GetLabel()[1].GetValue()] = s.GetCounter().GetValue()
	}
	assert.Equal(t, map[string]float64{"get_company/ok": 1, "get_company/rate_limited": 1, "_OTHER/invalid_arguments": 1}, calls)
	assert.Equal(t, 1.0, value(families["companyintel_rate_limit_refusals_total"]))
	assert.Equal(t, 1.0, value(families["companyintel_token_exchanges_total"]))
	assert.Len(t, families["companyintel_token_cache_lookups_total"].GetMetric(), 2)
	assert.Equal(t, 1.0, value(families["companyintel_missing_capability_reports_total"]))
}
