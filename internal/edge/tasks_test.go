package edge

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/tools"
)

// followAll is a Tasks that follows "profile" and "say" and turns every
// answer it is given into a task: what the edge sends it shows.
type followAll struct {
	created []string
	served  []string
}

func (f *followAll) Follows(tool string) bool {
	return tool == "profile" || tool == "say" || tool == "must"
}
func (f *followAll) Requires(tool string) bool { return tool == "must" }
func (f *followAll) AnyRequired() bool         { return true }

func (f *followAll) Create(_ context.Context, tool string, result json.RawMessage) (json.RawMessage, bool) {
	f.created = append(f.created, tool)
	return json.RawMessage(`{"resultType":"task","taskId":"task_1","status":"working"}`), true
}

func (f *followAll) CreateLegacy(ctx context.Context, tool string, result json.RawMessage) (json.RawMessage, bool) {
	f.created = append(f.created, "legacy "+tool)
	return json.RawMessage(`{"task":{"taskId":"task_1","status":"working"}}`), true
}

func (f *followAll) ServeLegacy(_ context.Context, method string, params json.RawMessage) (json.RawMessage, *Error) {
	f.served = append(f.served, "legacy "+method)
	return json.RawMessage(`{"taskId":"task_1","status":"working"}`), nil
}

func (f *followAll) Serve(_ context.Context, method string, params json.RawMessage) (json.RawMessage, *Error) {
	f.served = append(f.served, method)
	return json.RawMessage(`{"resultType":"complete","taskId":"task_1","status":"working"}`), nil
}

// TestTasksLeaveEveryOtherRequestByteForByte holds a server with the tasks
// extension to the answers of one without it, for every request of
// direct_test's cases, none of which negotiates the extension: the same
// status, Content-Type and body, and nothing reaches the extension.
func TestTasksLeaveEveryOtherRequestByteForByte(t *testing.T) {
	s := directServer()
	ext := &followAll{}
	serve := func(tasks Tasks) string {
		h := httptest.NewServer(Handler(s, HTTPOptions{
			Guard: Guard{Loopback: true}, Timeout: time.Minute, Tasks: tasks,
			Authenticate: func(next http.Handler) http.Handler { return next },
		}))
		t.Cleanup(h.Close)
		return h.URL
	}
	without, with := serve(nil), serve(ext)
	for _, c := range directCases() {
		assert.Equal(t, postDirectCase(t, without, c), postDirectCase(t, with, c), c.name)
	}
	assert.Empty(t, ext.created)
	assert.Empty(t, ext.served)
}

// tasksMeta is a 2026-07-28 request's _meta negotiating the extension.
const tasksMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}`

// TestTasksNegotiatedPerRequestOnHTTP shows which requests reach the
// extension over HTTP: a followed tool's call and the extension's methods
// when negotiated; its methods refused with -32021 when not; the routing
// headers checked; a tool it does not follow untouched.
func TestTasksNegotiatedPerRequestOnHTTP(t *testing.T) {
	ext := &followAll{}
	h := httptest.NewServer(Handler(directServer(), HTTPOptions{
		Guard: Guard{Loopback: true}, Timeout: time.Minute, Tasks: ext,
		Authenticate: func(next http.Handler) http.Handler { return next },
	}))
	t.Cleanup(h.Close)
	hdr := func(method, name string) map[string]string {
		return map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method, "Mcp-Name": name}
	}
	post := func(body string, header map[string]string) string {
		return postDirectCase(t, h.URL, directCase{body: body, header: header})
	}

	got := post(`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{`+tasksMeta+`,"name":"profile"}}`, hdr("tools/call", "profile"))
	assert.Equal(t, "200 application/json \n"+`{"jsonrpc":"2.0","id":"a","result":{"resultType":"task","taskId":"task_1","status":"working"}}`+"\n", got)
	got = post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{`+tasksMeta+`,"name":"fails"}}`, hdr("tools/call", "fails"))
	assert.Contains(t, got, `"isError":true`, "a tool the extension does not follow is answered as before")
	assert.Equal(t, []string{"profile"}, ext.created)

	got = post(`{"jsonrpc":"2.0","id":3,"method":"tasks/get","params":{`+tasksMeta+`,"taskId":"task_1"}}`, hdr("tasks/get", "task_1"))
	assert.Equal(t, "200 application/json \n"+`{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","taskId":"task_1","status":"working"}}`+"\n", got)
	assert.Equal(t, []string{"tasks/get"}, ext.served)

	plain := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}`
	got = post(`{"jsonrpc":"2.0","id":4,"method":"tasks/cancel","params":{`+plain+`,"taskId":"task_1"}}`, hdr("tasks/cancel", "task_1"))
	assert.True(t, strings.HasPrefix(got, "400 application/json"), got)
	assert.Contains(t, got, `"code":-32021`)
	assert.Contains(t, got, `"data":{"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`)

	for _, header := range []map[string]string{hdr("tasks/get", "task_2"), hdr("tasks/cancel", "task_1"),
		{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tasks/get"}} {
		got = post(`{"jsonrpc":"2.0","id":5,"method":"tasks/get","params":{`+tasksMeta+`,"taskId":"task_1"}}`, header)
		assert.True(t, strings.HasPrefix(got, "400 application/json"), got)
		assert.Contains(t, got, `"code":-32020`, "routing headers that do not name the task")
	}
	assert.Equal(t, []string{"tasks/get"}, ext.served, "a refused request never reaches the extension")
}

// TestTasksNegotiatedForTheSessionOnStdio: a stdio client that declared
// the extension at initialize needs no _meta; one that did not is refused.
func TestTasksNegotiatedForTheSessionOnStdio(t *testing.T) {
	for _, declared := range []bool{true, false} {
		ext := &followAll{}
		caps := `{}`
		if declared {
			caps = `{"extensions":{"io.modelcontextprotocol/tasks":{}}}`
		}
		lines := runStdio(t, directServer(), StdioOptions{Identity: known(tools.Caller{ID: "me", AuthMethod: "apikey"}), Tasks: ext},
			`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":`+caps+`,"clientInfo":{"name":"t","version":"1"}}}`,
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
			`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"profile"}}`,
			`{"jsonrpc":"2.0","id":3,"method":"tasks/get","params":{"taskId":"task_1"}}`,
		)
		require.Len(t, lines, 3)
		if declared {
			assert.Equal(t, `{"jsonrpc":"2.0","id":2,"result":{"resultType":"task","taskId":"task_1","status":"working"}}`, lines[1])
			assert.Equal(t, `{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","taskId":"task_1","status":"working"}}`, lines[2])
		} else {
			assert.Contains(t, lines[1], `"structuredContent":{"name":"R&D <labs>"`)
			assert.Equal(t, `{"jsonrpc":"2.0","id":3,"result":{"taskId":"task_1","status":"working"}}`, lines[2], "2025-11-25's tasks/get")
			assert.Empty(t, ext.created)
			assert.Equal(t, []string{"legacy tasks/get"}, ext.served)
		}
	}
}

// runStdio serves msgs one after another on a stdio session and returns
// the answers, one per request (a notification gets none).
func runStdio(t *testing.T, s *server.MCPServer, o StdioOptions, msgs ...string) []string {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- ServeStdio(context.Background(), s, inR, outW, o)
		outW.Close()
	}()
	out := bufio.NewScanner(outR)
	var answers []string
	for _, m := range msgs {
		_, err := io.WriteString(inW, m+"\n")
		require.NoError(t, err)
		if !strings.Contains(m, `"id"`) {
			continue
		}
		require.True(t, out.Scan(), "an answer to %s", m)
		answers = append(answers, out.Text())
	}
	require.NoError(t, inW.Close())
	require.NoError(t, <-done)
	return answers
}

