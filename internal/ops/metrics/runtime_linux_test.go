package metrics

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The process_ families keep the names and types of client_golang's
// process collector, and agree with the kernel's own accounts, read after
// the scrape.
func TestProcessFamiliesAgreeWithTheKernel(t *testing.T) {
	families := scrape(t, New(nil))
	for name, typ := range map[string]dto.MetricType{
		"process_cpu_seconds_total":     dto.MetricType_COUNTER,
		"process_resident_memory_bytes": dto.MetricType_GAUGE,
		"process_virtual_memory_bytes":  dto.MetricType_GAUGE,
		"process_open_fds":              dto.MetricType_GAUGE,
		"process_max_fds":               dto.MetricType_GAUGE,
		"process_start_time_seconds":    dto.MetricType_GAUGE,
	} {
		require.Contains(t, families, name)
		assert.Equal(t, typ, families[name].GetType(), name)
	}

	var rssKB float64
	status, err := os.ReadFile("/proc/self/status")
	require.NoError(t, err)
	for line := range strings.Lines(string(status)) {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			rssKB, err = strconv.ParseFloat(strings.Fields(v)[0], 64)
			require.NoError(t, err)
		}
	}
	assert.InEpsilon(t, rssKB*1024, value(families["process_resident_memory_bytes"]), 0.5, "pages times the page size")
	assert.Greater(t, value(families["process_virtual_memory_bytes"]), value(families["process_resident_memory_bytes"]))

	var ru syscall.Rusage
	require.NoError(t, syscall.Getrusage(syscall.RUSAGE_SELF, &ru))
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
	assert.InDelta(t, cpu, value(families["process_cpu_seconds_total"]), 0.5, "ticks of 1/100 s; getrusage says %.2fs", cpu)

	var lim syscall.Rlimit
	require.NoError(t, syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim))
	assert.Equal(t, float64(lim.Cur), value(families["process_max_fds"]), "the soft limit")
	assert.Positive(t, value(families["process_open_fds"]))
	assert.Less(t, value(families["process_open_fds"]), value(families["process_max_fds"]))

	start := time.Unix(int64(value(families["process_start_time_seconds"])), 0)
	assert.WithinDuration(t, time.Now(), start, time.Hour, "the test process started at %v", start)
}
