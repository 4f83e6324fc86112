package edge

import (
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEncodeResultIsJSONMarshal: a tool call's result is sent as its own
// MarshalJSON output, without json.Marshal's second pass, so the two must
// be the same bytes (one line, compact) for every shape a result takes.
func TestEncodeResultIsJSONMarshal(t *testing.T) {
	structured := mcp.NewToolResultStructured(json.RawMessage(`{"companies": [{"id": "c1", "name": "A \"quoted\" <name>"}],
 "total": 1}`), "{\"companies\":[{\"id\":\"c1\"}]}\nline two")
	failed := mcp.NewToolResultError("search_companies failed [rate_limited]: retry in 12 s")
	failed.Meta = &mcp.Meta{AdditionalFields: map[string]any{"error": map[string]any{"class": "rate_limited"}}}
	// What package tools answers with: compact structured JSON (HTML
	// characters unescaped) and text that needs every kind of escape.
	compact := mcp.NewToolResultStructured(json.RawMessage(`{"companies":[{"id":"c1","name":"R&D <labs> \"q\" \u2028"}],"total":1}`),
		"R&D <labs> \"quoted\" back\\slash\nline\ttab \x01 \u2028 \xff é 日本")
	compact.Content = append(compact.Content, mcp.TextContent{Type: "text", Text: "second"})
	typed := mcp.NewToolResultStructured(json.RawMessage(`{"ok":true}`), "ok")
	typed.ResultType = "complete"
	typed.IsError = true
	id, perr := ParseID(json.RawMessage("7"))
	require.Nil(t, perr)
	for name, v := range map[string]any{
		"structured and text":              structured,
		"compact structured, every escape": compact,
		"resultType and isError":           typed,
		"error with _meta":                 failed,
		"empty":                            &mcp.CallToolResult{},
		"another kind of result":           mcp.ListToolsResult{Tools: []mcp.Tool{}},
	} {
		t.Run(name, func(t *testing.T) {
			want, err := json.Marshal(v)
			require.NoError(t, err)
			got, err := encodeResult(v)
			require.NoError(t, err)
			assert.Equal(t, string(ResultReply(id, want)), string(ResultReply(id, got)), "the same on the wire")
			assert.NotContains(t, string(got), "\n", "a reply is one line")
			assert.True(t, json.Valid(got))
		})
	}
}
