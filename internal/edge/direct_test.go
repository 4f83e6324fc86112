package edge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
)

// directServer is an mcp-go server with something of each kind direct
// answers: tools with structured and text results, a tool error, a
// handler error, a tool binding an argument to a header, resources, a
// template and a prompt.
func directServer() *server.MCPServer {
	s := server.NewMCPServer("t", "1", server.WithToolCapabilities(false),
		server.WithResourceCapabilities(false, false), server.WithPromptCapabilities(false))
	s.AddTool(mcp.NewTool("say", mcp.WithString("what")), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("R&D <labs> " + req.GetString("what", "")), nil
	})
	s.AddTool(mcp.NewTool("profile"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultStructured(json.RawMessage(`{"name":"R&D <labs>","n":12345678901234567890}`), "R&D <labs>\nline two"), nil
	})
	s.AddTool(mcp.NewTool("fails"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultError("get_company: not_found: no company cmp_9"), nil
	})
	s.AddTool(mcp.NewTool("breaks"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, errors.New("the handler broke")
	})
	s.AddTool(mcp.NewToolWithRawSchema("bound", "binds region to a header",
		json.RawMessage(`{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}`)),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("bound"), nil
		})
	s.AddResource(mcp.NewResource("status://server", "status", mcp.WithMIMEType("text/plain")),
		func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: "status://server", MIMEType: "text/plain", Text: "ok & <fine>"}}, nil
		})
	s.AddResourceTemplate(mcp.NewResourceTemplate("company://{id}", "company"),
		func(_ context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, Text: "company"}}, nil
		})
	s.AddPrompt(mcp.NewPrompt("p"), func(context.Context, mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return mcp.NewGetPromptResult("d", nil), nil
	})
	return s
}

// directCase is one request: its body and the headers besides
// Content-Type and Accept.
type directCase struct {
	name   string
	body   string
	header map[string]string
}

