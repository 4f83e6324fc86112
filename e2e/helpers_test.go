package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/require"
)

// testTimeout bounds one test, server start included. A hung server fails
// the test instead of the whole run.
const testTimeout = 60 * time.Second

// waitTimeout bounds one wait for something the server writes (a log line,
// an exit).
const waitTimeout = 15 * time.Second

// testContext returns a context that ends with the test or after
// testTimeout. It is not t.Context(): that one ends before cleanups run, and
// the cleanups need it alive to shut servers down gracefully.
func testContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	t.Cleanup(cancel)
	return ctx
}

// revision is one MCP protocol revision the server must serve, and how
// mcp-go's client is made to speak it.
type revision struct {
	// version is what the client must have negotiated; it names the subtest.
	version string
	options []client.ClientOption
}

// revisions are run by every client scenario. mcp-go's client prefers the
// newest revision it knows and falls back to the handshake silently, so each
// session asserts the negotiated version: the test proves which one ran.
var revisions = []revision{
	{version: mcp.ProtocolVersion20251125, options: []client.ClientOption{client.WithProtocolVersion(mcp.ProtocolVersion20251125)}},
	// No option: the client's default, as a user of mcp-go gets it.
	{version: mcp.ProtocolVersion20260728},
}

// forEachRevision runs fn as a parallel subtest per protocol revision. Each
// subtest starts its own server, so they share nothing but the database.
func forEachRevision(t *testing.T, fn func(t *testing.T, rev revision)) {
	t.Helper()
	for _, rev := range revisions {
		t.Run(rev.version, func(t *testing.T) {
			t.Parallel()
			fn(t, rev)
		})
	}
}

// session is one server process driven by mcp-go's stdio client.
type session struct {
	*client.Client
	// stderr is everything the server wrote on stderr so far.
	stderr *logBuffer
}

// startSession starts the server with the embedded backend and extra flags,
// and connects under rev. The process is shut down when the test ends; if
// the test failed, the server's stderr is logged to explain why.
func startSession(t *testing.T, ctx context.Context, rev revision, flags ...string) *session {
	t.Helper()
	return startSessionOf(t, ctx, serverBin, rev, flags...)
}

// startSessionOf is startSession with another build of the server.
func startSessionOf(t *testing.T, ctx context.Context, bin string, rev revision, flags ...string) *session {
	t.Helper()
	return startSessionWith(t, ctx, bin, rev, append(embeddedArgs(), flags...), nil)
}

// startSessionWith starts bin with exactly args, and env added to childEnv.
func startSessionWith(t *testing.T, ctx context.Context, bin string, rev revision, args, env []string) *session {
	t.Helper()
	logs := &logBuffer{}
	tr := transport.NewStdioWithOptions(bin, nil, args,
		// The command is built here rather than by the transport, which
		// would append the test's environment to ours (see childEnv).
		transport.WithCommandFunc(func(ctx context.Context, command string, _ []string, args []string) (*exec.Cmd, error) {
			cmd := exec.CommandContext(ctx, command, args...)
			cmd.Env = append(childEnv(), env...)
			return cmd, nil
		}),
		// The whole stream: the transport's own buffer keeps only the tail.
		transport.WithCommandStderrWriter(logs),
	)
	c := client.NewClient(tr, rev.options...)
	t.Cleanup(func() {
		_ = c.Close()
		if t.Failed() {
			t.Logf("server stderr (%s %s):\n%s", rev.version, strings.Join(args, " "), logs)
		}
	})
	require.NoError(t, c.Start(ctx), "starting %s", bin)

	_, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{
		ClientInfo: mcp.Implementation{Name: "mcp-server-e2e", Version: "1.0.0"},
	}})
	require.NoError(t, err, "connecting under %s", rev.version)
	require.Equal(t, rev.version, c.ProtocolVersion(), "negotiated protocol revision")
	return &session{Client: c, stderr: logs}
}

