package main

import (
	"fmt"
	"io"
	"maps"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"
)

// report is what one soak measured.
type report struct {
	options
	started                            time.Time
	elapsed                            time.Duration
	atStart, atCheckpoint, atEnd, idle sample
	outcomes                           map[string]map[string]int
	latency                            [3]time.Duration
	machine                            string
}

func (r report) write(w io.Writer) error {
	var b strings.Builder
	store := "in the process"
	if r.redis {
		store = "in a local redis-server (`--redis-url`)"
	}
	fmt.Fprintf(&b, "Soak: %d tool calls over Streamable HTTP (stateless, local mode) from %d callers, against `--embedded` "+
		"with %d companies; rate limits %s. %s; %s, %.0f calls/s.\n\n",
		r.calls, r.callers, r.companies, store, r.started.UTC().Format("2006-01-02 15:04 UTC"), r.machine,
		float64(r.calls)/r.elapsed.Seconds())
	mb := func(kb int64) string { return fmt.Sprintf("%.1f MiB", float64(kb)/1024) }
	fmt.Fprintf(&b, "| when | RSS | peak RSS | goroutines | threads |\n| --- | --- | --- | --- | --- |\n")
	for _, row := range []struct {
		when string
		s    sample
	}{
		{"started, before any call", r.atStart},
		{fmt.Sprintf("after %d calls", r.checkpoint), r.atCheckpoint},
		{fmt.Sprintf("after %d calls", r.calls), r.atEnd},
		{"callers gone (connections closed)", r.idle},
	} {
		fmt.Fprintf(&b, "| %s | %s | %s | %d | %d |\n", row.when, mb(row.s.rssKB), mb(row.s.hwmKB), row.s.goroutines, row.s.threads)
	}
	fmt.Fprintf(&b, "\nCall latency (client side, all calls): p50 %s, p99 %s, max %s.\n\n",
		round(r.latency[0]), round(r.latency[1]), round(r.latency[2]))
	fmt.Fprintf(&b, "| tool | outcomes |\n| --- | --- |\n")
	for _, tool := range slices.Sorted(maps.Keys(r.outcomes)) {
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(r.outcomes[tool])) {
			parts = append(parts, fmt.Sprintf("%s %d", k, r.outcomes[tool][k]))
		}
		fmt.Fprintf(&b, "| %s | %s |\n", tool, strings.Join(parts, ", "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func round(d time.Duration) string {
	switch {
	case d >= time.Second:
		return d.Round(10 * time.Millisecond).String()
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond).String()
	}
	return d.Round(time.Microsecond).String()
}

// describeMachine names the CPU count and model, from /proc/cpuinfo.
func describeMachine() string {
	model := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.SplitSeq(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	return fmt.Sprintf("%d CPUs (%s), %s", runtime.NumCPU(), model, runtime.Version())
}
