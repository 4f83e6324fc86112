package deploy

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// moduleRoot is the server's module: the parent of this directory.
func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// run runs name in dir with env added to a clean environment and returns its
// standard output; a failure fails the test with its standard error.
func run(t *testing.T, ctx context.Context, dir string, env []string, name string, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &stdout, &stderr
	cmd.Env = append(baseEnv(), env...)
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s in %s: %v\nstdout:\n%s\nstderr:\n%s", name, strings.Join(args, " "), dir, err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// baseEnv is what every child gets from this process: enough to find the
// tools and Go's caches, nothing that configures the server.
func baseEnv() []string {
	var env []string
	for _, k := range []string{"PATH", "HOME", "TMPDIR", "GOPATH", "GOCACHE", "GOMODCACHE", "GOPROXY", "GOFLAGS", "GOTOOLCHAIN", "XDG_RUNTIME_DIR"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// freePort returns a loopback port nothing listens on at the moment.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// waitReady polls url until it answers 200 or ctx ends; alive, when it
// reports an error, stops the wait early (the process under test died).
func waitReady(ctx context.Context, url string, alive func() error) error {
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	last := "no answer"
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			last = fmt.Sprintf("%d %s", resp.StatusCode, body)
		} else {
			last = err.Error()
		}
		if alive != nil {
			if err := alive(); err != nil {
				return fmt.Errorf("%s: %w (last answer: %s)", url, err, last)
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s not ready: %s", url, last)
		case <-tick.C:
		}
	}
}

// mcpClient speaks MCP Streamable HTTP (2025-11-25) to one /mcp endpoint,
// one POST per message, as a stateless server expects.
type mcpClient struct {
	url    string
	nextID int
}

// call sends one request and returns its result; a JSON-RPC error fails the
// test.
func (c *mcpClient) call(t *testing.T, ctx context.Context, method string, params any) json.RawMessage {
	t.Helper()
	c.nextID++
	msg := map[string]any{"jsonrpc": "2.0", "id": c.nextID, "method": method}
	if params != nil {
		msg["params"] = params
	}
	body, err := json.Marshal(msg)
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		t.Fatalf("%s: reading the answer: %v", method, err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: HTTP %d: %s", method, resp.StatusCode, raw)
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		raw = lastSSEData(raw)
	}
	var answer struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(raw, &answer); err != nil {
		t.Fatalf("%s: not a JSON-RPC answer: %v: %s", method, err, raw)
	}
	if answer.Error != nil {
		t.Fatalf("%s: JSON-RPC error %d: %s", method, answer.Error.Code, answer.Error.Message)
	}
	return answer.Result
}

// lastSSEData is the data of the last event in an SSE body: the answer.
func lastSSEData(body []byte) []byte {
	var data []byte
	for _, line := range strings.Split(string(body), "\n") {
		if d, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), "data:"); ok {
			data = []byte(strings.TrimSpace(d))
		}
	}
	return data
}

// listAndSearch initializes a session, lists the tools and calls
// search_companies: what a client does first. It returns the tool names.
func listAndSearch(t *testing.T, ctx context.Context, url string) []string {
	t.Helper()
	c := &mcpClient{url: url}
	var init struct {
		ProtocolVersion string `json:"protocolVersion"`
		ServerInfo      struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"serverInfo"`
	}
	mustDecode(t, c.call(t, ctx, "initialize", map[string]any{
		"protocolVersion": "2025-11-25",
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "deploy-test", "version": "1"},
	}), &init)
	if init.ProtocolVersion != "2025-11-25" {
		t.Errorf("initialize: protocol %q, want 2025-11-25", init.ProtocolVersion)
	}
	var list struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	mustDecode(t, c.call(t, ctx, "tools/list", nil), &list)
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	var result struct {
		IsError           bool `json:"isError"`
		StructuredContent struct {
			Total     int `json:"total"`
			Companies []struct {
				ID   string `json:"id"`
				Name string `json:"name"`
			} `json:"companies"`
		} `json:"structuredContent"`
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	mustDecode(t, c.call(t, ctx, "tools/call", map[string]any{
		"name":      "search_companies",
		"arguments": map[string]any{"query": "software", "limit": 3},
	}), &result)
	if result.IsError {
		t.Fatalf("search_companies answered an error: %+v", result.Content)
	}
	if result.StructuredContent.Total == 0 || len(result.StructuredContent.Companies) == 0 || result.StructuredContent.Companies[0].ID == "" {
		t.Fatalf("search_companies found nothing: %+v", result)
	}
	return names
}

func mustDecode(t *testing.T, raw json.RawMessage, v any) {
	t.Helper()
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("decoding %s: %v", raw, err)
	}
}

// waitListening waits until addr accepts TCP connections.
func waitListening(ctx context.Context, addr string, alive func() error) error {
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		var d net.Dialer
		if c, err := d.DialContext(ctx, "tcp", addr); err == nil {
			c.Close()
			return nil
		}
		if err := alive(); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("nothing listens on %s", addr)
		case <-tick.C:
		}
	}
}

// TestSourcesAreTracked reads every file of the checkout (but .git and
// node_modules): what the images and binaries under test are built from. They are built by child processes (go build, podman),
// which go test's result cache cannot see; files a test reads it does see,
// so a change to any of them makes a cached result of this package stale
// and its tests run again.
func TestSourcesAreTracked(t *testing.T) {
	root := moduleRoot(t)
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules":
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() {
			_, err = os.ReadFile(path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
