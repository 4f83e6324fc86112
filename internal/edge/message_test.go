package edge

import (
	"testing"
)

// TestMessageReadsParamsAsMcpGoDoes: the scope check and the metrics read
// the tool's name from the Message, and mcp-go reads it with Go's decoder,
// which matches names case-insensitively and keeps the last one written. A
// name the edge read differently would let a write tool pass as another.
func TestMessageReadsParamsAsMcpGoDoes(t *testing.T) {
	for _, tt := range []struct {
		body, tool, version string
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_company"}}`, "get_company", ""},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"NAME":"create_collection"}}`, "create_collection", ""},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_company","Name":"add_to_collection"}}`, "add_to_collection", ""},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"n\u0061me":"add_to_collection"}}`, "add_to_collection", ""},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":7}}`, "", ""},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`, "x", "2026-07-28"},
		{`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`, "", "2025-11-25"},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"name":"get_company"}}`, "", ""},
	} {
		f, err := Parse([]byte(tt.body))
		if err != nil {
			t.Fatalf("%s: %v", tt.body, err)
		}
		m := messageOf(f)
		if m.Tool != tt.tool || m.ProtocolVersion != tt.version {
			t.Errorf("%s: tool %q, version %q; want %q, %q", tt.body, m.Tool, m.ProtocolVersion, tt.tool, tt.version)
		}
	}
}
