package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rawServer is the server on plain pipes, without an MCP client in between:
// what it writes on stdout is seen byte for byte.
type rawServer struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *logBuffer
	stderr *logBuffer
	// exited receives the result of Wait once, when the process ends.
	exited chan error
}

// startRaw starts the server with the embedded backend. It is killed when
// the test ends if it is still running.
func startRaw(t *testing.T, ctx context.Context) *rawServer {
	t.Helper()
	return startRawWith(t, ctx, nil)
}

// startRawWith starts the server with the embedded backend, env added to
// the child's environment and flags to its arguments.
func startRawWith(t *testing.T, ctx context.Context, env []string, flags ...string) *rawServer {
	t.Helper()
	r := &rawServer{stdout: &logBuffer{}, stderr: &logBuffer{}, exited: make(chan error, 1)}
	r.cmd = exec.CommandContext(ctx, serverBin, append(embeddedArgs(), flags...)...)
	r.cmd.Env = append(childEnv(), env...)
	// Writers, not pipes: Wait then returns only after all output is copied,
	// so nothing written just before exit is lost.
	r.cmd.Stdout = r.stdout
	r.cmd.Stderr = r.stderr
	r.cmd.WaitDelay = 5 * time.Second
	stdin, err := r.cmd.StdinPipe()
	require.NoError(t, err)
	r.stdin = stdin
	require.NoError(t, r.cmd.Start())
	go func() { r.exited <- r.cmd.Wait() }()
	t.Cleanup(func() {
		_ = r.cmd.Process.Kill() // a no-op once it has exited
		if t.Failed() {
			t.Logf("server stdout:\n%s\nserver stderr:\n%s", r.stdout, r.stderr)
		}
	})
	return r
}

// send writes one JSON-RPC message as one line: the stdio framing.
func (r *rawServer) send(t *testing.T, msg map[string]any) {
	t.Helper()
	msg["jsonrpc"] = "2.0"
	b, err := json.Marshal(msg)
	require.NoError(t, err)
	_, err = r.stdin.Write(append(b, '\n'))
	require.NoError(t, err, "writing to the server's stdin")
}

// rpcMessage is any JSON-RPC 2.0 message.
type rpcMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// response waits for the reply to request id and returns it.
func (r *rawServer) response(t *testing.T, ctx context.Context, id int) rpcMessage {
	t.Helper()
	var found rpcMessage
	want := fmt.Sprint(id)
	waitFor(t, ctx, r.stdout, fmt.Sprintf("the reply to request %d on stdout", id), func() bool {
		for _, line := range r.stdout.lines() {
			var m rpcMessage
			if json.Unmarshal([]byte(line), &m) == nil && string(m.ID) == want && m.Method == "" {
				found = m
				return true
			}
		}
		return false
	})
	return found
}

// wait waits for the process to exit and returns its exit code.
func (r *rawServer) wait(t *testing.T, ctx context.Context, why string) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, waitTimeout)
	defer cancel()
	select {
	case err := <-r.exited:
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return exit.ExitCode()
		}
		require.NoError(t, err, "waiting for the server")
		return 0
	case <-ctx.Done():
		t.Fatalf("the server did not exit within %s of %s", waitTimeout, why)
		return -1
	}
}

// initialize does the 2025-11-25 handshake.
func (r *rawServer) initialize(t *testing.T, ctx context.Context) {
	t.Helper()
	r.send(t, map[string]any{"id": 1, "method": "initialize", "params": map[string]any{
		"protocolVersion": "2025-11-25",
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "raw-e2e", "version": "1.0.0"},
	}})
	init := r.response(t, ctx, 1)
	require.Nil(t, init.Error, "initialize: %+v", init.Error)
	var res struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	require.NoError(t, json.Unmarshal(init.Result, &res))
	require.Equal(t, "2025-11-25", res.ProtocolVersion)
	r.send(t, map[string]any{"method": "notifications/initialized"})
}

// TestRawStdio checks what is on the wire: stdout holds JSON-RPC messages
// and nothing else, and the process ends cleanly at end of input and on
// SIGTERM.
func TestRawStdio(t *testing.T) {
	t.Run("stdout is only JSON-RPC, exit 0 at end of input", func(t *testing.T) {
		t.Parallel()
		ctx := testContext(t)
		r := startRaw(t, ctx)
		r.initialize(t, ctx)

		r.send(t, map[string]any{"id": 2, "method": "tools/list"})
		list := r.response(t, ctx, 2)
		require.Nil(t, list.Error, "tools/list: %+v", list.Error)
		var tools struct {
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
		}
		require.NoError(t, json.Unmarshal(list.Result, &tools))
		assert.Len(t, tools.Tools, 10)

		r.send(t, map[string]any{"id": 3, "method": "tools/call", "params": map[string]any{
			"name": "search_companies", "arguments": map[string]any{"query": "robotics", "limit": 5},
		}})
		call := r.response(t, ctx, 3)
		require.Nil(t, call.Error, "tools/call: %+v", call.Error)
		var result struct {
			IsError bool `json:"isError"`
		}
		require.NoError(t, json.Unmarshal(call.Result, &result))
		assert.False(t, result.IsError, "search_companies: %s", call.Result)

		r.send(t, map[string]any{"id": 4, "method": "tools/call", "params": map[string]any{
			"name": "no_such_tool", "arguments": map[string]any{},
		}})
		unknown := r.response(t, ctx, 4)
		if assert.NotNil(t, unknown.Error, "an unknown tool is a JSON-RPC error: %s", unknown.Result) {
			assert.Equal(t, -32602, unknown.Error.Code)
		}

		require.NoError(t, r.stdin.Close())
		assert.Equal(t, 0, r.wait(t, ctx, "closing its input"), "exit code at end of input")

		// The process has exited and Wait has copied everything: this is
		// all it ever wrote on stdout.
		out := r.stdout.String()
		require.True(t, strings.HasSuffix(out, "\n"), "stdout ends mid-line: %q", out)
		for i, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			var m rpcMessage
			if !assert.NoError(t, json.Unmarshal([]byte(line), &m), "stdout line %d is not JSON: %q", i+1, line) {
				continue
			}
			assert.Equal(t, "2.0", m.JSONRPC, "line %d: %s", i+1, line)
			isReply := len(m.ID) > 0 && m.Method == "" && (len(m.Result) > 0) != (m.Error != nil)
			isRequestOrNotification := m.Method != ""
			assert.True(t, isReply || isRequestOrNotification, "line %d is not a JSON-RPC message: %s", i+1, line)
		}
		assert.True(t, slices.ContainsFunc(r.stderr.lines(), func(l string) bool {
			return strings.Contains(l, `msg="stopped mcp-server"`)
		}), "a stopped mcp-server line on stderr")
	})

	t.Run("SIGTERM stops it cleanly", func(t *testing.T) {
		t.Parallel()
		ctx := testContext(t)
		r := startRaw(t, ctx)
		// Serving: the signal arrives to a running server, not to one still
		// starting. Its input stays open, so only the signal can stop it.
		r.initialize(t, ctx)

		require.NoError(t, r.cmd.Process.Signal(syscall.SIGTERM))
		assert.Equal(t, 0, r.wait(t, ctx, "SIGTERM"), "exit code after SIGTERM")
		assert.True(t, slices.ContainsFunc(r.stderr.lines(), func(l string) bool {
			return strings.Contains(l, `msg="stopped mcp-server"`)
		}), "a stopped mcp-server line on stderr")
	})
}
