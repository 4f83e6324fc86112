package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// machine is what the figures were measured on.
type machine struct {
	CPUs     int
	Model    string
	MemTotal string
	Kernel   string
	Go       string
	Node     string
	Peer     string // mcp-graphql's version
	Commit   string // the checkout measured
	Date     time.Time
}

// describeMachine gathers the machine record. Nothing here may fail the
// run: a figure it cannot read is written as "unknown".
func describeMachine(ctx context.Context, nodeBin, peerDir string) machine {
	m := machine{
		CPUs:   runtime.NumCPU(),
		Model:  "unknown",
		Go:     runtime.Version(),
		Node:   "unknown",
		Peer:   "unknown",
		Commit: "unknown",
		Date:   time.Now().UTC(),
	}
	if out, err := exec.CommandContext(ctx, "lscpu").Output(); err == nil {
		for _, line := range strings.Split(string(out), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "Model name" {
				m.Model = strings.TrimSpace(v)
				break
			}
		}
	}
	m.MemTotal = meminfo("MemTotal")
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = strings.TrimSpace(string(b))
	}
	if out, err := exec.CommandContext(ctx, nodeBin, "--version").Output(); err == nil {
		m.Node = strings.TrimSpace(string(out))
	}
	if b, err := os.ReadFile(filepath.Join(peerDir, "node_modules", "mcp-graphql", "package.json")); err == nil {
		if i := strings.Index(string(b), `"version"`); i >= 0 {
			rest := string(b[i+len(`"version"`):])
			if _, v, ok := strings.Cut(rest, `"`); ok {
				m.Peer, _, _ = strings.Cut(v, `"`)
			}
		}
	}
	if out, err := exec.CommandContext(ctx, "git", "rev-parse", "--short", "HEAD").Output(); err == nil {
		m.Commit = strings.TrimSpace(string(out))
		if st, err := exec.CommandContext(ctx, "git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(st) > 0 {
			m.Commit += " (with uncommitted changes)"
		}
	}
	return m
}

// meminfo returns a line's value from /proc/meminfo, e.g. "24576000 kB"
// rendered as GiB.
func meminfo(key string) string {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return "unknown"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && k == key {
			f := strings.Fields(v)
			if kb, err := strconv.ParseInt(f[0], 10, 64); err == nil && len(f) == 2 && f[1] == "kB" {
				return fmt.Sprintf("%.1f GiB", float64(kb)/(1<<20))
			}
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}

// loadAvg1 is the one-minute load average.
func loadAvg1() (float64, error) {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0, err
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0, fmt.Errorf("unexpected /proc/loadavg %q", b)
	}
	return strconv.ParseFloat(f[0], 64)
}

// busyWindow is how long CPU use of other processes is sampled.
const busyWindow = 2 * time.Second

// busyProcesses lists the processes outside this run that used more than
// 5% of a CPU over busyWindow, e.g. another engineer's go test.
func busyProcesses(ctx context.Context) ([]string, error) {
	before := map[int]time.Duration{}
	for _, pid := range otherPIDs() {
		if t, err := cpuTime(pid); err == nil {
			before[pid] = t
		}
	}
	select {
	case <-time.After(busyWindow):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	var busy []string
	for pid, t0 := range before {
		t1, err := cpuTime(pid)
		if err != nil {
			continue // it ended
		}
		if share := float64(t1-t0) / float64(busyWindow); share > 0.05 {
			busy = append(busy, fmt.Sprintf("pid %d (%s) at %.0f%% CPU", pid, cmdline(pid), share*100))
		}
	}
	return busy, nil
}

// otherPIDs lists every process except the driver and its children (the
// backends it started, which are idle while it waits).
func otherPIDs() []int {
	entries, _ := os.ReadDir("/proc")
	self := os.Getpid()
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self || parentPID(pid) == self {
			continue
		}
		pids = append(pids, pid)
	}
	return pids
}

// parentPID reads field 4 (ppid) of /proc/<pid>/stat; 0 if unreadable.
func parentPID(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(f[1])
	return ppid
}

// cmdline is a process's command line, shortened for a log line.
func cmdline(pid int) string {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	s := strings.TrimSpace(strings.ReplaceAll(string(b), "\x00", " "))
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return s
}

// waitQuiet waits until the one-minute load average is below maxLoad and no
// other process is busy, polling every pollEvery, for at most wait. The
// figures are ratios measured side by side, which survive some noise, but
// p99 on a 2-core machine does not survive someone else's test suite.
func waitQuiet(ctx context.Context, maxLoad float64, wait time.Duration, logf func(string, ...any)) (float64, error) {
	const pollEvery = 15 * time.Second
	deadline := time.Now().Add(wait)
	for {
		load, err := loadAvg1()
		if err != nil {
			return 0, err
		}
		busy, err := busyProcesses(ctx)
		if err != nil {
			return 0, err
		}
		if load < maxLoad && len(busy) == 0 {
			return load, nil
		}
		reason := fmt.Sprintf("load average %.2f (want < %.2f)", load, maxLoad)
		if len(busy) > 0 {
			reason += "; busy: " + strings.Join(busy, "; ")
		}
		if time.Now().After(deadline) {
			return load, fmt.Errorf("the machine did not become quiet within %s: %s (use -max-load 0 to measure anyway)", wait, reason)
		}
		logf("waiting for a quiet machine: %s", reason)
		select {
		case <-time.After(pollEvery):
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
}
