// Command mcpbench measures what a search_companies call costs through this
// repository's MCP server, side by side, in one run, with the same GraphQL
// request posted directly to the same backend and with the generic
// mcp-graphql server from npm given the same query. It writes the results as
// markdown. BENCHMARKS.md says how to run it and what the figures mean.
//
//	npm ci --prefix bench/peer
//	go run ./bench/cmd/mcpbench -out bench/results.md
//
// It builds ./cmd/server and ./cmd/appsync-local, starts appsync-local on
// loopback ports (the 20,000-company data set, and a 1,000,000-company one
// built once into -data-dir and reused), waits for the machine to be quiet,
// and then measures, interleaving the things it compares:
//
//   - per-call latency and CPU: direct GraphQL vs our server vs mcp-graphql,
//     at 1 and at 8 concurrent callers;
//   - memory of both MCP servers after start and after -mem-calls calls;
//   - the same three paths at 1 and 8 callers with the backend slowed down
//     by -remote-latency, standing in for AppSync over the network;
//   - start time to the first tools/list answer: our server against the
//     running backend, with --embedded on an empty and on a filled data
//     directory, and mcp-graphql (node, and npx as its README configures it);
//   - backend search latency at 20,000 and 1,000,000 companies.
//
// Everything it starts listens on 127.0.0.1 only, is bounded in time
// (-timeout for the run, a deadline per call), and is stopped at the end, on
// error, on Ctrl-C, and by the kernel if the driver itself is killed.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"
)

// config is the driver's flags.
type config struct {
	out          string
	dataDir      string
	peerDir      string
	serverBin    string // "" builds ./cmd/server
	calls        int    // per target at 1 caller
	callsC8      int    // per target at 8 callers, in all
	warmup       int
	rounds       int
	memCalls     int
	starts       int // cold starts per server against the running backend
	firstStarts  int // --embedded starts on an empty data directory
	warmStarts   int // --embedded starts on a filled data directory
	bigCompanies int
	remoteDelay  time.Duration // latency fault for the remote-backend phase
	remoteCalls  int
	backendCalls int
	maxLoad      float64
	quietWait    time.Duration
	timeout      time.Duration
}

func parseFlags(args []string) (config, error) {
	var c config
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	fs := flag.NewFlagSet("mcpbench", flag.ContinueOnError)
	fs.StringVar(&c.out, "out", "", "write the markdown results to this file (default: stdout)")
	fs.StringVar(&c.dataDir, "data-dir", filepath.Join(cache, "bench-data"), "where the backend databases are built once and reused (one subdirectory per size)")
	fs.StringVar(&c.peerDir, "peer", filepath.Join("bench", "peer"), "the npm project holding mcp-graphql, relative to the module root (npm ci --prefix bench/peer)")
	fs.StringVar(&c.serverBin, "server-bin", "", "measure this mcp-server binary instead of building ./cmd/server (to compare a candidate change)")
	fs.IntVar(&c.calls, "calls", 2000, "timed calls per target at 1 caller")
	fs.IntVar(&c.callsC8, "calls-c8", 8000, "timed calls per target at 8 concurrent callers, in all")
	fs.IntVar(&c.warmup, "warmup", 200, "untimed calls per target before the timed ones")
	fs.IntVar(&c.rounds, "rounds", 10, "rounds the calls are split into; targets take turns within each round")
	fs.IntVar(&c.memCalls, "mem-calls", 10000, "calls each MCP server has answered when its memory is read the second time")
	fs.IntVar(&c.starts, "starts", 30, "measured starts of each server against the running backend")
	fs.IntVar(&c.firstStarts, "first-starts", 10, "measured --embedded starts on an empty data directory (each builds the database; 0: skip)")
	fs.IntVar(&c.warmStarts, "warm-starts", 20, "measured --embedded starts with the database already on disk (0: skip)")
	fs.DurationVar(&c.remoteDelay, "remote-latency", 100*time.Millisecond, "added backend latency for the phase that stands in for AppSync over the network (0: skip it)")
	fs.IntVar(&c.remoteCalls, "remote-calls", 400, "timed calls per path and concurrency in that phase")
	fs.IntVar(&c.bigCompanies, "big", 1_000_000, "companies in the large backend (0: skip it)")
	fs.IntVar(&c.backendCalls, "backend-calls", 300, "timed direct calls per query shape and backend size")
	fs.Float64Var(&c.maxLoad, "max-load", 0.5, "wait until the 1-minute load average is below this before measuring (0: do not wait)")
	fs.DurationVar(&c.quietWait, "quiet-wait", 20*time.Minute, "give up if the machine is not quiet after this long")
	fs.DurationVar(&c.timeout, "timeout", 90*time.Minute, "bound on the whole run, the 1M database build included")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	for name, v := range map[string]int{"calls": c.calls, "calls-c8": c.callsC8, "rounds": c.rounds, "starts": c.starts, "backend-calls": c.backendCalls} {
		if v < 1 {
			return c, fmt.Errorf("-%s must be at least 1", name)
		}
	}
	if c.firstStarts < 0 || c.warmStarts < 0 {
		return c, fmt.Errorf("-first-starts and -warm-starts cannot be negative (0 skips them)")
	}
	return c, nil
}

