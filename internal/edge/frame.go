package edge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"unicode/utf8"
)

// MaxFrame bounds one incoming message, in bytes. The largest legitimate
// message is a tool call with a few hundred ids in it, far below this; a
// bigger one is refused before anything decodes it.
const MaxFrame = 4 << 20

// maxIDBytes bounds an id as written. Ids are kept while their request is
// open and echoed in the answer, so they are kept short.
const maxIDBytes = 1024

// The JSON-RPC 2.0 error codes this package answers with.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
)

// Error is a JSON-RPC error: a code and a message in plain words, naming the
// member at fault and what was expected.
type Error struct {
	Code    int
	Message string
	// Data, when set, is sent as the error's data member.
	Data json.RawMessage
}

func (e *Error) Error() string { return e.Message }

// Kind says what a frame is, and so whether it is answered.
type Kind int

const (
	// Request has a method and an id: it is answered exactly once (unless
	// the client cancels it).
	Request Kind = iota + 1
	// Notification has a method and no id: it is never answered.
	Notification
	// Response has an id and a result or error but no method: an answer
	// from the client to a request of the server's own. Stdio routes it to
	// the waiting [Stdio.Call]; anything else drops it.
	Response
)

// Frame is one message as the edge understood it.
type Frame struct {
	Kind Kind
	// ID is the request's id as sent; zero for a notification, and for a
	// refused frame whose id could not be read (the answer then says null).
	ID ID
	// Method is the method name; empty for a response.
	Method string
	// Params is the params member as sent; nil when absent or null.
	Params json.RawMessage
	// Raw is the message as it arrived.
	Raw []byte
	// idStart and idEnd locate the id's value in Raw, for WithID.
	idStart, idEnd int
}

// WithID returns the message with its id replaced by id (raw JSON), every
// other byte as sent. mcp-go decodes ids through float64, so the edge hands
// it a small number of its own and puts the client's id back in the answer.
func (f Frame) WithID(id json.RawMessage) []byte {
	if f.idEnd == 0 {
		return f.Raw
	}
	out := make([]byte, 0, len(f.Raw)-(f.idEnd-f.idStart)+len(id))
	out = append(out, f.Raw[:f.idStart]...)
	out = append(out, id...)
	return append(out, f.Raw[f.idEnd:]...)
}

// parses counts the messages Parse has read.
var parses atomic.Int64

// Parses returns how many messages Parse has read in this process. Tests
// read it around one request to show that a transport parses each message
// once, however many layers read it.
func Parses() int64 { return parses.Load() }

// members are the names JSON-RPC gives meaning to.
var members = []string{"jsonrpc", "id", "method", "params", "result", "error"}

// Parse checks one message. A nil error means the frame may be served as
// its Kind says. A non-nil error is the answer to send with f.ID (null when
// zero), except when f.Kind is Notification: a notification is never
// answered, so the caller drops it.
func Parse(msg []byte) (f Frame, err *Error) {
	parses.Add(1)
	f.Raw = msg
	f.Kind = Request // until the frame shows otherwise, a refusal is answered
	if len(msg) > MaxFrame {
		return f, TooLarge(len(msg))
	}
	if err := syntax(msg); err != nil {
		return f, err
	}
	switch first := firstByte(msg); first {
	case '{':
	case '[':
		return f, &Error{CodeInvalidRequest, "batches (JSON arrays of messages) are not supported: JSON-RPC 2.0 allows them but MCP 2025-11-25 removed them; send each message as its own line (on HTTP, its own POST)", nil}
	default:
		return f, &Error{CodeInvalidRequest, "a message must be a JSON object; this one is " + jsonType(first), nil}
	}

	m, perr := splitObject(msg)
	if perr != nil {
		return f, perr
	}
	if r, ok := m.get("params"); ok && string(r.raw) != "null" {
		f.Params = r.raw
	}
	id, hasID := m.get("id")
	method, hasMethod := m.get("method")

	var idErr *Error
	if hasID {
		f.idStart, f.idEnd = id.start, id.end
		if string(id.raw) == "null" {
			idErr = &Error{CodeInvalidRequest, `member "id" is null: MCP requires a string or an integer id on every request (leave "id" out to send a notification)`, nil}
		} else if f.ID, idErr = ParseID(id.raw); idErr != nil {
			f.idStart, f.idEnd = 0, 0
		}
	}

	switch {
	case hasMethod && !hasID && firstByte(method.raw) == '"':
		f.Kind = Notification
	case !hasMethod && hasID && (m.has("result") || m.has("error")):
		f.Kind = Response
		return f, nil
	}
	if idErr != nil {
		return f, idErr
	}
	if err := checkVersion(m); err != nil {
		return f, err
	}
	if !hasMethod {
		return f, &Error{CodeInvalidRequest, `member "method" is missing: a request needs the name of the method to call`, nil}
	}
	if firstByte(method.raw) != '"' {
		return f, &Error{CodeInvalidRequest, `member "method" must be a string; this one is ` + jsonType(firstByte(method.raw)), nil}
	}
	if f.Method, _ = unquote(method.raw); f.Method == "" {
		return f, &Error{CodeInvalidRequest, `member "method" is empty: it must name the method to call`, nil}
	}
	if m.has("result") || m.has("error") {
		return f, &Error{CodeInvalidRequest, `a request must not carry "result" or "error": those members belong only in answers`, nil}
	}
	if p, ok := m.get("params"); ok {
		switch c := firstByte(p.raw); c {
		case '{', 'n':
		case '[':
			return f, &Error{CodeInvalidParams, `member "params" must be a JSON object of named parameters; MCP does not use positional (array) params`, nil}
		default:
			return f, &Error{CodeInvalidRequest, `member "params" must be a JSON object; this one is ` + jsonType(c), nil}
		}
	}
	return f, nil
}