// call runs tools/call and returns the result. A JSON-RPC error fails the
// test: tool failures must come back as isError results.
func (s *session) call(t *testing.T, ctx context.Context, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := s.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: tool, Arguments: args}})
	require.NoError(t, err, "tools/call %s answered a JSON-RPC error, not a result", tool)
	require.NotNil(t, res)
	return res
}

// callError runs tools/call where a JSON-RPC error is expected and returns it.
func (s *session) callError(t *testing.T, ctx context.Context, tool string, args map[string]any) error {
	t.Helper()
	res, err := s.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: tool, Arguments: args}})
	require.Error(t, err, "tools/call %s answered a result (%s), not a JSON-RPC error", tool, describe(res))
	return err
}

// decodeOK asserts that res succeeded, that its text rendering is written
// for a model (never the structured JSON again) and carries the note and
// every id of its structuredContent, and decodes the structured content
// into T.
func decodeOK[T any](t *testing.T, res *mcp.CallToolResult) T {
	t.Helper()
	require.False(t, res.IsError, "the call failed: %s", describe(res))
	raw := structured(t, res)
	text := textOf(t, res)
	require.False(t, json.Valid([]byte(text)), "the text content is written for the model, not the structured JSON again: %s", text)
	var m map[string]any
	require.NoError(t, json.Unmarshal(raw, &m))
	if note, ok := m["note"].(string); ok {
		require.Contains(t, text, note, "the text content carries the note")
	}
	for _, id := range idsIn(m) {
		require.Contains(t, text, id, "the text content names every id of the structured content")
	}
	var out T
	require.NoError(t, json.Unmarshal(raw, &out), "structuredContent: %s", raw)
	return out
}

// toolError is the error details of a failed call, from its _meta.
type toolError struct {
	Tool        string  `json:"tool"`
	Code        string  `json:"code"`
	Message     string  `json:"message"`
	Retryable   bool    `json:"retryable"`
	RetryAfterS float64 `json:"retry_after_s"`
	Fields      []struct {
		Field   string `json:"field"`
		Problem string `json:"problem"`
	} `json:"fields"`
}

// decodeFailure asserts that res is a tool execution error and returns its
// structured error and its text.
func decodeFailure(t *testing.T, res *mcp.CallToolResult) (toolError, string) {
	t.Helper()
	require.True(t, res.IsError, "expected isError, got %s", describe(res))
	require.Nil(t, res.StructuredContent, "a failed call carries structuredContent: %s", describe(res))
	require.NotNil(t, res.Meta, "a failed call has no _meta: %s", describe(res))
	raw, err := json.Marshal(res.Meta.AdditionalFields["io.companyintel/error"])
	require.NoError(t, err)
	var e toolError
	require.NoError(t, json.Unmarshal(raw, &e), "_meta error: %s", raw)
	require.NotEmpty(t, e.Code, "the error class is missing from _meta: %s", raw)
	return e, textOf(t, res)
}

// structured returns the structuredContent as JSON.
func structured(t *testing.T, res *mcp.CallToolResult) json.RawMessage {
	t.Helper()
	if len(res.RawStructuredContent) > 0 {
		return res.RawStructuredContent
	}
	require.NotNil(t, res.StructuredContent, "the result has no structuredContent: %s", describe(res))
	raw, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	return raw
}

// textOf returns the result's text content, of which there must be one.
func textOf(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	var texts []string
	for _, c := range res.Content {
		if tc, ok := mcp.AsTextContent(c); ok {
			texts = append(texts, tc.Text)
		}
	}
	require.Len(t, texts, 1, "text content of %s", describe(res))
	return texts[0]
}

// describe renders a result for a failure message.
func describe(res *mcp.CallToolResult) string {
	if res == nil {
		return "<nil>"
	}
	b, err := json.Marshal(res)
	if err != nil {
		return fmt.Sprintf("%+v", *res)
	}
	return string(b)
}

// logBuffer collects a child's output. The writer is the child's copying
// goroutine; readers are the test.
type logBuffer struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	wrote chan struct{} // one pending signal per write; see waitFor
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n, err := b.buf.Write(p)
	select {
	case b.signal() <- struct{}{}:
	default: // a signal is already pending: the waiter will see this write too
	}
	return n, err
}

