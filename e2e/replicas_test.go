package e2e

import (
	"context"
	"io"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/ratelimit/redistest"
)

// replica is one `mcp-server --embedded --http` process on a free loopback
// port, in local single-user mode.
type replica struct {
	base   string // http://127.0.0.1:port
	mcp    *client.Client
	stderr *logBuffer
}

var listenAddr = regexp.MustCompile(`starting mcp-server.* addr=(\S+)`)

// startReplica starts the binary with --http on a port of its choosing and
// connects an MCP client. The process is stopped with SIGTERM when the test
// ends.
func startReplica(t *testing.T, ctx context.Context, flags ...string) *replica {
	t.Helper()
	r := &replica{}
	r.base, r.stderr = startHTTPProcess(t, flags...)

	c, err := client.NewStreamableHttpClient(r.base + "/mcp")
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	require.NoError(t, c.Start(ctx))
	_, err = c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{
		ClientInfo: mcp.Implementation{Name: "mcp-server-e2e", Version: "1.0.0"},
	}})
	require.NoError(t, err)
	r.mcp = c
	return r
}

// startHTTPProcess starts the binary with the embedded backend and --http
// on a port of its choosing, and returns its base URL, read from the
// start-up line, and its stderr. The process is stopped with SIGTERM when
// the test ends.
func startHTTPProcess(t *testing.T, flags ...string) (string, *logBuffer) {
	t.Helper()
	base, stderr, _ := startHTTPProcessWith(t, nil, flags...)
	return base, stderr
}

// startHTTPProcessWith is startHTTPProcess with env added to the child's
// environment. It also returns a func that stops the process with SIGTERM
// and waits for it to exit (the cleanup then has nothing left to do).
func startHTTPProcessWith(t *testing.T, env []string, flags ...string) (string, *logBuffer, func()) {
	t.Helper()
	return startHTTPProcessArgs(t, env, append(embeddedArgs(), flags...)...)
}

// startHTTPProcessArgs is startHTTPProcessWith without the embedded
// backend's flags: args say where the backend is.
func startHTTPProcessArgs(t *testing.T, env []string, args ...string) (string, *logBuffer, func()) {
	t.Helper()
	return startHTTPBinary(t, serverBin, env, args...)
}

// startHTTPBinary is startHTTPProcessArgs with another build of the server
// (bin).
func startHTTPBinary(t *testing.T, bin string, env []string, args ...string) (string, *logBuffer, func()) {
	t.Helper()
	flags := args
	stderr := &logBuffer{}
	cmd := exec.Command(bin, append([]string{"--http", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(childEnv(), env...)
	cmd.Stderr = stderr
	require.NoError(t, cmd.Start())
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	stop := func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(waitTimeout):
			_ = cmd.Process.Kill()
			<-exited
			t.Errorf("the server did not stop within %s of SIGTERM", waitTimeout)
		}
	}
	t.Cleanup(func() {
		stop()
		if t.Failed() {
			t.Logf("server stderr (%s):\n%s", strings.Join(flags, " "), stderr)
		}
	})

	// The start-up line names the address; wait for it, or for an exit.
	deadline := time.After(waitTimeout)
	for {
		if m := listenAddr.FindStringSubmatch(stderr.String()); m != nil {
			return "http://" + m[1], stderr, stop
		}
		select {
		case <-exited:
			t.Fatalf("the server exited at start-up:\n%s", stderr)
		case <-deadline:
			t.Fatalf("no start-up line within %s:\n%s", waitTimeout, stderr)
		case <-time.After(10 * time.Millisecond):
		}
	}
}

func (r *replica) call(t *testing.T, ctx context.Context, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := r.mcp.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: tool, Arguments: args}})
	require.NoError(t, err, "tools/call %s answered a JSON-RPC error, not a result", tool)
	return res
}

// readyz returns /readyz's status and body once its first checks have run.
func (r *replica) readyz(t *testing.T) (int, string) {
	t.Helper()
	var code int
	var body string
	require.Eventually(t, func() bool {
		resp, err := http.Get(r.base + "/readyz")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		code, body = resp.StatusCode, string(b)
		return !strings.Contains(body, "pending")
	}, waitTimeout, 10*time.Millisecond)
	return code, body
}

// TestReplicasOverHTTPShareOneLimitThroughRedis is the deployment in small:
// two `--embedded --http` servers on two loopback ports share one
// redis-server through --redis-url. Ten ai_search calls alternating between
// them: exactly five pass, five are rate_limited. Redis stopped: ai_search
// is refused with a clear error, never served unlimited, and
// search_companies still works.
func TestReplicasOverHTTPShareOneLimitThroughRedis(t *testing.T) {
	redis := redistest.Start(t)
	ctx := testContext(t)
	// A deadline generous for a busy machine: this test counts decisions.
	flags := []string{"--redis-url", redis.URL(), "--redis-timeout", "5s"}
	replicas := []*replica{startReplica(t, ctx, flags...), startReplica(t, ctx, flags...)}
	require.NotEqual(t, replicas[0].base, replicas[1].base)
	for _, r := range replicas {
		code, body := r.readyz(t)
		assert.Equal(t, http.StatusOK, code, body)
		assert.Contains(t, body, `"rate_limit_store":"ok"`)
	}

	assertOneSharedLimit(t, ctx, redis, replicas[0], replicas[1])
}