// Check is the decision ReadMessage makes for one POST body (both answer a
// refusal through Refusal), as a function that FuzzFrame holds to Parse: ok
// means hand the body on. Otherwise reply is the complete answer to send,
// or nil when nothing is to be sent (a notification, or a response from the
// client: on HTTP, 202 Accepted with no body).
func Check(body []byte) (reply []byte, ok bool) {
	f, err := Parse(body)
	switch {
	case err != nil:
		return Refusal(f, err), false
	case f.Kind == Response:
		return nil, false
	}
	return nil, true
}

// Refusal is the answer to a frame Parse refused (err): the error, for the
// id Parse could read (null when none), or nil for a notification, which is
// never answered, even when malformed. Both transports answer refusals
// through it: Stdio writes it as a line, ReadMessage as a 400 body (202 and
// no body when it is nil).
func Refusal(f Frame, err *Error) []byte {
	if f.Kind == Notification {
		return nil
	}
	return ErrorReply(f.ID, err)
}

// TooLarge is the answer to a message over MaxFrame bytes.
func TooLarge(n int) *Error {
	return &Error{CodeInvalidRequest, fmt.Sprintf("the message is %d bytes; at most %d bytes (%d MiB) are accepted per message", n, MaxFrame, MaxFrame>>20), nil}
}

func isMember(name string) bool {
	for _, m := range members {
		if m == name {
			return true
		}
	}
	return false
}

func checkVersion(m object) *Error {
	v, ok := m.get("jsonrpc")
	if !ok {
		return &Error{CodeInvalidRequest, `member "jsonrpc" is missing: it must be the string "2.0"`, nil}
	}
	if s, err := unquote(v.raw); err != nil || s != "2.0" {
		return &Error{CodeInvalidRequest, `member "jsonrpc" must be the string "2.0"`, nil}
	}
	return nil
}

// syntax reports why msg is not valid UTF-8 JSON, in words: the byte where
// it went wrong and what was found there.
func syntax(msg []byte) *Error {
	if len(bytes.TrimSpace(msg)) == 0 {
		return &Error{CodeParseError, "the message is empty: send one JSON object per line", nil}
	}
	if !utf8.Valid(msg) {
		at := 0
		for at < len(msg) {
			r, size := utf8.DecodeRune(msg[at:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			at += size
		}
		return &Error{CodeParseError, fmt.Sprintf("the message is not valid UTF-8 (at byte %d); JSON text must be UTF-8", at+1), nil}
	}
	if json.Valid(msg) {
		return nil
	}
	var raw json.RawMessage
	err := json.Unmarshal(msg, &raw)
	if json.NewDecoder(bytes.NewReader(msg)).Decode(&raw) == nil {
		return &Error{CodeParseError, "the line holds more than one JSON value: send one message per line", nil}
	}
	var se *json.SyntaxError
	if !errors.As(err, &se) || se.Offset >= int64(len(msg)) {
		return &Error{CodeParseError, "the message is not valid JSON; it ends before its last value is complete", nil}
	}
	at := int(se.Offset) // 1-based offset of the offending byte
	if at < 1 {
		at = 1
	}
	r, _ := utf8.DecodeRune(msg[at-1:])
	return &Error{CodeParseError, fmt.Sprintf("the message is not valid JSON; unexpected %s at byte %d", describeRune(r), at), nil}
}

func describeRune(r rune) string {
	switch {
	case r == '"':
		return `'"'`
	case r < 0x20 || r == 0x7f:
		return fmt.Sprintf("control character U+%04X", r)
	}
	return fmt.Sprintf("%q", r)
}

func firstByte(b []byte) byte {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return c
	}
	return 0
}

// jsonType names the JSON type of a value from its first byte.
func jsonType(first byte) string {
	switch first {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// excerpt cuts s to a short quotable prefix.
func excerpt(s string) string { return Excerpt(s, 40) }

// Excerpt cuts s to at most max bytes at a rune boundary, marking a cut with
// "…", so that a message can quote what a client sent without echoing all of
// it.
func Excerpt(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
