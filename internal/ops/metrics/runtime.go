package metrics

import (
	"bytes"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/companyintel/mcp-server/internal/ops/metrics/internal/prom"
)

// The process_ and go_ families below carry the names and types of
// client_golang's process and Go collectors, so that dashboards built on
// those keep working; they are the ones operators chart. All are read at
// scrape time only: none costs anything until /metrics is asked for.
//
// runtime.ReadMemStats, not runtime/metrics: linking runtime/metrics adds
// its own init (about 0.8 ms per start), and ReadMemStats's brief stop of
// the world happens only when scraped.

// goFamilies reads the Go runtime's state.
func goFamilies() []prom.Family {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	// The pause quantiles client_golang reports: min, quartiles, max.
	gc := debug.GCStats{PauseQuantiles: make([]time.Duration, 5)}
	debug.ReadGCStats(&gc)
	pauses := make([]prom.Sample, 0, 7)
	for i, q := range []string{"0", "0.25", "0.5", "0.75", "1"} {
		pauses = append(pauses, prom.Sample{Labels: []prom.Label{{Name: "quantile", Value: q}}, Value: gc.PauseQuantiles[i].Seconds()})
	}
	pauses = append(pauses,
		prom.Sample{Suffix: "_sum", Value: gc.PauseTotal.Seconds()},
		prom.Sample{Suffix: "_count", Value: float64(gc.NumGC)})
	threads, _ := runtime.ThreadCreateProfile(nil)
	return []prom.Family{
		one("go_goroutines", "Goroutines that currently exist.", prom.GaugeType, float64(runtime.NumGoroutine())),
		one("go_threads", "OS threads created.", prom.GaugeType, float64(threads)),
		{Name: "go_info", Help: "The Go version the binary was built with.", Type: prom.GaugeType,
			Samples: []prom.Sample{{Labels: []prom.Label{{Name: "version", Value: runtime.Version()}}, Value: 1}}},
		one("go_memstats_heap_alloc_bytes", "Heap bytes allocated and still in use.", prom.GaugeType, float64(ms.HeapAlloc)),
		one("go_memstats_alloc_bytes_total", "Heap bytes allocated since the start, freed or not.", prom.CounterType, float64(ms.TotalAlloc)),
		one("go_memstats_sys_bytes", "Bytes obtained from the system.", prom.GaugeType, float64(ms.Sys)),
		{Name: "go_gc_duration_seconds", Help: "Stop-the-world pause durations of the garbage collection cycles.", Type: prom.SummaryType, Samples: pauses},
	}
}

// userHZ is the unit of /proc/self/stat's times: USER_HZ, 100 on every
// Linux architecture Go supports (procfs assumes the same).
const userHZ = 100

// processFamilies reads the process's state from /proc (Linux). What
// cannot be read, on another system or in a restricted container, is left
// out rather than failing the scrape.
func processFamilies() []prom.Family {
	var out []prom.Family
	if stat, ok := readStat(); ok {
		out = append(out,
			one("process_cpu_seconds_total", "User and system CPU time spent, in seconds.", prom.CounterType, float64(stat.utime+stat.stime)/userHZ),
			one("process_virtual_memory_bytes", "Virtual memory size in bytes.", prom.GaugeType, float64(stat.vsize)),
			one("process_resident_memory_bytes", "Resident memory size in bytes.", prom.GaugeType, float64(stat.rss*int64(os.Getpagesize()))))
		if boot, ok := bootTime(); ok {
			out = append(out, one("process_start_time_seconds", "Start time of the process since the Unix epoch, in seconds.",
				prom.GaugeType, float64(boot)+float64(stat.start)/userHZ))
		}
	}
	if fds, err := os.ReadDir("/proc/self/fd"); err == nil {
		out = append(out, one("process_open_fds", "Open file descriptors.", prom.GaugeType, float64(len(fds))))
	}
	if n, ok := maxFDs(); ok {
		out = append(out, one("process_max_fds", "The limit on open file descriptors.", prom.GaugeType, n))
	}
	return out
}

// stat is what processFamilies reads from /proc/self/stat.
type stat struct {
	utime, stime, start int64 // in USER_HZ ticks; start since boot
	vsize, rss          int64 // bytes; pages
}

func readStat() (stat, bool) {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return stat{}, false
	}
	// The command name, in parentheses, may hold spaces and parentheses:
	// the fields that follow start after the last ')', at field 3 (state).
	i := bytes.LastIndex(b, []byte(") "))
	if i < 0 {
		return stat{}, false
	}
	f := strings.Fields(string(b[i+2:]))
	if len(f) < 22 {
		return stat{}, false
	}
	ok := true
	field := func(n int) int64 { // n counts from 1, as proc(5) does
		v, e := strconv.ParseInt(f[n-3], 10, 64)
		if e != nil {
			ok = false
		}
		return v
	}
	s := stat{utime: field(14), stime: field(15), start: field(22), vsize: field(23), rss: field(24)}
	return s, ok
}

// bootTime is btime in /proc/stat: the boot time in seconds since the epoch.
func bootTime() (int64, bool) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, false
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "btime "); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}

// maxFDs is the soft limit on open files from /proc/self/limits.
func maxFDs() (float64, bool) {
	b, err := os.ReadFile("/proc/self/limits")
	if err != nil {
		return 0, false
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "Max open files"); ok {
			f := strings.Fields(v)
			if len(f) == 0 {
				return 0, false
			}
			n, err := strconv.ParseFloat(f[0], 64) // "unlimited" is not a number: left out
			return n, err == nil
		}
	}
	return 0, false
}

// one is a family of a single sample without labels.
func one(name, help string, typ prom.Type, v float64) prom.Family {
	return prom.Family{Name: name, Help: help, Type: typ, Samples: []prom.Sample{{Value: v}}}
}
