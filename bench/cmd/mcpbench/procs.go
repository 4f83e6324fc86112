package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/companyintel/mcp-server/bench/internal/tail"
)

// userHZ is the unit of utime and stime in /proc/<pid>/stat. The kernel
// fixes it at 100 in its user-space ABI on every architecture Go runs on,
// whatever the kernel's internal HZ, so no sysconf (and no cgo) is needed.
const userHZ = 100

// stopGrace is how long a process asked to stop (SIGTERM) may take before it
// is killed.
const stopGrace = 5 * time.Second

// childAttrs are the attributes of every process the driver starts: a
// process group of its own, so that stopping it also stops what it started
// (npx starts node), and SIGKILL from the kernel if the driver dies without
// cleaning up, so that nothing outlives a crashed or killed run.
func childAttrs() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killGroup is exec.Cmd.Cancel for children made with childAttrs: it signals
// the whole process group, not only the leader.
func killGroup(cmd *exec.Cmd, sig syscall.Signal) error {
	if cmd.Process == nil {
		return nil
	}
	if err := syscall.Kill(-cmd.Process.Pid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}

// command returns an exec.Cmd for a child of the driver: killed (as a
// group) when ctx ends, with only the environment given.
func command(ctx context.Context, dir, bin string, args, env []string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.SysProcAttr = childAttrs()
	cmd.Cancel = func() error { return killGroup(cmd, syscall.SIGKILL) }
	cmd.WaitDelay = stopGrace
	return cmd
}

// backend is a running cmd/appsync-local.
type backend struct {
	companies int
	url       string
	apiKey    string
	cmd       *exec.Cmd
	stderr    *tail.Buffer
	done      chan struct{} // closed when the process has exited
	// built is the database build time from the backend's own log, when
	// this start built the database; zero when it reused one on disk.
	built time.Duration
}

// urlRE and builtRE read the two log lines of appsync-local the driver
// needs: where it listens, and how long the database build took.
var (
	urlRE   = regexp.MustCompile(`\burl=(http://\S+)`)
	builtRE = regexp.MustCompile(`msg="built companies database".*\bduration=(\S+)`)
)

// startBackend starts appsync-local on a free loopback port with the given
// data set and waits until it is ready, which includes building the
// database when dataDir has none of that size yet. The wait is bounded by
// readyTimeout.
func startBackend(ctx context.Context, bin, dataDir string, companies int, apiKey string, env []string, readyTimeout time.Duration) (*backend, error) {
	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		return nil, err
	}
	b := &backend{companies: companies, apiKey: apiKey, stderr: tail.New(16 << 10), done: make(chan struct{})}
	b.cmd = command(ctx, "", bin, []string{
		"--listen", "127.0.0.1:0",
		"--api-key", apiKey,
		"--data-dir", dataDir,
		"--companies", strconv.Itoa(companies),
	}, env)
	pipe, err := b.cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := b.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting appsync-local: %w", err)
	}
	ready := make(chan error, 1)
	go b.readLog(pipe, ready)
	go func() {
		b.cmd.Wait()
		close(b.done)
	}()

	timer := time.NewTimer(readyTimeout)
	defer timer.Stop()
	select {
	case err := <-ready:
		if err != nil {
			b.stop()
			return nil, fmt.Errorf("appsync-local (%d companies): %w\n%s", companies, err, b.stderr)
		}
		return b, nil
	case <-timer.C:
		b.stop()
		return nil, fmt.Errorf("appsync-local (%d companies) not ready after %s\n%s", companies, readyTimeout, b.stderr)
	case <-ctx.Done():
		b.stop()
		return nil, ctx.Err()
	}
}

// readLog follows the backend's stderr: it picks up the URL and the build
// time, reports readiness once, and then keeps draining so that the child
// never blocks on a full pipe.
func (b *backend) readLog(r io.Reader, ready chan<- error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	signalled := false
	for sc.Scan() {
		line := sc.Text()
		b.stderr.Write([]byte(line + "\n"))
		if signalled {
			continue
		}
		if m := urlRE.FindStringSubmatch(line); m != nil {
			b.url = m[1]
		}
		if m := builtRE.FindStringSubmatch(line); m != nil {
			b.built, _ = time.ParseDuration(m[1])
		}
		if strings.Contains(line, "msg=ready") {
			signalled = true
			if b.url == "" {
				ready <- errors.New("ready, but no url= line was logged")
			} else {
				ready <- nil
			}
		}
	}
	if !signalled {
		ready <- errors.New("exited before it was ready")
	}
}

