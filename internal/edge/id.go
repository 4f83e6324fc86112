package edge

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
)

// ID is a request id exactly as the client wrote it. MCP allows a string or
// an integer; an integer keeps every digit (123456789012345678901234567890
// is echoed as written, not rounded through float64).
type ID struct {
	raw string // the JSON text as sent
	key string // type and value: what two ids must share to be the same
}

// ParseID reads an id written as raw JSON. It refuses what MCP does not
// allow as an id: null, objects, arrays, booleans and numbers with a
// fraction or an exponent.
func ParseID(raw json.RawMessage) (ID, *Error) {
	if len(raw) > maxIDBytes {
		return ID{}, &Error{CodeInvalidRequest, fmt.Sprintf(`member "id" is %d bytes long; ids are at most %d bytes`, len(raw), maxIDBytes), nil}
	}
	switch c := firstByte(raw); {
	case c == '"':
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return ID{}, &Error{CodeInvalidRequest, `member "id" is not a valid JSON string`, nil}
		}
		return ID{raw: string(raw), key: "s" + s}, nil
	case c == '-' || (c >= '0' && c <= '9'):
		n := string(raw)
		if strings.ContainsAny(n, ".eE") {
			return ID{}, &Error{CodeInvalidRequest, `member "id" must be a string or an integer; this one is a number with a fraction or an exponent`, nil}
		}
		if n == "-0" {
			n = "0"
		}
		return ID{raw: string(raw), key: "n" + n}, nil
	default:
		return ID{}, &Error{CodeInvalidRequest, `member "id" must be a string or an integer; this one is ` + jsonType(c), nil}
	}
}

// IsZero reports whether the id is absent or could not be read.
func (id ID) IsZero() bool { return id.raw == "" }

// Raw returns the id as sent, or null for the zero ID.
func (id ID) Raw() json.RawMessage {
	if id.raw == "" {
		return json.RawMessage("null")
	}
	return json.RawMessage(id.raw)
}

// Key identifies the id by type and value: "1" and 1 differ, "\u0031" and
// "1" are the same string.
func (id ID) Key() string { return id.key }

// Text returns the id as text: a string id's value, an integer id's
// digits ("" for the zero ID). Tracing records it as jsonrpc.request.id.
func (id ID) Text() string {
	if id.key == "" {
		return ""
	}
	return id.key[1:]
}

// String returns the id as sent, for logs.
func (id ID) String() string { return string(id.Raw()) }

// edgeID is the id mcp-go sees in place of a client's id it would not read
// and write back as sent (keptByMCPGo): small, so its decoder (float64)
// keeps it exact. mcp-go's answer is matched to its request by the edge,
// never by this id (stdio answers with the client's id from its own
// bookkeeping; an HTTP POST carries one request), so one value serves every
// request.
var edgeID = json.RawMessage("1")

// idSwaps counts the messages forMCPGo copied to swap an id.
var idSwaps atomic.Int64

// IDSwaps returns how many messages had their id swapped for mcp-go in
// this process. Tests read it around one request to show that an id mcp-go
// keeps costs no copy of the message, on either transport.
func IDSwaps() int64 { return idSwaps.Load() }

// forMCPGo is the message both transports hand mcp-go for the request f:
// as sent when mcp-go reads and writes its id back exactly (keptByMCPGo),
// else a copy with edgeID in its place (swapped). sent is the id mcp-go
// sees. Most ids (small integers, plain strings) pass as they are.
func forMCPGo(f Frame) (msg []byte, sent json.RawMessage, swapped bool) {
	if id := f.ID.Raw(); keptByMCPGo(id) {
		return f.Raw, id, false
	}
	idSwaps.Add(1)
	return f.WithID(edgeID), edgeID, true
}

// keptByMCPGo reports whether mcp-go writes the id back byte for byte: an
// integer it holds exactly (as int64, through float64), or a string with no
// escape and nothing json.Marshal would escape.
func keptByMCPGo(id json.RawMessage) bool {
	if len(id) == 0 {
		return false
	}
	if id[0] == '"' {
		for _, c := range id[1 : len(id)-1] {
			if c == '\\' || c == '<' || c == '>' || c == '&' || c < 0x20 || c >= 0x80 {
				return false
			}
		}
		return true
	}
	n, err := strconv.ParseInt(string(id), 10, 64)
	return err == nil && n > -1<<53 && n < 1<<53 && strconv.FormatInt(n, 10) == string(id)
}
