package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/companyintel/mcp-server/graphql/query"
)

// Names of what is compared, as the report prints them.
const (
	nameDirect = "direct GraphQL (net/http)"
	nameOurs   = "mcp-server"
	namePeer   = "mcp-graphql"
	// nameFloor is bench/cmd/floor: one mcp-go tool posting the same fixed
	// request, the least any Go MCP forwarder can cost.
	nameFloor = "floor (bench/cmd/floor)"
	// nameFloorAWS is the floor built with -tags awschain: the same tool,
	// and the AWS credential chain resolved at start.
	nameFloorAWS = "floor + AWS credential chain (-tags awschain)"
)

// results is everything one run measured.
type results struct {
	cfg                   config
	machine               machine
	loadBefore, loadAfter float64
	started               time.Time
	elapsed               time.Duration
	builds                []buildRecord
	// disturbances are other busy processes seen between phases.
	disturbances []string

	calls   []callResult
	remote  []callResult // with the backend slowed down by cfg.remoteDelay
	mem     []memResult
	starts  []startResult
	backend []backendResult
}

// callResult is one target at one concurrency.
type callResult struct {
	name string
	conc int
	lat  dist
	// cpuPerCall is the CPU time of the target's process per call: the MCP
	// server's own, or for the direct calls the backend's.
	cpuPerCall time.Duration
	throughput float64         // calls per second of wall time
	blocks     []time.Duration // median of each round's block, in round order
}

// memResult is an MCP server's memory after start and after calls.
type memResult struct {
	name         string
	start, after memory
	calls        int
}

// startResult is the start time of one way of starting a server.
type startResult struct {
	name, how string
	lat       dist
	runs      []time.Duration // in the order taken: run i of every starter is in the same turn
	cpu       []time.Duration // CPU time of each run by its first tools/list answer
	rss       int64           // median VmRSS at the first tools/list answer, bytes
	rssRuns   []time.Duration // VmRSS of each run in bytes, in the order taken (a Duration for pairedRatio)
	hasMem    bool
}

// backendResult is direct search latency for one query shape and size.
type backendResult struct {
	shape     string
	companies int
	total     int
	lat       dist
}

// measureCalls opens one session of each MCP server, checks that all three
// paths return the same companies, and measures latency, CPU per call and
// memory.
func measureCalls(ctx context.Context, env *environment, cfg config, res *results) error {
	ours, _, err := open(ctx, env.ourServer())
	if err != nil {
		return err
	}
	defer ours.close()
	peer, _, err := open(ctx, env.peerNode())
	if err != nil {
		return err
	}
	defer peer.close()
	floor, _, err := open(ctx, env.floor())
	if err != nil {
		return err
	}
	defer floor.close()
	oursStart, err := readMemory(ours.pid())
	if err != nil {
		return err
	}
	peerStart, err := readMemory(peer.pid())
	if err != nil {
		return err
	}

	peerQuery, err := inlineVariables(query.SearchCompaniesDocument, searchVars)
	if err != nil {
		return err
	}
	d := newDirect(env.small.url, env.apiKey, 8)
	body := searchBody(searchVars)
	if err := checkSame(ctx, d, body, ours, peer, floor, peerQuery); err != nil {
		return err
	}

	targets := []*target{
		{name: nameDirect, pid: env.small.pid(), call: func(ctx context.Context) error {
			_, err := d.post(ctx, body)
			return err
		}},
		{name: nameOurs, pid: ours.pid(), call: func(ctx context.Context) error {
			_, err := ours.callTool(ctx, "search_companies", searchArgs)
			return err
		}},
		{name: namePeer, pid: peer.pid(), call: func(ctx context.Context) error {
			_, err := peer.callTool(ctx, "query-graphql", map[string]any{"query": peerQuery})
			return err
		}},
		{name: nameFloor, pid: floor.pid(), call: func(ctx context.Context) error {
			_, err := floor.callTool(ctx, "search", nil)
			return err
		}},
	}
	made := 1 // checkSame called each server once
	for _, conc := range []int{1, 8} {
		// Warm-up at each concurrency: the first calls pay for connections,
		// lazily built state and the JIT (node), which are not per-call costs.
		if _, err := runRounds(ctx, targets, conc, cfg.warmup, 1); err != nil {
			return err
		}
		total := cfg.calls
		if conc > 1 {
			total = cfg.callsC8
		}
		logf("  %d calls per target at %d caller(s)", total, conc)
		got, err := runRounds(ctx, targets, conc, total, cfg.rounds)
		if err != nil {
			return err
		}
		res.calls = append(res.calls, collect(targets, got, conc)...)
		made += cfg.warmup + total
	}

	// Memory is read after mem-calls calls: top up with untimed calls if the
	// timed ones were fewer.
	if more := cfg.memCalls - made; more > 0 {
		logf("  %d more calls per MCP server before reading memory", more)
		if _, err := runRounds(ctx, targets[1:3], 1, more, 1); err != nil {
			return err
		}
		made += more
	}
	for _, s := range []struct {
		name  string
		sess  *session
		start memory
	}{{nameOurs, ours, oursStart}, {namePeer, peer, peerStart}} {
		after, err := readMemory(s.sess.pid())
		if err != nil {
			return err
		}
		res.mem = append(res.mem, memResult{name: s.name, start: s.start, after: after, calls: made})
	}

	if cfg.remoteDelay > 0 {
		return measureRemote(ctx, env, cfg, res, targets)
	}
	return nil
}

