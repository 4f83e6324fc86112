package app

import (
	"encoding/json"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/appsynclocal"
	"github.com/companyintel/mcp-server/internal/edge"
)

// These tests send hostile and odd frames through the whole server
// (app.Run over pipes, the JSON-RPC edge, mcp-go, the tools, the embedded
// backend) and check the exact bytes that come back.

// goisms are what no answer may show: Go types (pointer types too),
// struct paths, package names, encoding/json's wording.
var goisms = regexp.MustCompile(`(?i)json:|illegal base64|invalid character|unexpected end of json|strconv\.|go value|go struct|struct field|unmarshal|interface \{|map\[|mcp\.|server\.|github\.com|runtime error|panic|\*[a-z]\w*\.[A-Z]`)

// drainBoundLine is logged only when end of input waited out its bound.
const drainBoundLine = "requests still open after the drain bound"

// untilEOF closes the input and reads every line the server writes until
// Run returns and closes the output.
func (r *running) untilEOF() []string {
	r.t.Helper()
	require.NoError(r.t, r.in.Close())
	return r.rest(r.collect())
}

// collect reads the server's output from now on, as a client does while
// it writes: the pipe has no buffer, so an unread answer would block it.
func (r *running) collect() <-chan []string {
	c := make(chan []string, 1)
	go func() {
		var out []string
		for r.out.Scan() {
			out = append(out, r.out.Text())
		}
		c <- out
	}()
	return c
}

// rest waits for Run to return and for the lines collect gathered.
func (r *running) rest(c <-chan []string) []string {
	r.t.Helper()
	out := <-c
	select {
	case err := <-r.done:
		require.NoError(r.t, err, "Run at end of input")
	case <-time.After(time.Minute):
		r.t.Fatal("Run did not return after end of input")
	}
	return out
}

// hostileFrame is one message a client may send and the exact answer
// both transports give it.
type hostileFrame struct {
	name, send string
	want       string // the exact answer; "" for none
}

