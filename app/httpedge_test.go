package app

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/internal/edge"
)

// These tests post the stdio edge's hostile frames to the HTTP server
// (app.Run with --http, mcp-go's Streamable HTTP handler behind the edge,
// the embedded backend) and check the exact bytes and status that come back.

func TestHTTPHostileFramesGetTheAnswersStdioGives(t *testing.T) {
	s := newAuthStack(t)
	srv, err := startHTTP(t, serviceEnv(t, s, "dora"), "--endpoint", s.srv.URL())
	require.NoError(t, err)
	for _, f := range hostileFrames {
		t.Run(f.name, func(t *testing.T) {
			resp := post(t, srv.base, f.send, map[string]string{"MCP-Protocol-Version": "2025-11-25"})
			got := strings.TrimSpace(readBody(t, resp))
			if f.want == "" {
				assert.Equal(t, http.StatusAccepted, resp.StatusCode, "nothing to answer: 202")
				assert.Empty(t, got)
				return
			}
			assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
			assert.Equal(t, f.want, got)
			assert.NotRegexp(t, goisms, got)
			assert.NotContains(t, got, `"code":-32603`, "a caller's mistake is not a server fault")
		})
	}
}

// modernPost sends one 2026-07-28 request, headers and _meta included.
func modernPost(t *testing.T, base, id, method, name, params string) (int, string) {
	t.Helper()
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":{"_meta":%s%s}}`, id, method, modernMeta, params)
	resp := post(t, base, body, modernHeaders(method, name))
	return resp.StatusCode, strings.TrimSpace(readBody(t, resp))
}

func TestHTTPModernRevisionGetsExactIdsPlainWordsAndItsStatuses(t *testing.T) {
	s := newAuthStack(t)
	srv, err := startHTTP(t, serviceEnv(t, s, "dora"), "--endpoint", s.srv.URL())
	require.NoError(t, err)

	status, got := modernPost(t, srv.base, "123456789012345678901234567890", "tools/call", "get_company",
		`,"name":"get_company","arguments":{"id":"cmp_000001"}`)
	assert.Equal(t, http.StatusOK, status, got)
	assert.True(t, strings.HasPrefix(got, `{"jsonrpc":"2.0","id":123456789012345678901234567890,"result":{`), got)

	status, got = modernPost(t, srv.base, `"7"`, "tools/call", "no_such_tool", `,"name":"no_such_tool"`)
	assert.Equal(t, http.StatusBadRequest, status, "2026-07-28 gives invalid params 400")
	assert.Equal(t, `{"jsonrpc":"2.0","id":"7","error":{"code":-32602,"message":"unknown tool \"no_such_tool\"; tools/list names the tools this server serves"}}`, got)

	// mcp-go answers -32603 (200) from the prompt's handler; the check
	// answers -32602, and the status follows the code.
	status, got = modernPost(t, srv.base, "9007199254740993", "prompts/get", "research_company", `,"name":"research_company"`)
	assert.Equal(t, http.StatusBadRequest, status, got)
	assert.Equal(t, `{"jsonrpc":"2.0","id":9007199254740993,"error":{"code":-32602,"message":"prompt research_company: argument \"company\" is required (The company's name, domain or id (cmp_…))"}}`, got)

	// The transport's own refusal stands, with the client's id.
	resp := post(t, srv.base, fmt.Sprintf(`{"jsonrpc":"2.0","id":18446744073709551616,"method":"prompts/get","params":{"_meta":%s,"name":"research_company"}}`, modernMeta),
		map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "prompts/get", "Mcp-Name": "research_company", "Last-Event-ID": "1"})
	got = strings.TrimSpace(readBody(t, resp))
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode, got)
	assert.Contains(t, got, fmt.Sprintf(`"id":18446744073709551616,"error":{"code":%d,`, mcp.HEADER_MISMATCH))
	assert.NotRegexp(t, goisms, got)
}

