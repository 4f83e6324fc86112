package jsonrpc

import (
	"encoding/json"
	"strconv"
)

// ErrorReply is the answer carrying e for the request with id (null when
// id is zero).
func ErrorReply(id ID, e *Error) []byte {
	msg, err := json.Marshal(e.Message)
	if err != nil { // a string always encodes; keep the answer well-formed regardless
		msg = []byte(`"error"`)
	}
	out := make([]byte, 0, 64+len(msg)+len(e.Data)+1) // +1: the newline the transport adds
	out = append(out, `{"jsonrpc":"2.0","id":`...)
	out = append(out, id.Raw()...)
	out = append(out, `,"error":{"code":`...)
	out = strconv.AppendInt(out, int64(e.Code), 10)
	out = append(out, `,"message":`...)
	out = append(out, msg...)
	if len(e.Data) > 0 {
		out = append(out, `,"data":`...)
		out = append(out, e.Data...)
	}
	return append(out, "}}"...)
}

// ResultReply is the answer carrying result (raw JSON) for the request
// with id.
func ResultReply(id ID, result json.RawMessage) []byte {
	out := make([]byte, 0, 40+len(id.raw)+len(result)+1) // +1: the newline the transport adds
	out = append(out, `{"jsonrpc":"2.0","id":`...)
	out = append(out, id.Raw()...)
	out = append(out, `,"result":`...)
	out = append(out, result...)
	return append(out, '}')
}
