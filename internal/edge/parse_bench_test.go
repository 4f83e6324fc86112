package edge

import "testing"

// BenchmarkParseToolCall is the edge's one parse of a 2026-07-28 tools/call,
// the message every call carries (BENCHMARKS.md, issue 24).
//
//	go test -run '^$' -bench ParseToolCall -benchmem ./internal/edge
func BenchmarkParseToolCall(b *testing.B) {
	msg := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"}},"name":"get_company","arguments":{"id":"cmp_000001"}}}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(msg); err != nil {
			b.Fatal(err)
		}
	}
}