// Each transport parses an incoming message once (edge.Parse, counted):
// on HTTP the body cap, the frame rules, metrics, the scope check, tracing
// and the hand-off to mcp-go all read the one parse ReadMessage made; on
// stdio the read loop's parse is the one the handler serves. mcp-go's own
// decode of the message is not counted: it is the one the edge exists to
// feed.
func TestEachTransportParsesAnIncomingMessageOnce(t *testing.T) {
	s := newAuthStack(t)
	call := func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"get_company","arguments":{"id":"cmp_000001"}}}`
	}

	t.Run("http", func(t *testing.T) {
		srv, err := startHTTP(t, serviceEnv(t, s, "dora"), "--endpoint", s.srv.URL())
		require.NoError(t, err)
		for _, id := range []string{"7", `"plain"`, "123456789012345678901234567890", `"<&>"`} {
			before := edge.Parses()
			resp := post(t, srv.base, call(id), map[string]string{"MCP-Protocol-Version": "2025-11-25"})
			got := readBody(t, resp)
			require.Equal(t, http.StatusOK, resp.StatusCode, got)
			assert.True(t, strings.HasPrefix(got, `{"jsonrpc":"2.0","id":`+id+`,"result":{`), got)
			assert.Equal(t, int64(1), edge.Parses()-before, "id %s", id)
		}
	})
	t.Run("stdio", func(t *testing.T) {
		r, err := start(t, s, map[string]string{"APPSYNC_API_KEY": s.srv.Backend().APIKey()})
		require.NoError(t, err)
		r.send(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)
		r.answer(1)
		before := edge.Parses()
		r.send(call("2"))
		assert.Contains(t, r.answer(2), "result")
		assert.Equal(t, int64(1), edge.Parses()-before)
	})
}

// Each transport hands mcp-go the message as sent when mcp-go reads and
// writes its id back exactly, and copies it with an id of the edge's own
// only when it would not (edge.IDSwaps counts the copies): stdio once
// swapped every request's id, and mcp-go's answer to it is never read for
// the id anyway.
func TestEachTransportSwapsOnlyTheIDsMCPGoWouldChange(t *testing.T) {
	s := newAuthStack(t)
	call := func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"get_company","arguments":{"id":"cmp_000001"}}}`
	}
	swaps := map[string]int64{"7": 0, `"plain"`: 0, "123456789012345678901234567890": 1, `"<&>"`: 1}

	t.Run("http", func(t *testing.T) {
		srv, err := startHTTP(t, serviceEnv(t, s, "dora"), "--endpoint", s.srv.URL())
		require.NoError(t, err)
		for id, want := range swaps {
			before := edge.IDSwaps()
			got := readBody(t, post(t, srv.base, call(id), map[string]string{"MCP-Protocol-Version": "2025-11-25"}))
			assert.True(t, strings.HasPrefix(got, `{"jsonrpc":"2.0","id":`+id+`,"result":{`), got)
			assert.Equal(t, want, edge.IDSwaps()-before, "id %s", id)
		}
	})
	t.Run("stdio", func(t *testing.T) {
		r, err := start(t, s, map[string]string{"APPSYNC_API_KEY": s.srv.Backend().APIKey()})
		require.NoError(t, err)
		for id, want := range swaps {
			before := edge.IDSwaps()
			r.send(call(id))
			require.True(t, r.out.Scan(), "no answer to %s", id)
			assert.True(t, strings.HasPrefix(r.out.Text(), `{"jsonrpc":"2.0","id":`+id+`,"result":{`), r.out.Text())
			assert.Equal(t, want, edge.IDSwaps()-before, "id %s", id)
		}
	})
}

// The metrics count the answer the client got, which the edge may have
// reworded: a prompts/get missing its argument is -32602 to the client, and
// so in /metrics, though mcp-go's hooks saw its prompt handler fail
// (-32603, a server fault); a params member of the wrong type is -32602,
// though mcp-go called it -32600.
func TestHTTPMetricsCountTheCodeTheClientGot(t *testing.T) {
	s := newAuthStack(t)
	srv, err := startHTTP(t, serviceEnv(t, s, "dora"), "--endpoint", s.srv.URL())
	require.NoError(t, err)
	status, got := modernPost(t, srv.base, "1", "prompts/get", "research_company", `,"name":"research_company"`)
	require.Equal(t, http.StatusBadRequest, status, got)
	require.Contains(t, got, `"code":-32602`)
	status, got = modernPost(t, srv.base, "2", "tools/list", "", `,"cursor":5`)
	require.Equal(t, http.StatusBadRequest, status, got)
	require.Contains(t, got, `"code":-32602`)

	resp, err := http.Get(srv.base + "/metrics")
	require.NoError(t, err)
	page := readBody(t, resp)
	assert.Contains(t, page, `mcp_server_operation_duration_seconds_count{error_type="-32602",gen_ai_tool_name="",mcp_method_name="prompts/get",mcp_protocol_version="2026-07-28",network_transport="tcp",rpc_response_status_code="-32602"} 1`)
	assert.Contains(t, page, `mcp_server_operation_duration_seconds_count{error_type="-32602",gen_ai_tool_name="",mcp_method_name="tools/list",mcp_protocol_version="2026-07-28",network_transport="tcp",rpc_response_status_code="-32602"} 1`)
}