// hostileFrames are sent to stdio (in this order, on one session) and to
// HTTP (one POST each): one table, so the transports cannot drift apart.
var hostileFrames = []hostileFrame{
	{"not JSON", `hello`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"the message is not valid JSON; unexpected 'h' at byte 1"}}`},
	{"batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"batches (JSON arrays of messages) are not supported: JSON-RPC 2.0 allows them but MCP 2025-11-25 removed them; send each message as its own line (on HTTP, its own POST)"}}`},
	{"object id", `{"jsonrpc":"2.0","id":{"n":1},"method":"ping"}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"member \"id\" must be a string or an integer; this one is an object"}}`},
	{"boolean id", `{"jsonrpc":"2.0","id":false,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"member \"id\" must be a string or an integer; this one is a boolean"}}`},
	{"null id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"member \"id\" is null: MCP requires a string or an integer id on every request (leave \"id\" out to send a notification)"}}`},
	{"huge integer id", `{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":123456789012345678901234567890,"result":{}}`},
	{"string id that looks like a number", `{"jsonrpc":"2.0","id":"123456789012345678901234567890","method":"ping"}`,
		`{"jsonrpc":"2.0","id":"123456789012345678901234567890","result":{}}`},
	{"id and method and result", `{"jsonrpc":"2.0","id":31,"method":"ping","result":{}}`,
		`{"jsonrpc":"2.0","id":31,"error":{"code":-32600,"message":"a request must not carry \"result\" or \"error\": those members belong only in answers"}}`},
	{"id without method", `{"jsonrpc":"2.0","id":32}`,
		`{"jsonrpc":"2.0","id":32,"error":{"code":-32600,"message":"member \"method\" is missing: a request needs the name of the method to call"}}`},
	{"a response from the client", `{"jsonrpc":"2.0","id":33,"result":{"ok":true}}`, ""},
	{"an unknown notification", `{"jsonrpc":"2.0","method":"notifications/whatever"}`, ""},
	{"a malformed notification", `{"jsonrpc":"2.0","method":"notifications/whatever","params":"x"}`, ""},
	{"cancelling nothing", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":999}}`, ""},
	{"tool name a number", `{"jsonrpc":"2.0","id":40,"method":"tools/call","params":{"name":5}}`,
		`{"jsonrpc":"2.0","id":40,"error":{"code":-32602,"message":"invalid params for tools/call: member \"params.name\" must be a string; this one is a number"}}`},
	{"cursor a number", `{"jsonrpc":"2.0","id":41,"method":"tools/list","params":{"cursor":5}}`,
		`{"jsonrpc":"2.0","id":41,"error":{"code":-32602,"message":"invalid params for tools/list: member \"params.cursor\" must be a string; this one is a number"}}`},
	{"cursor no cursor of this server's", `{"jsonrpc":"2.0","id":55,"method":"tools/list","params":{"cursor":"not a cursor!"}}`,
		`{"jsonrpc":"2.0","id":55,"error":{"code":-32602,"message":"invalid params for tools/list: member \"params.cursor\" is not a cursor this server gave; leave it out to list from the start"}}`},
	{"prompts cursor no cursor of this server's", `{"jsonrpc":"2.0","id":56,"method":"prompts/list","params":{"cursor":"%%%"}}`,
		`{"jsonrpc":"2.0","id":56,"error":{"code":-32602,"message":"invalid params for prompts/list: member \"params.cursor\" is not a cursor this server gave; leave it out to list from the start"}}`},
	{"_meta an array", `{"jsonrpc":"2.0","id":42,"method":"ping","params":{"_meta":[]}}`,
		`{"jsonrpc":"2.0","id":42,"error":{"code":-32602,"message":"invalid params for ping: member \"params._meta\" must be an object; this one is an array"}}`},
	{"prompt argument missing", `{"jsonrpc":"2.0","id":43,"method":"prompts/get","params":{"name":"research_company"}}`,
		`{"jsonrpc":"2.0","id":43,"error":{"code":-32602,"message":"prompt research_company: argument \"company\" is required (The company's name, domain or id (cmp_…))"}}`},
	{"prompt argument blank", `{"jsonrpc":"2.0","id":44,"method":"prompts/get","params":{"name":"build_prospect_list","arguments":{"description":"fintech","collection_name":"  "}}}`,
		`{"jsonrpc":"2.0","id":44,"error":{"code":-32602,"message":"prompt build_prospect_list: argument \"collection_name\" is required (The collection to save them in; reused if it already exists)"}}`},
	{"prompt argument a number", `{"jsonrpc":"2.0","id":45,"method":"prompts/get","params":{"name":"build_prospect_list","arguments":{"description":"fintech","collection_name":"x","size":25}}}`,
		`{"jsonrpc":"2.0","id":45,"error":{"code":-32602,"message":"prompt build_prospect_list: argument \"size\" must be a string"}}`},
	{"prompt size not a number", `{"jsonrpc":"2.0","id":57,"method":"prompts/get","params":{"name":"build_prospect_list","arguments":{"description":"fintech","collection_name":"x","size":"abc"}}}`,
		`{"jsonrpc":"2.0","id":57,"error":{"code":-32602,"message":"prompt build_prospect_list: argument \"size\" must be a whole number from 1 to 50; this one is \"abc\""}}`},
	{"prompt size out of range", `{"jsonrpc":"2.0","id":58,"method":"prompts/get","params":{"name":"build_prospect_list","arguments":{"description":"fintech","collection_name":"x","size":"5000"}}}`,
		`{"jsonrpc":"2.0","id":58,"error":{"code":-32602,"message":"prompt build_prospect_list: argument \"size\" must be a whole number from 1 to 50; this one is \"5000\""}}`},
	{"prompt argument over its bound", `{"jsonrpc":"2.0","id":59,"method":"prompts/get","params":{"name":"research_company","arguments":{"company":"Acme","focus":"` + strings.Repeat("x", 100000) + `"}}}`,
		`{"jsonrpc":"2.0","id":59,"error":{"code":-32602,"message":"prompt research_company: argument \"focus\" is at most 500 characters; this one has 100000"}}`},
	{"unknown tool", `{"jsonrpc":"2.0","id":47,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":47,"error":{"code":-32602,"message":"unknown tool \"no_such_tool\"; tools/list names the tools this server serves"}}`},
	{"tool name missing", `{"jsonrpc":"2.0","id":48,"method":"tools/call"}`,
		`{"jsonrpc":"2.0","id":48,"error":{"code":-32602,"message":"member \"params.name\" is missing: name the tool to use (tools/list lists them)"}}`},
	{"unknown resource", `{"jsonrpc":"2.0","id":49,"method":"resources/read","params":{"uri":"companies://nope"}}`,
		`{"jsonrpc":"2.0","id":49,"error":{"code":-32002,"message":"no resource at \"companies://nope\"; resources/list and resources/templates/list name what this server serves"}}`},
	{"unknown method", `{"jsonrpc":"2.0","id":46,"method":"nope/nothing"}`,
		`{"jsonrpc":"2.0","id":46,"error":{"code":-32601,"message":"Method nope/nothing not found"}}`},
	{"wrong jsonrpc version", `{"jsonrpc":"1.0","id":50,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":50,"error":{"code":-32600,"message":"member \"jsonrpc\" must be the string \"2.0\""}}`},
	{"method a number", `{"jsonrpc":"2.0","id":51,"method":5}`,
		`{"jsonrpc":"2.0","id":51,"error":{"code":-32600,"message":"member \"method\" must be a string; this one is a number"}}`},
	{"array id", `{"jsonrpc":"2.0","id":[1],"method":"ping"}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"member \"id\" must be a string or an integer; this one is an array"}}`},
	{"fraction id", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"member \"id\" must be a string or an integer; this one is a number with a fraction or an exponent"}}`},
	{"string id \"1\"", `{"jsonrpc":"2.0","id":"1","method":"ping"}`, `{"jsonrpc":"2.0","id":"1","result":{}}`},
	{"number id 1", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, `{"jsonrpc":"2.0","id":1,"result":{}}`},
	{"params an array", `{"jsonrpc":"2.0","id":52,"method":"tools/list","params":[]}`,
		`{"jsonrpc":"2.0","id":52,"error":{"code":-32602,"message":"member \"params\" must be a JSON object of named parameters; MCP does not use positional (array) params"}}`},
	{"huge id on an unknown tool", `{"jsonrpc":"2.0","id":98765432109876543210,"method":"tools/call","params":{"name":"nope"}}`,
		`{"jsonrpc":"2.0","id":98765432109876543210,"error":{"code":-32602,"message":"unknown tool \"nope\"; tools/list names the tools this server serves"}}`},
	{"tool arguments a string", `{"jsonrpc":"2.0","id":53,"method":"tools/call","params":{"name":"get_company","arguments":"cmp_1"}}`,
		`{"jsonrpc":"2.0","id":53,"result":{"_meta":{"io.companyintel/error":{"code":"invalid_arguments","fields":[{"field":"arguments","problem":"expected a JSON object of named arguments"}],"message":"invalid arguments: arguments: expected a JSON object of named arguments","retryable":false,"tool":"get_company"}},"content":[{"type":"text","text":"get_company failed [invalid_arguments]: invalid arguments: arguments: expected a JSON object of named arguments"}],"isError":true}}`},
	{"tool argument of the wrong type", `{"jsonrpc":"2.0","id":54,"method":"tools/call","params":{"name":"search_companies","arguments":{"query":"x","limit":"ten"}}}`,
		`{"jsonrpc":"2.0","id":54,"result":{"_meta":{"io.companyintel/error":{"code":"invalid_arguments","fields":[{"field":"limit","problem":"expected an integer from 1 to 100, got \"ten\""}],"message":"invalid arguments: limit: expected an integer from 1 to 100, got \"ten\"","retryable":false,"tool":"search_companies"}},"content":[{"type":"text","text":"search_companies failed [invalid_arguments]: invalid arguments: limit: expected an integer from 1 to 100, got \"ten\""}],"isError":true}}`},
	{"the session goes on", `{"jsonrpc":"2.0","id":"last","method":"ping"}`,
		`{"jsonrpc":"2.0","id":"last","result":{}}`},
}

func TestHostileFramesGetExactPlainAnswers(t *testing.T) {
	s := newAuthStack(t)
	r, err := start(t, s, map[string]string{"APPSYNC_API_KEY": s.srv.Backend().APIKey()})
	require.NoError(t, err)

	for _, f := range hostileFrames {
		r.send(f.send)
		if f.want == "" {
			continue
		}
		// One at a time: each answer is read before the next frame goes.
		require.True(t, r.out.Scan(), "%s: no answer", f.name)
		got := r.out.Text()
		assert.Equal(t, f.want, got, f.name)
		assert.NotRegexp(t, goisms, got, f.name)
		assert.NotContains(t, got, `"code":-32603`, "%s: a caller's mistake is not a server fault", f.name)
	}
	rest := r.untilEOF()
	assert.Empty(t, rest, "notifications and the client's responses get no answer")
	assert.NotContains(t, r.logs.String(), drainBoundLine)
}

func TestOversizedFrameIsRefusedAndTheSessionSurvives(t *testing.T) {
	s := newAuthStack(t)
	r, err := start(t, s, map[string]string{"APPSYNC_API_KEY": s.srv.Backend().APIKey()})
	require.NoError(t, err)
	big := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_company","arguments":{"id":"` +
		strings.Repeat("x", edge.MaxFrame) + `"}}}`
	go func() { _, _ = io.WriteString(r.in, big+"\n") }() // the pipe takes it as the server reads
	got := r.read()
	assert.Nil(t, got["id"])
	e := got["error"].(map[string]any)
	assert.Equal(t, float64(-32600), e["code"])
	assert.Contains(t, e["message"], "at most 4194304 bytes (4 MiB) are accepted per message")

	_, isErr := r.call("search_companies", `{"query":"software","limit":1}`)
	assert.False(t, isErr, "the session survives")
	assert.Empty(t, r.untilEOF())
}