// measureRemote repeats the per-call measurement with every backend answer
// delayed by cfg.remoteDelay. appsync-local on loopback answers in a few
// milliseconds of its own CPU, so at 8 callers on 2 cores the figures above
// are a CPU contest; AppSync over the network answers in tens to hundreds of
// milliseconds of waiting, which is what shows how each server handles
// concurrent calls.
func measureRemote(ctx context.Context, env *environment, cfg config, res *results, targets []*target) (err error) {
	if err := env.small.setLatency(ctx, cfg.remoteDelay); err != nil {
		return err
	}
	defer func() {
		if off := env.small.setLatency(context.WithoutCancel(ctx), 0); err == nil {
			err = off
		}
	}()
	for _, conc := range []int{1, 8} {
		if _, err := runRounds(ctx, targets, conc, 2*conc, 1); err != nil {
			return err
		}
		logf("  %d calls per target at %d caller(s), backend slowed by %s", cfg.remoteCalls, conc, cfg.remoteDelay)
		got, err := runRounds(ctx, targets, conc, cfg.remoteCalls, cfg.rounds)
		if err != nil {
			return err
		}
		res.remote = append(res.remote, collect(targets, got, conc)...)
	}
	return nil
}

// collect summarises what runRounds measured, in the order of targets.
func collect(targets []*target, got map[*target]*series, conc int) []callResult {
	var out []callResult
	for _, t := range targets {
		s := got[t]
		out = append(out, callResult{
			name:       t.name,
			conc:       conc,
			lat:        summarize(s.lat),
			cpuPerCall: s.cpu / time.Duration(max(s.calls, 1)),
			throughput: float64(s.calls) / s.wall.Seconds(),
			blocks:     s.blocks,
		})
	}
	return out
}

// checkSame makes the call once on each path and fails unless all three
// answer the same companies in the same order: the comparison is only fair
// if they do the same work.
func checkSame(ctx context.Context, d *direct, body []byte, ours, peer, floor *session, peerQuery string) error {
	raw, err := d.post(ctx, body)
	if err != nil {
		return err
	}
	want, err := pageFromGraphQL(raw)
	if err != nil {
		return err
	}
	if len(want.IDs) == 0 {
		return fmt.Errorf("the search found nothing; the comparison needs a page of results")
	}
	res, err := ours.callTool(ctx, "search_companies", searchArgs)
	if err != nil {
		return err
	}
	got, err := pageFromTool(res.StructuredContent)
	if err != nil {
		return err
	}
	if !sameIDs(want, got) {
		return fmt.Errorf("%s answered other companies than the direct call:\n direct: %s\n %s: %s", nameOurs, want, nameOurs, got)
	}
	res, err = peer.callTool(ctx, "query-graphql", map[string]any{"query": peerQuery})
	if err != nil {
		return err
	}
	if got, err = pageFromGraphQL([]byte(resultText(res))); err != nil {
		return err
	}
	if !sameIDs(want, got) {
		return fmt.Errorf("%s answered other companies than the direct call:\n direct: %s\n %s: %s", namePeer, want, namePeer, got)
	}
	if res, err = floor.callTool(ctx, "search", nil); err != nil {
		return err
	}
	if got, err = pageFromGraphQL([]byte(resultText(res))); err != nil {
		return err
	}
	if !sameIDs(want, got) {
		return fmt.Errorf("%s answered other companies than the direct call:\n direct: %s\n %s: %s", nameFloor, want, nameFloor, got)
	}
	return nil
}

// starter is one way of starting a server, measured count times.
type starter struct {
	name, how string
	count     int
	hasMem    bool
	// server returns what to start for run i; done, when set, cleans up
	// after it.
	server func(i int) (server, func(), error)
	lat    []time.Duration
	cpu    []time.Duration
	rss    []int64
}