func main() {
	cfg, err := parseFlags(os.Args[1:])
	if err == flag.ErrHelp {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpbench:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	ctx, cancel := context.WithTimeout(ctx, cfg.timeout)
	err = run(ctx, cfg)
	cancel()
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpbench:", err)
		os.Exit(1)
	}
}

// logf reports progress on stderr; the results go to -out or stdout.
func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "mcpbench: "+format+"\n", args...)
}

// run does everything, stopping whatever it started before it returns.
func run(ctx context.Context, cfg config) (err error) {
	// Paths given on the command line are relative to where the driver was
	// started; it then works from the module root (go build ./cmd/..., the
	// default -peer).
	for _, p := range []*string{&cfg.out, &cfg.serverBin, &cfg.dataDir} {
		if *p != "" {
			abs, err := filepath.Abs(*p)
			if err != nil {
				return err
			}
			*p = abs
		}
	}
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	if err := os.Chdir(root); err != nil {
		return err
	}
	// The results file is created first, so that a path that cannot be
	// written fails now rather than after the measurements.
	var out io.Writer = os.Stdout
	if cfg.out != "" {
		f, cerr := os.Create(cfg.out)
		if cerr != nil {
			return cerr
		}
		defer func() { // err is run's result
			f.Close()
			if err != nil {
				os.Remove(cfg.out) // no half-written results
			}
		}()
		out = f
	}
	tmp, err := os.MkdirTemp("", "mcpbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	env, err := newEnvironment(ctx, cfg, tmp)
	if err != nil {
		return err
	}
	defer env.stop()

	res := &results{cfg: cfg}
	if cfg.maxLoad > 0 {
		logf("waiting for a quiet machine (load < %.2f, no other busy process)", cfg.maxLoad)
		if res.loadBefore, err = waitQuiet(ctx, cfg.maxLoad, cfg.quietWait, logf); err != nil {
			return err
		}
	} else {
		res.loadBefore, _ = loadAvg1()
	}
	res.machine = describeMachine(ctx, env.node, env.peerDir)
	res.builds = env.builds
	res.started = time.Now()

	phases := []struct {
		name string
		run  func(context.Context, *environment, config, *results) error
	}{
		{"per-call latency, CPU and memory", measureCalls},
		{"start times", measureStarts},
		{"backend search latency by data-set size", measureBackend},
	}
	for _, ph := range phases {
		logf("%s", ph.name)
		if err := ph.run(ctx, env, cfg, res); err != nil {
			return err
		}
		// Other processes that were busy while the phase ran are reported
		// with the results, so that nobody trusts a disturbed figure.
		busy, err := busyProcesses(ctx)
		if err != nil {
			return err
		}
		for _, b := range busy {
			res.disturbances = append(res.disturbances, fmt.Sprintf("after %s: %s", ph.name, b))
		}
	}
	res.elapsed = time.Since(res.started)
	res.loadAfter, _ = loadAvg1()

	if err = writeReport(out, res); err != nil {
		return err
	}
	if cfg.out != "" {
		logf("results written to %s", cfg.out)
	}
	return nil
}

// moduleRoot finds the directory of this module's go.mod from the working
// directory up, so the driver can be run from anywhere inside the checkout.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			if _, err := os.Stat(filepath.Join(dir, "cmd", "server")); err == nil {
				return dir, nil
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("run mcpbench inside the mcp-server checkout (no go.mod with cmd/server above %s)", dir)
		}
		dir = parent
	}
}

// randomKey is the API key of this run's backends.
func randomKey() string {
	b := make([]byte, 16)
	rand.Read(b) // never fails (crypto/rand documents it)
	return "bench-" + hex.EncodeToString(b)
}
