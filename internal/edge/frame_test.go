package edge

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// goisms are what a message must never show a client: Go types, struct
// paths, package names, library wording.
var goisms = regexp.MustCompile(`(?i)json:|go value|go struct|struct field|unmarshal|interface \{|map\[|\[\]|mcp\.|server\.|jsonrpc\.|github\.com|\*errors|runtime error|panic`)

// hostile is one frame of every class the edge sorts, with what it must
// become.
var hostile = []struct {
	name string
	msg  string
	kind Kind
	code int    // 0: accepted
	id   string // the id the answer carries ("null" when unreadable)
	says string // a phrase the message must contain
}{
	{"request", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, Request, 0, "1", ""},
	{"string id", `{"jsonrpc":"2.0","id":"a-1","method":"ping"}`, Request, 0, `"a-1"`, ""},
	{"huge integer id", `{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}`, Request, 0, "123456789012345678901234567890", ""},
	{"negative id", `{"jsonrpc":"2.0","id":-5,"method":"ping"}`, Request, 0, "-5", ""},
	{"escaped string id", `{"jsonrpc":"2.0","id":"\u0031","method":"ping"}`, Request, 0, `"\u0031"`, ""},
	{"params null", `{"jsonrpc":"2.0","id":1,"method":"ping","params":null}`, Request, 0, "1", ""},
	{"notification", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, Notification, 0, "null", ""},
	{"response from the client", `{"jsonrpc":"2.0","id":4,"result":{}}`, Response, 0, "4", ""},
	{"error response from the client", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}`, Response, 0, "null", ""},

	{"not JSON", `hello`, Request, CodeParseError, "null", "unexpected 'h' at byte 1"},
	{"truncated", `{"jsonrpc":"2.0","id":1,"method":"ping"`, Request, CodeParseError, "null", "ends before"},
	{"two values on a line", `{"jsonrpc":"2.0","id":1,"method":"ping"} {"jsonrpc":"2.0","id":2,"method":"ping"}`, Request, CodeParseError, "null", "one message per line"},
	{"control character", "{\"jsonrpc\":\"2.0\",\"id\":\"a\x01\",\"method\":\"ping\"}", Request, CodeParseError, "null", "control character U+0001"},
	{"invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":\"a\xff\",\"method\":\"ping\"}", Request, CodeParseError, "null", "not valid UTF-8 (at byte 25)"},
	{"batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, Request, CodeInvalidRequest, "null", "batches"},
	{"empty batch", `[]`, Request, CodeInvalidRequest, "null", "MCP 2025-11-25 removed them"},
	{"a string", `"ping"`, Request, CodeInvalidRequest, "null", "must be a JSON object; this one is a string"},
	{"a number", `42`, Request, CodeInvalidRequest, "null", "this one is a number"},
	{"null", `null`, Request, CodeInvalidRequest, "null", "this one is null"},
	{"empty object", `{}`, Request, CodeInvalidRequest, "null", `"jsonrpc" is missing`},
	{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, Request, CodeInvalidRequest, "null", `"id" must be a string or an integer; this one is an object`},
	{"array id", `{"jsonrpc":"2.0","id":[1],"method":"ping"}`, Request, CodeInvalidRequest, "null", "this one is an array"},
	{"boolean id", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, Request, CodeInvalidRequest, "null", "this one is a boolean"},
	{"null id on a request", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, Request, CodeInvalidRequest, "null", `"id" is null`},
	{"fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, Request, CodeInvalidRequest, "null", "fraction or an exponent"},
	{"exponent id", `{"jsonrpc":"2.0","id":1e3,"method":"ping"}`, Request, CodeInvalidRequest, "null", "fraction or an exponent"},
	{"long id", `{"jsonrpc":"2.0","id":"` + strings.Repeat("x", 2000) + `","method":"ping"}`, Request, CodeInvalidRequest, "null", "ids are at most 1024 bytes"},
	{"wrong version", `{"jsonrpc":"1.0","id":7,"method":"ping"}`, Request, CodeInvalidRequest, "7", `"jsonrpc" must be the string "2.0"`},
	{"version as number", `{"jsonrpc":2.0,"id":7,"method":"ping"}`, Request, CodeInvalidRequest, "7", `"jsonrpc" must be the string "2.0"`},
	{"id without method", `{"jsonrpc":"2.0","id":7}`, Request, CodeInvalidRequest, "7", `"method" is missing`},
	{"method and result", `{"jsonrpc":"2.0","id":7,"method":"ping","result":{}}`, Request, CodeInvalidRequest, "7", `must not carry "result" or "error"`},
	{"method and error", `{"jsonrpc":"2.0","id":"e","method":"ping","error":{"code":1,"message":"x"}}`, Request, CodeInvalidRequest, `"e"`, `must not carry "result" or "error"`},
	{"method a number", `{"jsonrpc":"2.0","id":7,"method":12}`, Request, CodeInvalidRequest, "7", `"method" must be a string; this one is a number`},
	{"method a number, no id", `{"jsonrpc":"2.0","method":12}`, Request, CodeInvalidRequest, "null", `"method" must be a string`},
	{"empty method", `{"jsonrpc":"2.0","id":7,"method":""}`, Request, CodeInvalidRequest, "7", `"method" is empty`},
	{"params an array", `{"jsonrpc":"2.0","id":7,"method":"ping","params":[1]}`, Request, CodeInvalidParams, "7", "positional (array) params"},
	{"params a string", `{"jsonrpc":"2.0","id":7,"method":"ping","params":"x"}`, Request, CodeInvalidRequest, "7", `"params" must be a JSON object; this one is a string`},
	{"id spelt ID", `{"jsonrpc":"2.0","ID":7,"method":"ping"}`, Request, CodeInvalidRequest, "null", `member "ID" is not a JSON-RPC member`},
	{"method spelt Method", `{"jsonrpc":"2.0","id":7,"Method":"ping"}`, Request, CodeInvalidRequest, "null", `write "method"`},
	{"id twice", `{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`, Request, CodeInvalidRequest, "null", `"id" appears twice`},
	{"method twice", `{"jsonrpc":"2.0","id":1,"method":"ping","method":"tools/list"}`, Request, CodeInvalidRequest, "null", `"method" appears twice`},
	{"too large", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"` + strings.Repeat("a", MaxFrame) + `"}}`, Request, CodeInvalidRequest, "null", "at most 4194304 bytes (4 MiB)"},

	// Malformed notifications are dropped, never answered.
	{"notification with result", `{"jsonrpc":"2.0","method":"notifications/x","result":{}}`, Notification, CodeInvalidRequest, "null", ""},
	{"notification, wrong version", `{"jsonrpc":"1.0","method":"notifications/x"}`, Notification, CodeInvalidRequest, "null", ""},
	{"notification, array params", `{"jsonrpc":"2.0","method":"notifications/x","params":[]}`, Notification, CodeInvalidParams, "null", ""},
}

func TestParse(t *testing.T) {
	for _, tt := range hostile {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse([]byte(tt.msg))
			assert.Equal(t, tt.kind, f.Kind, "kind")
			if tt.code == 0 {
				require.Nil(t, err)
				assert.Equal(t, tt.id, f.ID.String(), "id")
				return
			}
			require.NotNil(t, err, "a refusal")
			assert.Equal(t, tt.code, err.Code)
			assert.Contains(t, err.Message, tt.says)
			assert.NotRegexp(t, goisms, err.Message)

			var reply struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
				Error   struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			b := ErrorReply(f.ID, err)
			require.NoError(t, json.Unmarshal(b, &reply), "%s", b)
			assert.Equal(t, "2.0", reply.JSONRPC)
			assert.Equal(t, tt.id, string(reply.ID), "the answer's id")
			assert.Equal(t, tt.code, reply.Error.Code)
		})
	}
}