// setLatency switches appsync-local's latency fault on for every request
// (d > 0), or switches every fault off (d == 0), through its loopback-only
// /__faults endpoint.
func (b *backend) setLatency(ctx context.Context, d time.Duration) error {
	admin := strings.TrimSuffix(b.url, "/graphql") + "/__faults"
	method, body := http.MethodDelete, ""
	if d > 0 {
		method, body = http.MethodPost, "latency="+d.String()
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, admin, strings.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s: HTTP %d: %s", method, admin, resp.StatusCode, msg)
	}
	return nil
}

// pid is the backend's process id.
func (b *backend) pid() int { return b.cmd.Process.Pid }

// stop asks the backend to shut down and kills it if it takes longer than
// stopGrace.
func (b *backend) stop() {
	if b == nil || b.cmd.Process == nil {
		return
	}
	killGroup(b.cmd, syscall.SIGTERM)
	select {
	case <-b.done:
	case <-time.After(stopGrace):
		killGroup(b.cmd, syscall.SIGKILL)
		<-b.done
	}
}

// cpuTime is the user plus system CPU time the process has used so far, all
// threads included (fields 14 and 15 of /proc/<pid>/stat).
func cpuTime(pid int) (time.Duration, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	return parseStatCPU(string(raw))
}

// parseStatCPU reads utime and stime from a /proc/<pid>/stat line. The
// command name (field 2) may contain spaces and parentheses, so fields are
// counted from the last ')'.
func parseStatCPU(stat string) (time.Duration, error) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, fmt.Errorf("unexpected /proc stat line %q", stat)
	}
	f := strings.Fields(stat[i+1:])
	// f[0] is field 3 (state); utime and stime are fields 14 and 15.
	if len(f) < 13 {
		return 0, fmt.Errorf("unexpected /proc stat line %q", stat)
	}
	var ticks int64
	for _, s := range f[11:13] {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("unexpected /proc stat line %q: %w", stat, err)
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / userHZ, nil
}

// memory is a process's resident set, now and at its peak.
type memory struct {
	RSS, HWM int64 // bytes: VmRSS and VmHWM of /proc/<pid>/status
}

// readMemory reads VmRSS and VmHWM of a process.
func readMemory(pid int) (memory, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return memory{}, err
	}
	return parseStatusMemory(string(raw))
}

// parseStatusMemory reads VmRSS and VmHWM (given in kB) from the text of
// /proc/<pid>/status.
func parseStatusMemory(status string) (memory, error) {
	var m memory
	found := 0
	for _, line := range strings.Split(status, "\n") {
		key, val, ok := strings.Cut(line, ":")
		if !ok || (key != "VmRSS" && key != "VmHWM") {
			continue
		}
		f := strings.Fields(val)
		if len(f) != 2 || f[1] != "kB" {
			return m, fmt.Errorf("unexpected /proc status line %q", line)
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return m, fmt.Errorf("unexpected /proc status line %q: %w", line, err)
		}
		if key == "VmRSS" {
			m.RSS = kb << 10
		} else {
			m.HWM = kb << 10
		}
		found++
	}
	if found != 2 {
		return m, errors.New("VmRSS or VmHWM missing from /proc status")
	}
	return m, nil
}

// runTime is the time every thread of pid has spent on a CPU so far, from
// /proc/<pid>/task/*/schedstat, in nanoseconds: /proc/<pid>/stat counts in
// clock ticks (10 ms), too coarse for a start that takes a few of them.
// Threads that have already exited are not counted.
func runTime(pid int) (time.Duration, error) {
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		return 0, err
	}
	var total time.Duration
	for _, t := range tasks {
		raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/schedstat", pid, t.Name()))
		if err != nil {
			continue // the thread exited meanwhile
		}
		f := strings.Fields(string(raw))
		if len(f) == 0 {
			continue
		}
		ns, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("schedstat of %d/%s: %w", pid, t.Name(), err)
		}
		total += time.Duration(ns)
	}
	return total, nil
}