// measureStarts measures start time to the first tools/list answer. The
// starters take turns, so that drift touches them alike; each is started
// once unmeasured first, which loads its files into the page cache (an MCP
// client starting a server it used before finds them there too) and, for
// --embedded on a filled directory, fills it.
func measureStarts(ctx context.Context, env *environment, cfg config, res *results) error {
	warmDir := filepath.Join(env.tmp, "embedded-warm")
	fixed := func(s server) func(int) (server, func(), error) {
		return func(int) (server, func(), error) { return s, nil, nil }
	}
	starters := []*starter{
		{name: nameFloor, how: "one mcp-go tool, same backend", count: cfg.starts, hasMem: true, server: fixed(env.floor())},
		{name: nameOurs, how: "release build, --endpoint, appsync-local already running", count: cfg.starts, hasMem: true, server: fixed(env.ourServer())},
		{name: nameFloorAWS, how: "the floor, AWS credential chain resolved at start", count: cfg.starts, hasMem: true, server: fixed(env.floorAWS())},
		{name: namePeer, how: "node dist/index.js, same backend", count: cfg.starts, hasMem: true, server: fixed(env.peerNode())},
		{name: nameOurs, how: "--embedded, data on disk", count: cfg.warmStarts, hasMem: true, server: fixed(env.embedded(warmDir))},
		{name: nameOurs, how: "--embedded, first start (empty data dir: builds the 20,000-company database)", count: cfg.firstStarts, hasMem: true,
			server: func(i int) (server, func(), error) {
				dir := filepath.Join(env.tmp, fmt.Sprintf("embedded-first-%d", i))
				if err := os.MkdirAll(dir, 0o700); err != nil {
					return server{}, nil, err
				}
				return env.embedded(dir), func() { os.RemoveAll(dir) }, nil
			}},
	}
	if env.npx != "" {
		// npx's own process is not the server; its memory is not reported.
		starters = append(starters, &starter{name: namePeer, how: "npx mcp-graphql, as its README configures clients", count: cfg.starts, server: fixed(env.peerNpx())})
	} else {
		logf("  npx not found: its start row is skipped")
	}

	for _, st := range starters {
		if st.count == 0 {
			continue
		}
		srv, done, err := st.server(-1)
		if err != nil {
			return err
		}
		_, err = measureStart(ctx, srv)
		if done != nil {
			done()
		}
		if err != nil {
			return err
		}
	}
	most := 0
	for _, st := range starters {
		most = max(most, st.count)
	}
	for i := range most {
		for _, st := range starters {
			if i >= st.count {
				continue
			}
			srv, done, err := st.server(i)
			if err != nil {
				return err
			}
			s, err := measureStart(ctx, srv)
			if done != nil {
				done()
			}
			if err != nil {
				return err
			}
			st.lat = append(st.lat, s.elapsed)
			st.cpu = append(st.cpu, s.cpu)
			st.rss = append(st.rss, s.mem.RSS)
		}
	}
	for _, st := range starters {
		if st.count == 0 {
			continue
		}
		rssRuns := make([]time.Duration, len(st.rss))
		for i, b := range st.rss {
			rssRuns[i] = time.Duration(b)
		}
		res.starts = append(res.starts, startResult{name: st.name, how: st.how, lat: summarize(st.lat), runs: st.lat, cpu: st.cpu, rss: median(st.rss), rssRuns: rssRuns, hasMem: st.hasMem})
	}
	return nil
}

// shape is one kind of search, the same four as appsynclocal's
// BenchmarkSearch.
type shape struct {
	name string
	vars map[string]any
}

var shapes = []shape{
	{"keyword (\"robotics\")", map[string]any{"keyword": "robotics"}},
	{"keyword + 3 filters", map[string]any{"keyword": "warehouse robots", "filters": []string{"countries;United States", "countries;Germany", "categories;Robotics"}}},
	{"common keyword + country (the call above)", searchVars},
	{"filters only (country + category)", map[string]any{"filters": []string{"countries;United Kingdom", "categories;Fintech"}}},
}

// measureBackend times direct searches against the default-size backend
// and the large one, shape by shape, taking turns.
func measureBackend(ctx context.Context, env *environment, cfg config, res *results) error {
	backends := []*backend{env.small}
	if env.big != nil {
		backends = append(backends, env.big)
	}
	var targets []*target
	meta := map[*target]backendResult{}
	for _, sh := range shapes {
		for _, b := range backends {
			d := newDirect(b.url, env.apiKey, 1)
			body := searchBody(sh.vars)
			raw, err := d.post(ctx, body)
			if err != nil {
				return err
			}
			p, err := pageFromGraphQL(raw)
			if err != nil {
				return err
			}
			t := &target{name: fmt.Sprintf("%s @ %d", sh.name, b.companies), call: func(ctx context.Context) error {
				_, err := d.post(ctx, body)
				return err
			}}
			targets = append(targets, t)
			meta[t] = backendResult{shape: sh.name, companies: b.companies, total: p.Total}
		}
	}
	if _, err := runRounds(ctx, targets, 1, 20, 1); err != nil {
		return err
	}
	got, err := runRounds(ctx, targets, 1, cfg.backendCalls, cfg.rounds)
	if err != nil {
		return err
	}
	for _, t := range targets {
		r := meta[t]
		r.lat = summarize(got[t].lat)
		res.backend = append(res.backend, r)
	}
	return nil
}
