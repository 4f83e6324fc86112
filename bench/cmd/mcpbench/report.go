package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"
)

// writeReport renders the results as markdown: the machine, a summary table,
// then each measurement in detail with how it was taken.
func writeReport(out io.Writer, r *results) error {
	w := bufio.NewWriter(out)
	p := func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
	c := r.cfg

	p("# mcp-server benchmark results")
	p("")
	p("Measured by `bench/cmd/mcpbench` on %s UTC in one run of %s (see BENCHMARKS.md for the method).", r.machine.Date.Format("2006-01-02 15:04"), r.elapsed.Round(time.Second))
	p("")
	p("## Machine")
	p("")
	p("| | |")
	p("| --- | --- |")
	p("| CPUs (`nproc`) | %d |", r.machine.CPUs)
	p("| CPU model (`lscpu`) | %s |", r.machine.Model)
	p("| memory | %s |", r.machine.MemTotal)
	p("| kernel | %s |", r.machine.Kernel)
	p("| Go | %s |", r.machine.Go)
	p("| Node | %s |", r.machine.Node)
	p("| mcp-graphql | %s |", r.machine.Peer)
	p("| checkout | %s |", r.machine.Commit)
	p("| load average (1 min) before / after | %.2f / %.2f |", r.loadBefore, r.loadAfter)
	p("")
	if len(r.disturbances) > 0 {
		p("**Other processes were busy during this run; its figures are disturbed:**")
		p("")
		for _, d := range r.disturbances {
			p("- %s", d)
		}
		p("")
	}

	if c.maxLoad <= 0 {
		p("**The driver did not wait for a quiet machine (`-max-load 0`).** Figures from a busy machine are only comparable side by side: read the ratios, which were taken within the same rounds, rather than the absolute times.")
		p("")
	}
	floorTable(p, r)

	calls := map[string]callResult{}
	for _, cr := range r.calls {
		calls[fmt.Sprintf("%s/%d", cr.name, cr.conc)] = cr
	}
	get := func(name string, conc int) callResult { return calls[fmt.Sprintf("%s/%d", name, conc)] }
	mems := map[string]memResult{}
	for _, m := range r.mem {
		mems[m.name] = m
	}
	starts := map[string]startResult{}
	for _, s := range r.starts {
		if _, ok := starts[s.name]; !ok { // the first row of each server is the plain start
			starts[s.name] = s
		}
	}

	p("## Summary")
	p("")
	p("One `search_companies` call (`query:\"software\", country:\"US\"`, 20 results) against appsync-local with %d companies; the direct row is the same GraphQL request posted with net/http. Ratios are over the direct call at the same number of callers.", defaultCompanies)
	p("")
	p("| | p50, 1 caller | p99, 1 caller | p50, 8 callers | p99, 8 callers | CPU per call | start to first tools/list (median) | RSS after start | RSS after %s calls (peak) |", thousands(mems[nameOurs].calls))
	p("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
	d1, d8 := get(nameDirect, 1), get(nameDirect, 8)
	p("| %s | %s | %s | %s | %s | %s (the backend's) | — | — | — |", nameDirect,
		ms(d1.lat.P50), ms(d1.lat.P99), ms(d8.lat.P50), ms(d8.lat.P99), ms(d1.cpuPerCall))
	for _, name := range []string{nameOurs, namePeer} {
		a1, a8 := get(name, 1), get(name, 8)
		m, st := mems[name], starts[name]
		p("| %s | %s (×%.2f) | %s (×%.2f) | %s (×%.2f) | %s (×%.2f) | %s | %s | %s | %s (%s) |", name,
			ms(a1.lat.P50), ratio(a1.lat.P50, d1.lat.P50), ms(a1.lat.P99), ratio(a1.lat.P99, d1.lat.P99),
			ms(a8.lat.P50), ratio(a8.lat.P50, d8.lat.P50), ms(a8.lat.P99), ratio(a8.lat.P99, d8.lat.P99),
			ms(a1.cpuPerCall), ms(st.lat.P50), mib(m.start.RSS), mib(m.after.RSS), mib(m.after.HWM))
	}
	p("")
	p("CPU per call is the server process's user+system time over the calls at 1 caller (for the direct row: appsync-local's, i.e. what the search itself costs). Start is against the already running backend (mcp-graphql: `node dist/index.js`).")
	p("")

	p("## Per-call latency")
	p("")
	p("%s timed calls per path at 1 caller and %s at 8 (after %d untimed warm-up calls at each), in %d rounds in which the three paths take turns. "+
		"The MCP servers are each one stdio session driven by mcp-go's client (protocol %s); 8 callers are 8 goroutines on that session, as an agent's parallel tool calls arrive at the one server its client started. "+
		"The direct path is one http.Client with keep-alive, as many idle connections as callers.", thousands(c.calls), thousands(c.callsC8), c.warmup, c.rounds, protocolVersion)
	p("")
	callTable(p, r.calls)

	if len(r.remote) > 0 {
		p("## Per-call latency with the backend %s away", c.remoteDelay)
		p("")
		p("The same sessions and paths, with appsync-local delaying every answer by %s (its latency fault), standing in for AppSync over the network: the servers now wait rather than compete with the backend for the CPU, which shows how each handles concurrent calls. %s timed calls per path and number of callers.", c.remoteDelay, thousands(c.remoteCalls))
		p("")
		callTable(p, r.remote)
	}

	p("## Memory")
	p("")
	p("`/proc/<pid>/status` of the server process (for mcp-graphql the node process): VmRSS now, VmHWM the peak so far.")
	p("")
	p("| server | VmRSS after start | VmHWM after start | calls answered | VmRSS after | VmHWM after |")
	p("| --- | --- | --- | --- | --- | --- |")
	for _, m := range r.mem {
		p("| %s | %s | %s | %s | %s | %s |", m.name, mib(m.start.RSS), mib(m.start.HWM), thousands(m.calls), mib(m.after.RSS), mib(m.after.HWM))
	}
	p("")

	p("## Start time")
	p("")
	p("From spawning the process to the answer to the first `tools/list` (process start, initialize handshake, catalogue), with mcp-go's stdio client; the starters take turns, each started once unmeasured first. RSS is the process's at that answer.")
	p("")
	p("| server | how | runs | median | p90 | min | max | RSS at first tools/list (median) |")
	p("| --- | --- | --- | --- | --- | --- | --- | --- |")
	for _, s := range r.starts {
		rss := "—"
		if s.hasMem {
			rss = mib(s.rss)
		}
		p("| %s | %s | %d | %s | %s | %s | %s | %s |", s.name, s.how, s.lat.N, ms(s.lat.P50), ms(s.lat.P90), ms(s.lat.Min), ms(s.lat.Max), rss)
	}
	p("")

	p("## Backend search latency")
	p("")
	p("The same GraphQL operation posted directly to appsync-local, 1 caller, %d timed calls per row (after 20 warm-up calls), sizes taking turns.", c.backendCalls)
	p("")
	p("| query | companies | matches | p50 | p90 | p99 | max |")
	p("| --- | --- | --- | --- | --- | --- | --- |")
	for _, b := range r.backend {
		p("| %s | %s | %s | %s | %s | %s | %s |", b.shape, thousands(b.companies), thousands(b.total), ms(b.lat.P50), ms(b.lat.P90), ms(b.lat.P99), ms(b.lat.Max))
	}
	p("")
	for _, b := range r.builds {
		switch {
		case b.Took == 0:
			p("- %s-company database: built outside the driver, build time unknown (delete its directory under -data-dir to measure it).", thousands(b.Companies))
		case b.Fresh:
			p("- %s-company database built in %s by this run.", thousands(b.Companies), b.Took.Round(100*time.Millisecond))
		default:
			p("- %s-company database built in %s by an earlier run on %s (%d CPUs), reused from disk.", thousands(b.Companies), b.Took.Round(100*time.Millisecond), b.When.Format("2006-01-02 15:04 UTC"), b.CPUs)
		}
	}
	p("")
	return w.Flush()
}

// callTable renders per-call results, each compared with the direct call
// at the same number of callers.
func callTable(p func(string, ...any), rows []callResult) {
	base := map[int]callResult{}
	for _, cr := range rows {
		if cr.name == nameDirect {
			base[cr.conc] = cr
		}
	}
	p("| path | callers | calls | p50 | p90 | p99 | max | p50 × direct | p99 × direct | p50 added | CPU per call | calls/s |")
	p("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
	for _, cr := range rows {
		b := base[cr.conc]
		rel, relP99, added := "—", "—", "—"
		cpu := ms(cr.cpuPerCall)
		if cr.name == nameDirect {
			cpu += " (backend)"
		} else {
			rel = fmt.Sprintf("×%.2f", ratio(cr.lat.P50, b.lat.P50))
			relP99 = fmt.Sprintf("×%.2f", ratio(cr.lat.P99, b.lat.P99))
			added = signedMS(cr.lat.P50 - b.lat.P50)
		}
		p("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.0f |", cr.name, cr.conc, thousands(cr.lat.N),
			ms(cr.lat.P50), ms(cr.lat.P90), ms(cr.lat.P99), ms(cr.lat.Max), rel, relP99, added, cpu, cr.throughput)
	}
	p("")
}

// ms renders a duration in milliseconds with three significant figures.
func ms(d time.Duration) string {
	v := float64(d) / float64(time.Millisecond)
	switch {
	case v == 0:
		return "0 ms"
	case v < 0:
		return "-" + ms(-d)
	case v < 1:
		return fmt.Sprintf("%.3f ms", v)
	case v < 10:
		return fmt.Sprintf("%.2f ms", v)
	case v < 100:
		return fmt.Sprintf("%.1f ms", v)
	}
	return fmt.Sprintf("%.0f ms", v)
}

// signedMS renders a difference with its sign: +2.50 ms, -0.375 ms.
func signedMS(d time.Duration) string {
	if d < 0 {
		return ms(d)
	}
	return "+" + ms(d)
}

// mib renders bytes in MiB.
func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

// thousands renders n with thousands separators: 10000 → 10,000.
func thousands(n int) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// floorTable compares mcp-server with the floor (bench/cmd/floor) as
// ratios taken side by side: for cold start, the median of the ratios of
// starts taken in the same turn; for a call, each server's p50 over the
// direct call's p50 in the same round, then mcp-server's ratio over the
// floor's, the median over rounds.
func floorTable(p func(string, ...any), r *results) {
	var ours, floor, floorAWS *startResult
	for i := range r.starts {
		s := &r.starts[i]
		if s.name == nameOurs && ours == nil {
			ours = s
		}
		if s.name == nameFloor && floor == nil {
			floor = s
		}
		if s.name == nameFloorAWS && floorAWS == nil {
			floorAWS = s
		}
	}
	if ours == nil || floor == nil {
		return
	}
	p("## Against the floor")
	p("")
	p("The floor is `bench/cmd/floor`: one mcp-go stdio tool that posts the same fixed GraphQL request, against the same backend, measured in the same rounds as mcp-server. Each ratio is the median of ratios taken side by side (same turn, same round), so a busy machine moves both sides.")
	p("")
	p("| | floor | mcp-server | mcp-server ÷ floor (median of paired ratios) | ratio of the medians | target |")
	p("| --- | --- | --- | --- | --- | --- |")
	p("| cold start to the first tools/list answer (median of %d) | %s | %s | ×%.2f | ×%.2f | ≤ ×1.50 |", ours.lat.N,
		ms(floor.lat.P50), ms(ours.lat.P50), pairedRatio(ours.runs, floor.runs), ratio(ours.lat.P50, floor.lat.P50))
	p("| CPU time (user+system) by that answer, median | %s | %s | ×%.2f | ×%.2f | — |",
		ms(median(floor.cpu)), ms(median(ours.cpu)), pairedRatio(ours.cpu, floor.cpu), ratio(median(ours.cpu), median(floor.cpu)))
	if floorAWS != nil {
		p("| RSS at that answer, against the floor, median | %s | %s | ×%.2f | ×%.2f | — |",
			mib(floor.rss), mib(ours.rss), pairedRatio(ours.rssRuns, floor.rssRuns), ratio(time.Duration(ours.rss), time.Duration(floor.rss)))
		p("| RSS at that answer, against the floor with the AWS credential chain resolved (`-tags awschain`), median | %s | %s | ×%.2f | ×%.2f | ≤ ×1.25 |",
			mib(floorAWS.rss), mib(ours.rss), pairedRatio(ours.rssRuns, floorAWS.rssRuns), ratio(time.Duration(ours.rss), time.Duration(floorAWS.rss)))
		p("| cold start, against the floor with the AWS credential chain resolved | %s | %s | ×%.2f | ×%.2f | — |",
			ms(floorAWS.lat.P50), ms(ours.lat.P50), pairedRatio(ours.runs, floorAWS.runs), ratio(ours.lat.P50, floorAWS.lat.P50))
	}
	for _, conc := range []int{1, 8} {
		var d, o, f *callResult
		for i := range r.calls {
			cr := &r.calls[i]
			if cr.conc != conc {
				continue
			}
			switch cr.name {
			case nameDirect:
				d = cr
			case nameOurs:
				o = cr
			case nameFloor:
				f = cr
			}
		}
		if d == nil || o == nil || f == nil {
			continue
		}
		target := "≤ ×1.10"
		if conc > 1 {
			target = "—"
		}
		p("| one call at %d caller(s), p50 ÷ direct p50 (direct: %s) | ×%.2f | ×%.2f | ×%.2f | ×%.2f | %s |", conc, ms(d.lat.P50),
			pairedRatio(f.blocks, d.blocks), pairedRatio(o.blocks, d.blocks),
			pairedRatio(ratios(o.blocks, d.blocks), ratios(f.blocks, d.blocks)),
			ratio(o.lat.P50, d.lat.P50)/ratio(f.lat.P50, d.lat.P50), target)
	}
	p("")
}
