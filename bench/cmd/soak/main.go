// Command soak drives one `mcp-server --embedded --http` process through a
// long run of tool calls over Streamable HTTP and reports whether it holds
// its memory and goroutines: RSS at start, after 10,000 and after every
// call; goroutines before and after. With -redis (the default when
// redis-server is installed) the server keeps its rate limits in a
// redis-server the driver starts, as a deployment of replicas would.
//
//	go run ./bench/cmd/soak                       # 100,000 calls, report on stdout
//	go run ./bench/cmd/soak -calls 20000 -out /tmp/soak.md
//
// RSS and threads come from /proc/<pid>/status, goroutines from the
// server's own /metrics (go_goroutines); a call's outcome is "ok" or its
// error class, so a refusal (rate_limited, limit_store_unavailable) is
// counted, not hidden.
//
// It builds ./cmd/server, starts everything it needs on free loopback ports
// and stops it all at the end, on error and on Ctrl-C. It is a main
// package, so `go test ./...` compiles it and never runs it. Linux only: it
// reads /proc.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"
)

func main() {
	var o options
	flag.IntVar(&o.calls, "calls", 100_000, "tool calls in all")
	flag.IntVar(&o.checkpoint, "checkpoint", 10_000, "also measure after this many calls")
	flag.IntVar(&o.callers, "callers", 8, "concurrent callers")
	flag.IntVar(&o.companies, "companies", 20_000, "embedded data set size")
	flag.StringVar(&o.dataDir, "data-dir", "", "embedded database directory (default ~/.cache/bench-data/<companies>, shared with mcpbench)")
	flag.StringVar(&o.serverBin, "server-bin", "", "mcp-server binary to soak (default: build ./cmd/server)")
	flag.BoolVar(&o.redis, "redis", haveRedis(), "keep the rate limits in a redis-server the driver starts")
	flag.StringVar(&o.out, "out", "", "write the markdown report here (default stdout)")
	flag.DurationVar(&o.timeout, "timeout", time.Hour, "bound on the whole run")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	if err := run(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(1)
	}
}

// options are the driver's flags.
type options struct {
	calls, checkpoint, callers, companies int
	dataDir, serverBin, out               string
	redis                                 bool
	timeout                               time.Duration
}

func run(ctx context.Context, o options) error {
	if o.calls < o.checkpoint || o.checkpoint <= 0 || o.callers <= 0 {
		return fmt.Errorf("want 0 < -checkpoint <= -calls and -callers > 0")
	}
	tmp, err := os.MkdirTemp("", "soak-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if o.dataDir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			return err
		}
		o.dataDir = filepath.Join(cache, "bench-data", fmt.Sprint(o.companies))
	}
	if err := os.MkdirAll(o.dataDir, 0o755); err != nil {
		return err
	}
	if o.serverBin == "" {
		o.serverBin = filepath.Join(tmp, "mcp-server")
		logf("building ./cmd/server")
		if err := build(ctx, o.serverBin); err != nil {
			return err
		}
	}

	args := []string{"--embedded", "--data-dir", o.dataDir, "--companies", fmt.Sprint(o.companies), "--http", "127.0.0.1:0"}
	if o.redis {
		r, err := startRedis(ctx, tmp)
		if err != nil {
			return err
		}
		defer r.stop()
		args = append(args, "--redis-url", r.url())
	}
	logf("starting the server (the first run builds the %d-company database)", o.companies)
	srv, err := startServer(ctx, o.serverBin, args, filepath.Join(tmp, "home"))
	if err != nil {
		return err
	}
	defer srv.stop()

	rep := report{options: o, started: time.Now()}
	if rep.atStart, err = srv.sample(ctx); err != nil {
		return err
	}
	d, err := newDriver(ctx, srv.base, o.callers)
	if err != nil {
		return err
	}
	logf("%d calls over %d callers", o.calls, o.callers)
	if err := d.drive(ctx, o.checkpoint); err != nil {
		return err
	}
	if rep.atCheckpoint, err = srv.sample(ctx); err != nil {
		return err
	}
	if err := d.drive(ctx, o.calls-o.checkpoint); err != nil {
		return err
	}
	if rep.atEnd, err = srv.sample(ctx); err != nil {
		return err
	}
	// Goroutines once the callers have gone: their connections closed, the
	// server's per-connection goroutines should end too.
	d.close()
	if rep.idle, err = srv.settle(ctx, rep.atStart.goroutines); err != nil {
		return err
	}
	rep.elapsed = time.Since(rep.started)
	rep.outcomes, rep.latency = d.outcomes, d.latency()
	rep.machine = describeMachine()

	var w io.Writer = os.Stdout
	if o.out != "" {
		f, err := os.Create(o.out)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	return rep.write(w)
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "soak: "+format+"\n", args...)
}