func TestCancelledCallIsNotAnsweredAndItsBackendCallEnds(t *testing.T) {
	s := newAuthStack(t)
	r, err := start(t, s, map[string]string{"APPSYNC_API_KEY": s.srv.Backend().APIKey()})
	require.NoError(t, err)
	faults := s.srv.Backend().Faults()
	require.NoError(t, faults.Add(appsynclocal.Latency(time.Minute).For("SearchCompanies").ForNext(1)))

	r.send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search_companies","arguments":{"query":"software"}}}`)
	// The fault is used up when the backend starts waiting on the request.
	deadline := time.After(time.Minute)
	for len(faults.List()) > 0 {
		select {
		case <-deadline:
			t.Fatal("the call never reached the backend")
		case <-time.After(5 * time.Millisecond):
		}
	}
	// A string "7" is another id: it cancels nothing.
	r.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"7"}}`)
	r.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"the user gave up"}}`)
	r.send(`{"jsonrpc":"2.0","id":8,"method":"ping"}`)
	assert.Equal(t, float64(8), r.read()["id"], "the session goes on")

	rest := r.untilEOF()
	assert.Empty(t, rest, "the cancelled call gets no answer")
	logs := r.logs.String()
	assert.Contains(t, logs, `msg="request cancelled by the client" id=7 method=tools/call`)
	assert.Equal(t, 1, strings.Count(logs, "request cancelled by the client"), "the string id cancelled nothing")
	var audit string
	for _, l := range strings.Split(logs, "\n") {
		if strings.Contains(l, `msg="tool call"`) && strings.Contains(l, "tool=search_companies") {
			audit = l
		}
	}
	// The backend call ended because its context did, not by the minute.
	assert.Contains(t, audit, "canceled", "the tool call's record: %s", audit)
	assert.NotContains(t, logs, drainBoundLine)
}

