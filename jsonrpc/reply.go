package jsonrpc

import (
	"bytes"
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
// with id. encoding/json's HTML escapes in result (\u0026 for &, \u003c,
// \u003e) are written back as the characters: the answer is never embedded
// in HTML, and each escape costs five bytes of an answer's size bound
// ("R&D" is common in company data).
func ResultReply(id ID, result json.RawMessage) []byte {
	result = unescapeHTML(result)
	out := make([]byte, 0, 40+len(id.raw)+len(result)+1) // +1: the newline the transport adds
	out = append(out, `{"jsonrpc":"2.0","id":`...)
	out = append(out, id.Raw()...)
	out = append(out, `,"result":`...)
	out = append(out, result...)
	return append(out, '}')
}

// unescapeHTML replaces the escapes of <, > and & in the JSON b by the
// characters, leaving every other escape as it is. Outside strings valid
// JSON has no backslash, and inside one each backslash starts an escape,
// so reading escapes pairwise never mistakes an escaped backslash followed
// by "u0026" for an escape.
func unescapeHTML(b []byte) []byte {
	if !bytes.Contains(b, []byte(`\u00`)) {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 == len(b) {
			out = append(out, b[i])
			continue
		}
		if b[i+1] == 'u' && i+6 <= len(b) {
			if c, ok := htmlEscape(b[i+2 : i+6]); ok {
				out = append(out, c)
				i += 5
				continue
			}
		}
		out = append(out, b[i], b[i+1])
		i++
	}
	return out
}

// htmlEscape reads the four hex digits of an escape of <, > or &.
func htmlEscape(hex []byte) (byte, bool) {
	switch string(bytes.ToLower(hex)) {
	case "003c":
		return '<', true
	case "003e":
		return '>', true
	case "0026":
		return '&', true
	}
	return 0, false
}
