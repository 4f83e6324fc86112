package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
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

// startTimeout bounds a start: the server's includes building a 20,000-company
// database on a first run (seconds), a million-company one takes longer.
const startTimeout = 5 * time.Minute

// child is a process the driver started: in a process group of its own,
// killed by the kernel if the driver dies first.
type child struct {
	cmd    *exec.Cmd
	exited chan struct{}
	log    *tail.Buffer
}

func spawn(ctx context.Context, bin string, args, env []string) (*child, error) {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	c := &child{cmd: cmd, exited: make(chan struct{}), log: tail.New(64 << 10)}
	cmd.Stdout, cmd.Stderr = c.log, c.log
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() { _ = cmd.Wait(); close(c.exited) }()
	return c, nil
}

// stop asks the process to stop (SIGTERM) and kills it after 10 s.
func (c *child) stop() {
	_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-c.exited:
	case <-time.After(10 * time.Second):
		_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
		<-c.exited
	}
}

// waitFor waits until the process's output matches re, and returns the
// first submatch.
func (c *child) waitFor(ctx context.Context, re *regexp.Regexp, what string) (string, error) {
	deadline := time.After(startTimeout)
	for {
		if m := re.FindStringSubmatch(c.log.String()); m != nil {
			return m[len(m)-1], nil
		}
		select {
		case <-c.exited:
			return "", fmt.Errorf("%s exited before it was ready:\n%s", what, c.log)
		case <-deadline:
			return "", fmt.Errorf("%s not ready after %s:\n%s", what, startTimeout, c.log)
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func build(ctx context.Context, out string) error {
	cmd := exec.CommandContext(ctx, "go", "build", "-o", out, "./cmd/server")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build ./cmd/server (run from the module root): %w\n%s", err, b)
	}
	return nil
}

func haveRedis() bool {
	_, err := exec.LookPath("redis-server")
	return err == nil
}

// redisServer is a redis-server without persistence on a free loopback port.
type redisServer struct {
	*child
	port int
}

func startRedis(ctx context.Context, dir string) (*redisServer, error) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		return nil, errors.New("redis-server is not installed (apt-get install -y redis-server); or run with -redis=false")
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	c, err := spawn(ctx, bin, []string{"--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir}, nil)
	if err != nil {
		return nil, err
	}
	if _, err := c.waitFor(ctx, regexp.MustCompile(`(Ready to accept connections)`), "redis-server"); err != nil {
		c.stop()
		return nil, err
	}
	return &redisServer{child: c, port: port}, nil
}

func (r *redisServer) url() string { return fmt.Sprintf("redis://127.0.0.1:%d", r.port) }

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// server is the mcp-server process under soak.
type server struct {
	*child
	base string
}

var listening = regexp.MustCompile(`starting mcp-server.* addr=(\S+)`)

func startServer(ctx context.Context, bin string, args []string, home string) (*server, error) {
	if err := os.MkdirAll(home, 0o755); err != nil {
		return nil, err
	}
	// Only what the server needs: nothing from the machine's environment
	// (credentials, REDIS_URL) may change what is measured.
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TMPDIR=" + os.TempDir()}
	c, err := spawn(ctx, bin, args, env)
	if err != nil {
		return nil, err
	}
	addr, err := c.waitFor(ctx, listening, "mcp-server")
	if err != nil {
		c.stop()
		return nil, err
	}
	return &server{child: c, base: "http://" + addr}, nil
}

// sample is the server process's state at one moment.
type sample struct {
	rssKB, hwmKB int64 // VmRSS and VmHWM (peak)
	threads      int
	goroutines   int
}

// sample reads RSS and threads from /proc and goroutines from /metrics.
func (s *server) sample(ctx context.Context) (sample, error) {
	var out sample
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return out, err
	}
	sc := bufio.NewScanner(strings.NewReader(string(status)))
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), ":")
		f := strings.Fields(v)
		if len(f) == 0 {
			continue
		}
		n, _ := strconv.ParseInt(f[0], 10, 64)
		switch k {
		case "VmRSS":
			out.rssKB = n
		case "VmHWM":
			out.hwmKB = n
		case "Threads":
			out.threads = int(n)
		}
	}
	out.goroutines, err = s.goroutines(ctx)
	return out, err
}

// goroutines reads the Go runtime's go_goroutines gauge from /metrics.
func (s *server) goroutines(ctx context.Context) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.base+"/metrics", nil)
	if err != nil {
		return 0, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "go_goroutines "); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			return int(f), err
		}
	}
	return 0, fmt.Errorf("%s/metrics (status %d) has no go_goroutines gauge", s.base, resp.StatusCode)
}

// settle samples until the goroutines are back to at most want, or 10 s
// have passed: closed connections take a moment to wind down on the
// server's side. It returns the last sample either way.
func (s *server) settle(ctx context.Context, want int) (sample, error) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		smp, err := s.sample(ctx)
		if err != nil || smp.goroutines <= want || time.Now().After(deadline) {
			return smp, err
		}
		time.Sleep(100 * time.Millisecond)
	}
}