func TestCheck(t *testing.T) {
	for _, tt := range hostile {
		t.Run(tt.name, func(t *testing.T) {
			reply, ok := Check([]byte(tt.msg))
			switch {
			case tt.code == 0 && tt.kind == Response:
				assert.False(t, ok, "a response is not passed on")
				assert.Nil(t, reply, "nor answered")
			case tt.code == 0:
				assert.True(t, ok)
				assert.Nil(t, reply)
			case tt.kind == Notification:
				assert.False(t, ok)
				assert.Nil(t, reply, "a notification is never answered")
			default:
				assert.False(t, ok)
				assert.Contains(t, string(reply), `"code":`+itoa(tt.code))
				assert.True(t, strings.HasPrefix(string(reply), `{"jsonrpc":"2.0","id":`+tt.id+`,`), "%s", reply)
			}
		})
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestWithIDKeepsEveryOtherByte(t *testing.T) {
	msg := `{ "params" : {"id": 9, "x":[1,2]} ,"id" :  123456789012345678901234567890 ,"jsonrpc":"2.0","method":"tools/call"}`
	f, err := Parse([]byte(msg))
	require.Nil(t, err)
	assert.Equal(t, `{ "params" : {"id": 9, "x":[1,2]} ,"id" :  17 ,"jsonrpc":"2.0","method":"tools/call"}`, string(f.WithID(json.RawMessage("17"))))

	n, err := Parse([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	require.Nil(t, err)
	assert.Equal(t, string(n.Raw), string(n.WithID(json.RawMessage("17"))), "a notification has no id to replace")
}

func TestIDKeyIsTypeAndValue(t *testing.T) {
	key := func(raw string) string {
		id, err := ParseID(json.RawMessage(raw))
		require.Nil(t, err, raw)
		return id.Key()
	}
	assert.NotEqual(t, key(`1`), key(`"1"`), `"1" is not 1`)
	assert.Equal(t, key(`"1"`), key(`"\u0031"`), "the same string, escaped")
	assert.Equal(t, key(`0`), key(`-0`))
	assert.NotEqual(t, key(`123456789012345678901234567890`), key(`123456789012345678901234567891`), "every digit counts")
}

func TestReplies(t *testing.T) {
	id, perr := ParseID(json.RawMessage(`123456789012345678901234567890`))
	require.Nil(t, perr)
	assert.Equal(t, `{"jsonrpc":"2.0","id":123456789012345678901234567890,"result":{"ok":true}}`, string(ResultReply(id, json.RawMessage(`{"ok":true}`))))
	assert.Equal(t, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"a \"quoted\" word","data":{"k":1}}}`,
		string(ErrorReply(ID{}, &Error{CodeInvalidRequest, `a "quoted" word`, json.RawMessage(`{"k":1}`)})))
}

func TestResultReplyCarriesNoHTMLEscapes(t *testing.T) {
	for in, want := range map[string]string{
		`{"t":"R\u0026D \u003clabs\u003e"}`:               `{"t":"R&D <labs>"}`,
		`{"t":"upper \u003C\u003E"}`:                      `{"t":"upper <>"}`,
		`{"t":"a backslash, then text: \\u0026"}`:         `{"t":"a backslash, then text: \\u0026"}`,
		`{"t":"two: \\\u0026"}`:                           `{"t":"two: \\&"}`,
		`{"t":"other escapes stay: \u00e9 \n \" \u2028"}`: `{"t":"other escapes stay: \u00e9 \n \" \u2028"}`,
		`{"ok":true}`: `{"ok":true}`,
		`{"t":"\u0026\u0026x\u0041\u002C\u00263c"}`: `{"t":"&&x\u0041\u002C&3c"}`,
		`{"a":"\u003c","b":"\u003E"}`:               `{"a":"<","b":">"}`,
	} {
		id, perr := ParseID(json.RawMessage("1"))
		require.Nil(t, perr)
		got := ResultReply(id, json.RawMessage(in))
		assert.Equal(t, `{"jsonrpc":"2.0","id":1,"result":`+want+`}`, string(got), in)
		assert.True(t, json.Valid(got), string(got))
	}
}
