package edge

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// member is one member's value as written and where it sits in the message.
type member struct {
	name       string
	raw        json.RawMessage
	start, end int
}

// object is an object's top-level members in the order written. A message
// has a handful, so a slice searched from the end (the last duplicate wins,
// as in Go's decoder) is cheaper than a map.
type object []member

func (o object) get(name string) (member, bool) {
	for i := len(o) - 1; i >= 0; i-- {
		if o[i].name == name {
			return o[i], true
		}
	}
	return member{}, false
}

func (o object) has(name string) bool { _, ok := o.get(name); return ok }

// splitObject reads the top-level members of msg, which must be valid JSON
// whose first value is an object (Parse checks both first). A JSON-RPC
// member given twice, or spelt in another case, is refused: Go's decoder
// keeps the last duplicate and matches names case-insensitively, so mcp-go
// would read such a frame differently from what was checked here.
func splitObject(msg []byte) (object, *Error) {
	o, err := scanMembers(msg, make(object, 0, 6))
	if err != nil {
		return nil, &Error{CodeParseError, "the message is not valid JSON", nil}
	}
	for i, m := range o {
		for _, known := range members {
			if m.name != known && strings.EqualFold(m.name, known) {
				return nil, &Error{CodeInvalidRequest, fmt.Sprintf("member %q is not a JSON-RPC member: names are case-sensitive; write %q", excerpt(m.name), known), nil}
			}
		}
		if isMember(m.name) && o[:i].has(m.name) {
			return nil, &Error{CodeInvalidRequest, fmt.Sprintf("member %q appears twice; give it once", m.name), nil}
		}
	}
	return o, nil
}

// Members calls fn with the name and raw value of each top-level member of
// obj, a valid JSON object (a value Parse accepted, such as a frame's
// Params), in the order written. It reads no deeper than the top level and
// allocates only for a name written with escapes. It reports false when obj
// is not an object.
func Members(obj []byte, fn func(name string, value json.RawMessage)) bool {
	var buf [8]member
	o, err := scanMembers(obj, buf[:0])
	if err != nil {
		return false
	}
	for _, m := range o {
		fn(m.name, m.raw)
	}
	return true
}

// errNotObject is scanMembers' refusal; its callers say it in their words.
var errNotObject = fmt.Errorf("not a JSON object")

// scanMembers appends the top-level members of the object at the start of
// b to o. It relies on b being valid JSON (json.Valid), so it only finds
// where each value ends; it does not check what it skips.
func scanMembers(b []byte, o object) (object, error) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, errNotObject
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return o, nil
	}
	for i < len(b) {
		if b[i] != '"' {
			return nil, errNotObject
		}
		kEnd := skipString(b, i)
		name, err := unquote(b[i:kEnd])
		if err != nil {
			return nil, err
		}
		i = skipSpace(b, kEnd)
		if i >= len(b) || b[i] != ':' {
			return nil, errNotObject
		}
		start := skipSpace(b, i+1)
		end := skipValue(b, start)
		if end > len(b) || end <= start {
			return nil, errNotObject
		}
		o = append(o, member{name: name, raw: b[start:end:end], start: start, end: end})
		i = skipSpace(b, end)
		if i >= len(b) {
			break
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case '}':
			return o, nil
		default:
			return nil, errNotObject
		}
	}
	return nil, errNotObject
}

func skipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\r', '\n':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString returns the index just past the string starting at b[i].
func skipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b) + 1
}

// skipValue returns the index just past the value starting at b[i].
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				i = skipString(b, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return len(b) + 1
	}
	for ; i < len(b); i++ { // a number, true, false or null
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return i
		}
	}
	return i
}

// unquote is the value of the JSON string q, quotes included. Names without
// escapes, nearly all, are sliced; the rest go through the decoder (which
// also turns invalid UTF-8 into U+FFFD, as mcp-go's would).
func unquote(q []byte) (string, error) {
	if len(q) < 2 || q[0] != '"' || q[len(q)-1] != '"' {
		return "", errNotObject
	}
	if !strings.ContainsRune(string(q), '\\') && utf8.Valid(q) {
		return string(q[1 : len(q)-1]), nil
	}
	var s string
	err := json.Unmarshal(q, &s)
	return s, err
}