// signal is the channel a write signals on; the caller holds b.mu or is
// the waiter (made lazily so a zero logBuffer works).
func (b *logBuffer) signal() chan struct{} {
	if b.wrote == nil {
		b.wrote = make(chan struct{}, 1)
	}
	return b.wrote
}

// written returns the channel that receives a signal after each write.
func (b *logBuffer) written() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.signal()
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// lines returns the complete lines so far. A last line without its newline
// is left out: it may still be arriving.
func (b *logBuffer) lines() []string {
	s := b.String()
	end := strings.LastIndexByte(s, '\n')
	if end < 0 {
		return nil
	}
	return strings.Split(s[:end], "\n")
}

// waitFor checks cond after each write to b (the output cond reads) until it
// holds, failing the test after waitTimeout or when ctx ends. Output from a
// child arrives through a copying goroutine, so a line written before a reply
// may still be on its way when the reply is. A write between a check and the
// wait leaves its signal pending, so none is missed.
func waitFor(t *testing.T, ctx context.Context, b *logBuffer, what string, cond func() bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, waitTimeout)
	defer cancel()
	wrote := b.written()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatalf("timed out waiting for %s", what)
		case <-wrote:
		}
	}
}

// record is one log line as key → value. Groups are flattened with dots, as
// slog's text handler writes them (args.query=8).
type record map[string]string

// parseLogfmt parses one line of slog's text handler: key=value pairs
// separated by spaces, values quoted Go-style when they need it.
func parseLogfmt(line string) (record, error) {
	r := record{}
	rest := strings.TrimSpace(line)
	for rest != "" {
		eq := strings.IndexByte(rest, '=')
		if eq <= 0 || strings.ContainsAny(rest[:eq], " \"") {
			return nil, fmt.Errorf("no key=value at %q", rest)
		}
		key := rest[:eq]
		rest = rest[eq+1:]
		var val string
		if strings.HasPrefix(rest, `"`) {
			quoted, err := strconv.QuotedPrefix(rest)
			if err != nil {
				return nil, fmt.Errorf("value of %s: %w", key, err)
			}
			val, _ = strconv.Unquote(quoted)
			rest = rest[len(quoted):]
		} else if sp := strings.IndexByte(rest, ' '); sp >= 0 {
			val, rest = rest[:sp], rest[sp:]
		} else {
			val, rest = rest, ""
		}
		r[key] = val
		rest = strings.TrimLeft(rest, " ")
	}
	return r, nil
}

// textRecords parses every complete line of a text-format log.
func textRecords(t *testing.T, logs *logBuffer) []record {
	t.Helper()
	var out []record
	for _, line := range logs.lines() {
		r, err := parseLogfmt(line)
		require.NoError(t, err, "stderr line is not slog text: %q", line)
		out = append(out, r)
	}
	return out
}

// toolCalls returns the audit records ("tool call") of one tool.
func toolCalls(records []record, tool string) []record {
	var out []record
	for _, r := range records {
		if r["msg"] == "tool call" && r["tool"] == tool {
			out = append(out, r)
		}
	}
	return out
}

// waitForToolCalls waits until the text log holds n audit records of tool
// and returns them.
func waitForToolCalls(t *testing.T, ctx context.Context, s *session, tool string, n int) []record {
	t.Helper()
	var got []record
	waitFor(t, ctx, s.stderr, fmt.Sprintf("%d tool call record(s) of %s on stderr", n, tool), func() bool {
		got = toolCalls(textRecords(t, s.stderr), tool)
		return len(got) >= n
	})
	return got
}

// idsIn collects every "id" member's string value in v, at any depth.
func idsIn(v any) []string {
	var ids []string
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if s, ok := e.(string); ok && k == "id" {
				ids = append(ids, s)
			}
			ids = append(ids, idsIn(e)...)
		}
	case []any:
		for _, e := range x {
			ids = append(ids, idsIn(e)...)
		}
	}
	return ids
}
