package app

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/internal/config"
	"github.com/companyintel/mcp-server/views"
)

// handle sends one request through the server's message handler under
// 2026-07-28 and returns its result.
func handle(t *testing.T, s *server.MCPServer, method, params string) map[string]any {
	t.Helper()
	resp := s.HandleMessage(context.Background(), json.RawMessage(fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":%q,"params":%s}`, method, params)))
	b, err := json.Marshal(resp)
	require.NoError(t, err)
	var out struct {
		Result map[string]any `json:"result"`
		Error  any            `json:"error"`
	}
	require.NoError(t, json.Unmarshal(b, &out))
	require.Nil(t, out.Error, "%s failed: %s", method, b)
	return out.Result
}

// TestToolsLinkTheirViews holds the MCP Apps contract on the catalogue: the
// four tools with a view name it in _meta.ui.resourceUri, the others carry
// no _meta, and every linked URI is a listed resource of the extension's
// MIME type whose read answers the same type, a whole HTML document and an
// empty CSP (the view loads nothing).
func TestToolsLinkTheirViews(t *testing.T) {
	s, _ := testServer(t, config.Mutations{}, false)
	linked := map[string]string{}
	for _, tool := range listTools(t, s) {
		name := tool["name"].(string)
		meta, ok := tool["_meta"].(map[string]any)
		if !ok {
			continue
		}
		linked[name] = meta["ui"].(map[string]any)["resourceUri"].(string)
	}
	assert.Equal(t, map[string]string{
		"search_companies":     views.SearchURI,
		"ai_search":            views.SearchURI,
		"get_company":          views.ProfileURI,
		"get_collection_items": views.CollectionURI,
	}, linked)

	listed := map[string]map[string]any{}
	for _, r := range handle(t, s, "resources/list", `{"_meta":`+modernMeta+`}`)["resources"].([]any) {
		r := r.(map[string]any)
		listed[r["uri"].(string)] = r
	}
	for _, uri := range linked {
		r, ok := listed[uri]
		require.True(t, ok, "%s is linked from a tool but not listed", uri)
		assert.Equal(t, "text/html;profile=mcp-app", r["mimeType"], uri)

		res := handle(t, s, "resources/read", fmt.Sprintf(`{"uri":%q,"_meta":%s}`, uri, modernMeta))
		contents := res["contents"].([]any)
		require.Len(t, contents, 1)
		c := contents[0].(map[string]any)
		assert.Equal(t, uri, c["uri"])
		assert.Equal(t, "text/html;profile=mcp-app", c["mimeType"])
		assert.Equal(t, map[string]any{"ui": map[string]any{"csp": map[string]any{}, "prefersBorder": true}}, c["_meta"], uri)
		assert.Regexp(t, `^<!doctype html>\n<html lang="en">`, c["text"], uri)
		assert.Regexp(t, `</html>\n$`, c["text"], uri)
	}
}

// TestStatusSaysWhereViewsShow: the status resource names the extension, the
// tool each view is for, and which hosts show them.
func TestStatusSaysWhereViewsShow(t *testing.T) {
	s := newBoundedSession(t, map[string]string{"x-test-user": "alice"}, 0, 5000)
	res := s.rpc("resources/read", fmt.Sprintf(`{"uri":%q}`, StatusURI))
	var st Status
	require.NoError(t, json.Unmarshal([]byte(obj(list(res["contents"])[0])["text"].(string)), &st))
	assert.Equal(t, "io.modelcontextprotocol/ui", st.Views.Extension)
	assert.Equal(t, views.ProfileURI, st.Views.Views["get_company"])
	assert.Contains(t, st.Views.ShownBy, "Claude")
	assert.Contains(t, st.Views.ShownBy, "same text and structured answers")
}
