package edge

import (
	"bytes"
	"encoding/json"
	"slices"
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
//
// The reply is built in one buffer, unescaping as it copies: a tool's
// answer is the largest thing the server writes, and each extra copy of it
// was a tenth of the allocation of a search call.
func ResultReply(id ID, result json.RawMessage) []byte {
	return AppendResultReply(nil, id, result)
}

// AppendResultReply appends ResultReply(id, result) to out.
func AppendResultReply(out []byte, id ID, result json.RawMessage) []byte {
	out = slices.Grow(out, 40+len(id.raw)+len(result)+1) // +1: the newline the transport adds
	out = append(out, `{"jsonrpc":"2.0","id":`...)
	out = append(out, id.Raw()...)
	out = append(out, `,"result":`...)
	out = appendUnescapedHTML(out, result)
	return append(out, '}')
}

// appendUnescapedHTML appends the JSON b to out with the escapes of <, >
// and & replaced by the characters, leaving every other escape as it is.
// Outside strings valid JSON has no backslash, and inside one each
// backslash starts an escape, so reading escapes pairwise never mistakes
// an escaped backslash followed by "u0026" for an escape.
func appendUnescapedHTML(out, b []byte) []byte {
	for {
		i := bytes.IndexByte(b, '\\')
		if i < 0 || i+1 == len(b) {
			return append(out, b...)
		}
		out = append(out, b[:i]...)
		if b[i+1] == 'u' && i+6 <= len(b) {
			if c, ok := htmlEscape(b[i+2 : i+6]); ok {
				out = append(out, c)
				b = b[i+6:]
				continue
			}
		}
		out = append(out, b[i], b[i+1])
		b = b[i+2:]
	}
}

// htmlEscape reads the four hex digits of an escape of <, > or &, in
// either case.
func htmlEscape(hex []byte) (byte, bool) {
	if hex[0] != '0' || hex[1] != '0' {
		return 0, false
	}
	lower := hex[3] | 0x20 // a hex letter in lower case; digits already have the bit
	switch {
	case hex[2] == '3' && lower == 'c':
		return '<', true
	case hex[2] == '3' && lower == 'e':
		return '>', true
	case hex[2] == '2' && lower == '6':
		return '&', true
	}
	return 0, false
}
