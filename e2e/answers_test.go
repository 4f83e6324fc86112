package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The must-show for answers, measured on the built binary: the bytes
// a client receives for one tools/call, both renderings included, on stdio
// and on HTTP.

// defaultAnswerBudget is the most a default search answer (20 companies)
// may cost on the wire (DESIGN.md, "Agent contract").
const defaultAnswerBudget = 10_000

// wireAnswer is one tools/call answer as the client receives it: the raw
// JSON-RPC message and its decoded result.
type wireAnswer struct {
	raw    []byte
	result struct {
		IsError           bool `json:"isError"`
		StructuredContent struct {
			Companies  []map[string]any `json:"companies"`
			Total      int              `json:"total"`
			NextCursor string           `json:"next_cursor"`
			Truncated  bool             `json:"truncated"`
			Note       string           `json:"note"`
		} `json:"structuredContent"`
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
}

func decodeWire(t *testing.T, raw []byte) wireAnswer {
	t.Helper()
	var msg struct {
		Result json.RawMessage `json:"result"`
	}
	require.NoError(t, json.Unmarshal(raw, &msg), "%s", raw)
	a := wireAnswer{raw: raw}
	require.NoError(t, json.Unmarshal(msg.Result, &a.result), "%s", raw)
	require.False(t, a.result.IsError, "%s", raw)
	require.Len(t, a.result.Content, 1)
	return a
}

// callStdio sends tools/calls to a raw stdio server and returns each answer line.
func callStdio(t *testing.T, ctx context.Context, r *rawServer, id int, tool string, args map[string]any) wireAnswer {
	t.Helper()
	r.send(t, map[string]any{"id": id, "method": "tools/call", "params": map[string]any{"name": tool, "arguments": args}})
	r.response(t, ctx, id)
	for _, line := range r.stdout.lines() {
		if strings.HasPrefix(line, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":`, id)) {
			return decodeWire(t, []byte(line))
		}
	}
	t.Fatalf("no answer line for request %d", id)
	return wireAnswer{}
}

// callHTTP posts one tools/call to a local-mode HTTP server and returns the
// JSON-RPC answer it carried (the body, or the event's data line).
func callHTTP(t *testing.T, ctx context.Context, base string, tool string, args map[string]any) wireAnswer {
	t.Helper()
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": map[string]any{"name": tool, "arguments": args}})
	require.NoError(t, err)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/mcp", strings.NewReader(string(body)))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", mcp.ProtocolVersion20251125)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", b)
	raw := strings.TrimSpace(string(b))
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		for _, l := range strings.Split(raw, "\n") {
			if d, ok := strings.CutPrefix(l, "data: "); ok && strings.Contains(d, `"result"`) {
				raw = d
			}
		}
	}
	return decodeWire(t, []byte(raw))
}

// checkDefaultSearch holds a default search answer to the budget.
func checkDefaultSearch(t *testing.T, a wireAnswer, transport string) {
	t.Helper()
	t.Logf("%s: default search_companies answer is %d bytes on the wire", transport, len(a.raw))
	require.Len(t, a.result.StructuredContent.Companies, 20, "a default page: 20 companies")
	assert.LessOrEqual(t, len(a.raw), defaultAnswerBudget, "%s: the default answer outgrew its budget", transport)
	assert.NotContains(t, string(a.raw), `\u0026`, "no HTML escapes on the wire")
	for _, c := range a.result.StructuredContent.Companies {
		assert.Contains(t, a.result.Content[0].Text, c["id"], "the text names every company")
	}
}

// checkLimit100 holds a limit=100 answer to the default bound: cut, said
// so, with a cursor that continues.
func checkLimit100(t *testing.T, a wireAnswer, transport string) {
	t.Helper()
	sc := a.result.StructuredContent
	t.Logf("%s: limit=100 answer is %d bytes on the wire, %d companies", transport, len(a.raw), len(sc.Companies))
	assert.True(t, sc.Truncated, "a hundred summaries do not fit 16 KB")
	assert.Contains(t, sc.Note, "answer size bound")
	assert.NotEmpty(t, sc.NextCursor)
	assert.Less(t, len(sc.Companies), 100)
	assert.LessOrEqual(t, len(a.raw), 16384+200, "the bound counts both renderings; the envelope adds a little")
}

func TestAnswerSizesOnTheWire(t *testing.T) {
	search := map[string]any{"query": "software"}
	many := map[string]any{"query": "software", "limit": 100}
	t.Run("stdio", func(t *testing.T) {
		t.Parallel()
		ctx := testContext(t)
		r := startRaw(t, ctx)
		r.initialize(t, ctx)
		checkDefaultSearch(t, callStdio(t, ctx, r, 2, "search_companies", search), "stdio")
		first := callStdio(t, ctx, r, 3, "search_companies", many)
		checkLimit100(t, first, "stdio")

		// The cursor continues at the first company not shown: the two
		// pages together are the ids_only listing's first companies.
		ref := callStdio(t, ctx, r, 4, "search_companies", map[string]any{"query": "software", "limit": 100, "ids_only": true})
		require.False(t, ref.result.StructuredContent.Truncated)
		next := callStdio(t, ctx, r, 5, "search_companies", map[string]any{"query": "software", "limit": 100, "cursor": first.result.StructuredContent.NextCursor})
		var got, want []any
		for _, c := range append(first.result.StructuredContent.Companies, next.result.StructuredContent.Companies...) {
			got = append(got, c["id"])
		}
		for _, c := range ref.result.StructuredContent.Companies[:min(len(got), len(ref.result.StructuredContent.Companies))] {
			want = append(want, c["id"])
		}
		assert.Equal(t, want, got[:len(want)])
	})
	t.Run("HTTP", func(t *testing.T) {
		t.Parallel()
		ctx := testContext(t)
		base, _ := startHTTPProcess(t)
		checkDefaultSearch(t, callHTTP(t, ctx, base, "search_companies", search), "HTTP")
		checkLimit100(t, callHTTP(t, ctx, base, "search_companies", many), "HTTP")
	})
	t.Run("a small configured bound", func(t *testing.T) {
		t.Parallel()
		ctx := testContext(t)
		r := startRawWith(t, ctx, []string{"MCP_MAX_ANSWER_BYTES=3000"})
		r.initialize(t, ctx)
		a := callStdio(t, ctx, r, 2, "search_companies", search)
		sc := a.result.StructuredContent
		assert.True(t, sc.Truncated)
		assert.Contains(t, sc.Note, "3000-byte answer size bound")
		assert.Less(t, len(sc.Companies), 20)
		assert.LessOrEqual(t, len(a.raw), 3000+200)
	})
}