func TestEndOfInputAnswersEveryRequestRead(t *testing.T) {
	s := newAuthStack(t)
	r, err := start(t, s, map[string]string{"APPSYNC_API_KEY": s.srv.Backend().APIKey()})
	require.NoError(t, err)
	require.NoError(t, s.srv.Backend().Faults().Add(appsynclocal.Latency(200*time.Millisecond).For("SearchCompanies")))
	lines := r.collect()
	r.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_companies","arguments":{"query":"software","limit":1}}}`)
	r.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_companies","arguments":{"query":"robotics","limit":1}}}`)
	// Odd frames once delayed the exit or cancelled the calls above.
	r.send(`{"jsonrpc":"2.0","id":3,"method":"tools/list","result":{}}`)
	r.send(`{"jsonrpc":"2.0","id":1,"result":{}}`)
	r.send(`{"jsonrpc":"2.0","id":4}`)
	r.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	require.NoError(t, r.in.Close()) // at once: the calls are still at the backend
	out := r.rest(lines)
	ids := map[string]string{}
	for _, l := range out {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Result *struct {
				IsError bool `json:"isError"`
			} `json:"result"`
			Error *struct{ Code int } `json:"error"`
		}
		require.NoError(t, json.Unmarshal([]byte(l), &m), l)
		switch {
		case m.Error != nil:
			ids[string(m.ID)] = "error"
		case m.Result != nil && !m.Result.IsError:
			ids[string(m.ID)] = "ok"
		default:
			ids[string(m.ID)] = "isError: " + l
		}
	}
	assert.Equal(t, map[string]string{"1": "ok", "2": "ok", "3": "error", "4": "error"}, ids,
		"both calls answered in full, the odd requests refused, nothing else")
	assert.NotContains(t, r.logs.String(), drainBoundLine, "it ended when the last answer was out, not at the bound")
}