func directCases() []directCase {
	legacy := map[string]string{"MCP-Protocol-Version": "2025-11-25"}
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}`
	// modern is the headers 2026-07-28 asks for; more, as name and value
	// pairs, are added to them.
	modern := func(method, name string, more ...string) map[string]string {
		h := map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method, "Mcp-Name": name}
		if name == "" {
			delete(h, "Mcp-Name")
		}
		for len(more) >= 2 {
			h[more[0]], more = more[1], more[2:]
		}
		return h
	}
	call := func(id, params string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":` + params + `}`
	}
	var cases []directCase
	for _, id := range []string{`1`, `"abc"`, `12345678901234567890`, `"<x>"`, `-0`} {
		cases = append(cases,
			directCase{"legacy call, id " + id, call(id, `{"name":"say","arguments":{"what":"hi"}}`), legacy},
			directCase{"modern call, id " + id, call(id, `{`+meta+`,"name":"say","arguments":{"what":"hi"}}`), modern("tools/call", "say")},
		)
	}
	for _, p := range []string{
		`{"name":"profile"}`, `{"name":"fails"}`, `{"name":"breaks"}`, `{"name":"nope"}`, `{"name":""}`,
		`{"name":7}`, `{"name":"say","arguments":{"what":7}}`, `{"name":"say","arguments":[]}`, `[]`, `"x"`,
	} {
		cases = append(cases, directCase{"legacy call " + p, call(`2`, p), legacy})
		if strings.HasPrefix(p, `{"name":"`) && !strings.HasPrefix(p, `{"name":""`) {
			name := strings.SplitN(p, `"`, 5)[3]
			cases = append(cases, directCase{"modern call " + p, call(`2`, `{`+meta+`,`+p[1:]), modern("tools/call", name)})
		}
	}
	for _, m := range []struct{ method, params, name string }{
		{"tools/list", `{}`, ""},
		{"tools/list", `{"cursor":"!!"}`, ""},
		{"resources/list", `{}`, ""},
		{"resources/templates/list", `{}`, ""},
		{"resources/read", `{"uri":"status://server"}`, "status://server"},
		{"resources/read", `{"uri":"company://cmp_1"}`, "company://cmp_1"},
		{"resources/read", `{"uri":"nowhere://x"}`, "nowhere://x"},
		{"resources/read", `{}`, ""},
		{"prompts/list", `{}`, ""},
		{"ping", `{}`, ""},
		{"prompts/get", `{"name":"p"}`, "p"},
		{"initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`, ""},
	} {
		body := `{"jsonrpc":"2.0","id":3,"method":"` + m.method + `","params":` + m.params + `}`
		cases = append(cases, directCase{"legacy " + m.method + " " + m.params, body, legacy})
		mp := `{` + meta
		if m.params != `{}` {
			mp += `,` + m.params[1:]
		} else {
			mp += `}`
		}
		cases = append(cases, directCase{"modern " + m.method + " " + m.params,
			`{"jsonrpc":"2.0","id":3,"method":"` + m.method + `","params":` + mp + `}`, modern(m.method, m.name)})
	}
	say := call(`4`, `{`+meta+`,"name":"say"}`)
	bound := func(region string) string {
		return call(`5`, `{`+meta+`,"name":"bound","arguments":{"region":"`+region+`"}}`)
	}
	cases = append(cases,
		directCase{"no version header", call(`4`, `{"name":"say"}`), nil},
		directCase{"an older version header", call(`4`, `{"name":"say"}`), map[string]string{"MCP-Protocol-Version": "2025-06-18"}},
		directCase{"an unknown version header", call(`4`, `{"name":"say"}`), map[string]string{"MCP-Protocol-Version": "1999-01-01"}},
		directCase{"text/plain", call(`4`, `{"name":"say"}`), map[string]string{"MCP-Protocol-Version": "2025-11-25", "Content-Type": "text/plain"}},
		directCase{"json with a charset", call(`4`, `{"name":"say"}`), map[string]string{"MCP-Protocol-Version": "2025-11-25", "Content-Type": "application/json; charset=utf-8"}},
		directCase{"modern without Mcp-Method", say, map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Name": "say"}},
		directCase{"modern with another Mcp-Name", say, modern("tools/call", "profile")},
		directCase{"modern with Mcp-Method of another", say, modern("tools/list", "say")},
		directCase{"modern with an older header", say, map[string]string{"MCP-Protocol-Version": "2025-11-25", "Mcp-Method": "tools/call", "Mcp-Name": "say"}},
		directCase{"modern body, no header", say, nil},
		directCase{"modern header, no _meta", call(`4`, `{"name":"say"}`), modern("tools/call", "say")},
		directCase{"modern with Last-Event-ID", say, modern("tools/call", "say", "Last-Event-ID", "7")},
		directCase{"a future version", strings.Replace(say, "2026-07-28", "2099-01-01", 1), map[string]string{"MCP-Protocol-Version": "2099-01-01", "Mcp-Method": "tools/call", "Mcp-Name": "say"}},
		directCase{"the version key in another case", strings.Replace(say, "protocolVersion", "ProtocolVersion", 1), modern("tools/call", "say")},
		directCase{"_meta in another case", strings.Replace(say, `"_meta"`, `"_META"`, 1), modern("tools/call", "say")},
		directCase{"modern without client capabilities", call(`4`, `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"name":"say"}`), modern("tools/call", "say")},
		directCase{"a bound argument and its header", bound("eu"), modern("tools/call", "bound", "Mcp-Param-Region", "ZXU=")},
		directCase{"a bound argument without its header", bound("eu"), modern("tools/call", "bound")},
	)
	return cases
}

// TestDirectAnswersAsMCPGosHandlerDoes holds what direct answers to what
// the same request gets through mcp-go's Streamable HTTP handler (and
// httpEdge's rewriting of its answer): the same status, Content-Type and
// body, over requests of every kind direct takes and many it must leave.
func TestDirectAnswersAsMCPGosHandlerDoes(t *testing.T) {
	s := directServer()
	serve := func(viaMCPGoOnly bool) string {
		h := httptest.NewServer(Handler(s, HTTPOptions{
			Guard: Guard{Loopback: true}, Timeout: time.Minute, viaMCPGoOnly: viaMCPGoOnly,
			Authenticate: func(next http.Handler) http.Handler { return next },
		}))
		t.Cleanup(h.Close)
		return h.URL
	}
	withDirect, viaMCPGo := serve(false), serve(true)

	before := directAnswers.Load()
	for _, c := range directCases() {
		want := postDirectCase(t, viaMCPGo, c)
		got := postDirectCase(t, withDirect, c)
		assert.Equal(t, want, got, c.name)
	}
	// Most of the cases are ones direct takes; the test would hold
	// vacuously if it took none.
	assert.GreaterOrEqual(t, directAnswers.Load()-before, int64(40), "requests direct answered")
}

// TestDirectTakesPlainRequestsAndLeavesTheRest names the path some requests
// take: direct answers plain calls, lists and reads on both revisions;
// mcp-go's handler answers what the transport refuses (a version it does
// not know, a header that does not match the body), what it keeps state or
// order for (initialize, prompts/get) and calls with a header-bound
// argument.
func TestDirectTakesPlainRequestsAndLeavesTheRest(t *testing.T) {
	s := directServer()
	h := httptest.NewServer(Handler(s, HTTPOptions{
		Guard: Guard{Loopback: true}, Timeout: time.Minute,
		Authenticate: func(next http.Handler) http.Handler { return next },
	}))
	t.Cleanup(h.Close)
	taken := map[string]bool{}
	for _, c := range directCases() {
		before := directAnswers.Load()
		postDirectCase(t, h.URL, c)
		taken[c.name] = directAnswers.Load() > before
	}
	for _, name := range []string{
		"legacy call, id 1", "modern call, id \"<x>\"", "legacy call {\"name\":\"nope\"}", "modern resources/read {\"uri\":\"status://server\"}",
		"no version header", "an older version header", "json with a charset", "modern call {\"name\":\"breaks\"}",
	} {
		assert.True(t, taken[name], "direct answers %s", name)
	}
	for _, name := range []string{
		"legacy prompts/get {\"name\":\"p\"}", "legacy initialize {\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}",
		"an unknown version header", "text/plain", "modern without Mcp-Method", "modern with another Mcp-Name", "modern body, no header",
		"modern with Last-Event-ID", "a future version", "the version key in another case", "_meta in another case",
		"a bound argument and its header", "a bound argument without its header",
	} {
		assert.False(t, taken[name], "mcp-go's handler answers %s", name)
	}
}

// postDirectCase sends c and returns what the client sees of the answer.
func postDirectCase(t *testing.T, url string, c directCase) string {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(c.body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range c.header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return fmt.Sprintf("%d %s %s\n%s", resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Mcp-Session-Id"), b)
}
