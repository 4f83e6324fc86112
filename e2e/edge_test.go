package e2e

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// goisms are what no answer may show: Go types, struct paths, package
// names, encoding/json's wording.
var goisms = regexp.MustCompile(`(?i)json:|go value|go struct|struct field|unmarshal|interface \{|map\[|mcp\.|server\.|github\.com|runtime error|panic`)

// TestHostileFramesThenEndOfInput writes a burst of hostile and odd frames
// with a real tool call among them to the built binary, closes its input at
// once, and checks every byte it wrote: one exact answer per request, none
// for notifications or the client's own responses, ids as sent, and exit 0
// once the last answer is out (the drain bound never came into it).
func TestHostileFramesThenEndOfInput(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	r := startRaw(t, ctx)
	r.initialize(t, ctx)

	frames := []string{
		`{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"tools/call","params":{"name":"search_companies","arguments":{"query":"robotics","limit":2}}}`,
		`not json at all`,
		`[{"jsonrpc":"2.0","id":2,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":true,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"7","method":"ping"}`,
		`{"jsonrpc":"2.0","id":7,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":8,"method":"tools/list","result":{}}`,
		`{"jsonrpc":"2.0","id":9}`,
		`{"jsonrpc":"2.0","id":10,"result":{"from":"the client"}}`,
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"123456789012345678901234567890"}}`,
		`{"jsonrpc":"2.0","id":11,"method":"prompts/get","params":{"name":"research_company"}}`,
		`{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":["search_companies"]}}`,
	}
	before := len(r.stdout.lines())
	_, err := r.stdin.Write([]byte(strings.Join(frames, "\n") + "\n"))
	require.NoError(t, err)
	require.NoError(t, r.stdin.Close())
	assert.Equal(t, 0, r.wait(t, ctx, "closing its input"), "exit code at end of input")

	want := []string{
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"the message is not valid JSON; unexpected 'o' at byte 2"}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"batches (JSON arrays of messages) are not supported: JSON-RPC 2.0 allows them but MCP 2025-11-25 removed them; send each message as its own line (on HTTP, its own POST)"}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"member \"id\" must be a string or an integer; this one is a boolean"}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"member \"id\" is null: MCP requires a string or an integer id on every request (leave \"id\" out to send a notification)"}}`,
		`{"jsonrpc":"2.0","id":"7","result":{}}`,
		`{"jsonrpc":"2.0","id":7,"result":{}}`,
		`{"jsonrpc":"2.0","id":8,"error":{"code":-32600,"message":"a request must not carry \"result\" or \"error\": those members belong only in answers"}}`,
		`{"jsonrpc":"2.0","id":9,"error":{"code":-32600,"message":"member \"method\" is missing: a request needs the name of the method to call"}}`,
		`{"jsonrpc":"2.0","id":11,"error":{"code":-32602,"message":"prompt research_company: argument \"company\" is required (The company's name, domain or id (cmp_…))"}}`,
		`{"jsonrpc":"2.0","id":12,"error":{"code":-32602,"message":"invalid params for tools/call: member \"params.name\" must be a string; this one is an array"}}`,
	}
	got := r.stdout.lines()[before:]
	var call string
	var rest []string
	for _, l := range got {
		assert.NotRegexp(t, goisms, l)
		if strings.HasPrefix(l, `{"jsonrpc":"2.0","id":123456789012345678901234567890,`) {
			call = l
			continue
		}
		rest = append(rest, l)
	}
	assert.ElementsMatch(t, want, rest, "one exact answer per request, nothing for notifications and responses")

	// The tool call was answered in full with its id byte for byte; the
	// cancellation named the string "1234…", not this integer.
	require.NotEmpty(t, call, "the tool call's answer, with its id as sent")
	var res struct {
		Result struct {
			IsError bool `json:"isError"`
		} `json:"result"`
	}
	require.NoError(t, json.Unmarshal([]byte(call), &res))
	assert.False(t, res.Result.IsError, "search_companies: %s", call)

	assert.NotContains(t, r.stderr.String(), "requests still open after the drain bound", "it ended with the last answer, not at the bound")
}
