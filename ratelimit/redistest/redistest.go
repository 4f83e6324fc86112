// Package redistest runs a real redis-server for tests: on a free loopback
// port, without persistence, stopped when the test ends. It can kill,
// restart and pause the server, so tests can watch what happens to their
// callers when Redis goes away and comes back.
//
// A missing redis-server fails the test with the line that installs it; it
// never skips, since a skipped test would pass where nothing was checked.
package redistest

import (
	"context"
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Install is how to get redis-server on Debian or Ubuntu, as .ci/run does.
const Install = "apt-get update && apt-get install -y redis-server"

// startTimeout bounds how long a starting redis-server may take to say it
// is ready; it normally takes a few milliseconds.
const startTimeout = 20 * time.Second

// A Server is one redis-server process on a loopback port.
type Server struct {
	tb   testing.TB
	bin  string
	dir  string
	port int

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{} // closed when cmd has exited
}

// Start runs redis-server on a free loopback port and stops it when the
// test ends.
func Start(tb testing.TB) *Server {
	tb.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		tb.Fatalf("redis-server is not installed; the Redis tests need a real one. Install it: %s", Install)
	}
	s := &Server{tb: tb, bin: bin, dir: tb.TempDir()}
	tb.Cleanup(s.Kill)
	// The port is free when chosen but another process may take it before
	// redis-server binds it, so try a few.
	for range 5 {
		s.port = freePort(tb)
		err = s.start()
		if err == nil {
			return s
		}
		if !strings.Contains(err.Error(), "Address already in use") {
			break
		}
	}
	tb.Fatalf("redis-server did not start: %v", err)
	return nil
}

// Addr is the server's host:port.
func (s *Server) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port)) }

// URL is the server's redis:// URL.
func (s *Server) URL() string { return "redis://" + s.Addr() }

// Kill stops the server at once (SIGKILL) and waits for it to exit, as a
// crash or a lost host would. Killing a stopped server does nothing.
func (s *Server) Kill() {
	s.mu.Lock()
	cmd, done := s.cmd, s.done
	s.cmd = nil
	s.mu.Unlock()
	if cmd == nil {
		return
	}
	_ = cmd.Process.Kill()
	<-done
}

// Restart starts the server again on the same port, empty, after Kill.
func (s *Server) Restart() {
	s.tb.Helper()
	if err := s.start(); err != nil {
		s.tb.Fatalf("redis-server did not restart on port %d: %v", s.port, err)
	}
}

// Pause stops the process (SIGSTOP): connections stay open but nothing
// answers, as with a Redis stuck in a long command or a dead network path.
func (s *Server) Pause() { s.signal(syscall.SIGSTOP) }

// Resume continues a paused server (SIGCONT).
func (s *Server) Resume() { s.signal(syscall.SIGCONT) }

func (s *Server) signal(sig syscall.Signal) {
	s.tb.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		s.tb.Fatalf("redis-server is not running")
	}
	if err := s.cmd.Process.Signal(sig); err != nil {
		s.tb.Fatalf("signal redis-server: %v", err)
	}
}

// start runs redis-server and waits until it says it accepts connections,
// or exits.
func (s *Server) start() error {
	cmd := exec.Command(s.bin,
		"--port", strconv.Itoa(s.port),
		"--bind", "127.0.0.1",
		"--save", "",
		"--appendonly", "no",
		"--dir", s.dir,
		"--logfile", "",
		"--daemonize", "no",
	)
	cmd.SysProcAttr = procAttr()
	w := &watcher{ready: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan struct{})
	exited := make(chan error, 1)
	go func() {
		exited <- cmd.Wait()
		close(done)
	}()

	select {
	case <-w.ready:
		s.mu.Lock()
		s.cmd, s.done = cmd, done
		s.mu.Unlock()
		return nil
	case err := <-exited:
		return fmt.Errorf("exited (%v): %s", err, w.lastLines())
	case <-time.After(startTimeout):
		_ = cmd.Process.Kill()
		<-done
		return fmt.Errorf("not ready after %v", startTimeout)
	}
}

func freePort(tb testing.TB) int {
	tb.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatalf("find a free port: %v", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// watcher reads the server's log until it says it is ready.
type watcher struct {
	mu    sync.Mutex
	log   strings.Builder // until ready
	ready chan struct{}
	seen  bool
}

func (w *watcher) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.seen {
		return len(p), nil
	}
	w.log.Write(p)
	if strings.Contains(w.log.String(), "Ready to accept connections") {
		w.seen = true
		close(w.ready)
	}
	return len(p), nil
}

func (w *watcher) lastLines() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(w.log.String()), "\n")
	if len(lines) > 3 {
		lines = lines[len(lines)-3:]
	}
	return strings.Join(lines, " | ")
}

// Flush empties the server (FLUSHALL), so a test starts from no buckets.
func (s *Server) Flush() {
	s.tb.Helper()
	c := redis.NewClient(&redis.Options{Addr: s.Addr()})
	defer c.Close()
	if err := c.FlushAll(context.Background()).Err(); err != nil {
		s.tb.Fatalf("FLUSHALL: %v", err)
	}
}

// Client returns a client of the server, closed when the test ends, for
// tests that look at the keys.
func (s *Server) Client() *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: s.Addr()})
	s.tb.Cleanup(func() { _ = c.Close() })
	return c
}