// TestLegacyTaskCallsTakeTheOlderSurface: a 2025-11-25 call with
// params.task (the experimental tasks) becomes a task of the same
// extension in that revision's shape; params.task never reaches mcp-go,
// which would otherwise run a task of its own for a tool that declares
// execution.taskSupport, visible to every caller of a stateless service.
func TestLegacyTaskCallsTakeTheOlderSurface(t *testing.T) {
	s := directServer()
	tool := mcp.NewTool("profile")
	tool.Execution = &mcp.ToolExecution{TaskSupport: mcp.TaskSupportOptional}
	s.AddTool(tool, func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultStructured(json.RawMessage(`{"name":"R&D <labs>"}`), "R&D <labs>"), nil
	})
	ext := &followAll{}
	h := httptest.NewServer(Handler(s, HTTPOptions{
		Guard: Guard{Loopback: true}, Timeout: time.Minute, Tasks: ext,
		Authenticate: func(next http.Handler) http.Handler { return next },
	}))
	t.Cleanup(h.Close)
	legacy := map[string]string{"MCP-Protocol-Version": "2025-11-25"}
	post := func(body string, header map[string]string) string {
		return postDirectCase(t, h.URL, directCase{body: body, header: header})
	}

	got := post(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"profile","task":{"ttl":60000}}}`, legacy)
	assert.Equal(t, "200 application/json \n"+`{"jsonrpc":"2.0","id":1,"result":{"task":{"taskId":"task_1","status":"working"}}}`+"\n", got)
	got = post(`{"jsonrpc":"2.0","id":2,"method":"tasks/result","params":{"taskId":"task_1"}}`, legacy)
	assert.Contains(t, got, `"result":{"taskId":"task_1"`)
	assert.Equal(t, []string{"legacy profile"}, ext.created)
	assert.Equal(t, []string{"legacy tasks/result"}, ext.served)

	// A 2026-07-28 client that did not negotiate, sending params.task:
	// answered synchronously, not as mcp-go's own task.
	modern := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}`
	got = post(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{`+modern+`,"name":"profile","task":{"ttl":60000}}}`,
		map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "profile"})
	assert.Contains(t, got, `"structuredContent":{"name":"R&D <labs>"}`)
	assert.NotContains(t, got, `"task"`)
	got = post(`{"jsonrpc":"2.0","id":4,"method":"tasks/result","params":{`+modern+`,"taskId":"task_1"}}`,
		map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tasks/result", "Mcp-Name": "task_1"})
	assert.Contains(t, got, `"code":-32601`, "tasks/result is not the extension's")
	assert.Equal(t, []string{"legacy profile"}, ext.created)
}
