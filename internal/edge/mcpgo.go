package edge

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// mcpHandler serves the messages that passed the JSON-RPC edge with
// mcp-go, and puts its answers in plain words: mcp-go's own messages for a
// params member of the wrong type quote encoding/json ("cannot unmarshal
// number into Go struct field CallToolRequest.params.name of type string")
// under -32600; the client gets -32602 naming the member and the JSON type
// expected. prompts/get arguments are checked here first, because mcp-go
// turns every prompt handler error into -32603, a server fault.
func mcpHandler(s *server.MCPServer, checkPrompt func(msg []byte) *Error) MessageHandler {
	return func(ctx context.Context, method string, msg []byte) (json.RawMessage, *Error) {
		if checkPrompt != nil && method == string(mcp.MethodPromptsGet) {
			if err := checkPrompt(msg); err != nil {
				return nil, err
			}
		}
		res, err, _ := handleWithMCPGo(ctx, s, method, msg)
		return res, err
	}
}

// handleWithMCPGo is s's answer to msg: the result encoded once, or the
// error in plain words. answered is false when s gives no answer (a
// notification).
func handleWithMCPGo(ctx context.Context, s *server.MCPServer, method string, msg []byte) (res json.RawMessage, e *Error, answered bool) {
	switch r := s.HandleMessage(ctx, msg).(type) {
	case nil:
		return nil, nil, false
	case mcp.JSONRPCResponse:
		b, err := encodeResult(r.Result)
		if err != nil {
			return nil, &Error{Code: CodeInternalError, Message: "internal error: the answer to " + method + " could not be encoded; the server's log has the details"}, true
		}
		return b, nil, true
	case mcp.JSONRPCError:
		return nil, plainError(method, r.Error), true
	default:
		return nil, &Error{Code: CodeInternalError, Message: "internal error: no answer to " + method}, true
	}
}

// encodeResult encodes an answer's result for a one-line reply. A tool
// call's result encodes itself (CallToolResult.MarshalJSON, which ends in
// json.Marshal: compact, one line); json.Marshal of it would check and
// compact that whole output once more, a second pass over every byte of the
// largest answers, a tenth of a search call's CPU. So its own encoding is
// used as it is; TestEncodeResultIsJSONMarshal holds the two to the same
// bytes.
func encodeResult(v any) (json.RawMessage, error) {
	if r, ok := v.(*mcp.CallToolResult); ok && r != nil {
		if b, ok := encodeToolResult(r); ok {
			return b, nil
		}
		return r.MarshalJSON()
	}
	return json.Marshal(v)
}

// encodeToolResult writes the result of a tool the way CallToolResult's
// MarshalJSON does (the same members, in its map's sorted order) for the
// shape every tool here answers with: text content and a structuredContent
// that package tools encoded, compact and on one line. MarshalJSON hands
// that RawMessage to json.Marshal, which scans all of it again to check and
// compact it: the largest part of every answer, a second time. Any other
// shape (_meta, other content, a structuredContent that is not raw JSON on
// one line) returns false and takes MarshalJSON. On the wire, after
// ResultReply, both give the same bytes (TestEncodeResultIsJSONMarshal).
func encodeToolResult(r *mcp.CallToolResult) ([]byte, bool) {
	raw, ok := r.StructuredContent.(json.RawMessage)
	if r.Meta != nil || len(r.RawStructuredContent) > 0 || len(r.InputRequests) > 0 || r.RequestState != "" ||
		!ok || len(raw) == 0 || raw[0] != '{' || bytes.IndexByte(raw, '\n') >= 0 || bytes.IndexByte(raw, '\r') >= 0 {
		return nil, false
	}
	size := len(raw) + 64
	for _, c := range r.Content {
		t, ok := c.(mcp.TextContent)
		if !ok || t.Annotations != nil || t.Meta != nil {
			return nil, false
		}
		size += len(t.Text) + len(t.Text)/8 + 32
	}
	var buf bytes.Buffer
	buf.Grow(size)
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	buf.WriteString(`{"content":[`)
	for i, c := range r.Content {
		t := c.(mcp.TextContent)
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.WriteString(`{"type":`)
		if enc.Encode(t.Type) != nil {
			return nil, false
		}
		buf.Truncate(buf.Len() - 1) // Encode's newline
		buf.WriteString(`,"text":`)
		if enc.Encode(t.Text) != nil {
			return nil, false
		}
		buf.Truncate(buf.Len() - 1)
		buf.WriteByte('}')
	}
	buf.WriteByte(']')
	if r.IsError {
		buf.WriteString(`,"isError":true`)
	}
	if r.ResultType != "" {
		buf.WriteString(`,"resultType":`)
		if enc.Encode(r.ResultType) != nil {
			return nil, false
		}
		buf.Truncate(buf.Len() - 1)
	}
	buf.WriteString(`,"structuredContent":`)
	buf.Write(raw)
	buf.WriteByte('}')
	return buf.Bytes(), true
}

// unparsable matches mcp-go's message for params of the wrong JSON type.
var unparsable = lazyRegexp(`cannot unmarshal (\w+) into Go (?:struct field (\S+)|value) of type (.+)$`)

// goism spots a message that would show the client Go internals.
var goism = lazyRegexp(`json:|Go struct|Go value|unmarshal|map\[|interface \{|mcp\.|server\.|illegal base64|invalid character|unexpected end of JSON|strconv\.`)

// plainError passes mcp-go's error on, rewriting a message that speaks Go.
func plainError(method string, e mcp.JSONRPCErrorDetails) *Error {
	out := &Error{Code: e.Code, Message: e.Message}
	if e.Data != nil {
		if b, err := json.Marshal(e.Data); err == nil {
			out.Data = b
		}
	}
	if m := notFound().FindStringSubmatch(e.Message); m != nil {
		out.Message = notFoundMessage(m[1], m[2], m[3])
		return out
	}
	if !goism().MatchString(e.Message) {
		return out
	}
	out.Code, out.Data = CodeInvalidParams, nil
	// mcp-go reads a list's cursor with encoding/base64 and answers its
	// decoder's words ("illegal base64 data at input byte 0").
	if strings.HasSuffix(method, "/list") && strings.HasPrefix(e.Message, "illegal base64 data") {
		out.Message = fmt.Sprintf(`invalid params for %s: member "params.cursor" is not a cursor this server gave; leave it out to list from the start`, method)
		return out
	}
	if m := unparsable().FindStringSubmatch(e.Message); m != nil {
		out.Message = fmt.Sprintf("invalid params for %s: member %q must be %s; this one is %s",
			method, memberPath(m[2]), expectedJSON(m[3]), withArticle(m[1]))
		return out
	}
	out.Message = fmt.Sprintf("invalid params for %s: they do not have the shape MCP defines for this method", method)
	return out
}

// notFound matches mcp-go's messages for an unknown tool, prompt or
// resource, which say "not found" twice and no next step.
var notFound = lazyRegexp(`^(?:(tool|prompt) '(.*)' not found: (?:tool|prompt) not found|handler not found for resource URI '(.*)': resource not found)$`)

// notFoundMessage names what was asked for and where the valid names are.
func notFoundMessage(kind, name, uri string) string {
	switch {
	case kind == "" && uri == "":
		return `member "params.uri" is missing: give the URI of the resource to read (resources/list lists them)`
	case kind == "":
		return fmt.Sprintf("no resource at %q; resources/list and resources/templates/list name what this server serves", excerptOf(uri))
	case name == "":
		return fmt.Sprintf(`member "params.name" is missing: name the %s to use (%ss/list lists them)`, kind, kind)
	}
	return fmt.Sprintf("unknown %s %q; %ss/list names the %ss this server serves", kind, excerptOf(name), kind, kind)
}

// excerptOf cuts a name the client sent to a short quotable prefix.
func excerptOf(s string) string { return Excerpt(s, 60) }

// memberPath turns encoding/json's "CallToolRequest.params.name" into the
// JSON path "params.name": the Go type names come first, capitalised.
func memberPath(field string) string {
	if field == "" {
		return "params"
	}
	parts := strings.Split(field, ".")
	for len(parts) > 1 && parts[0] != "" && parts[0][0] >= 'A' && parts[0][0] <= 'Z' {
		parts = parts[1:]
	}
	return strings.Join(parts, ".")
}

// stringTypes are mcp-go's named types that are JSON strings.
var stringTypes = map[string]bool{
	"mcp.Cursor": true, "mcp.Role": true, "mcp.LoggingLevel": true, "mcp.MCPMethod": true,
	"mcp.TaskStatus": true, "mcp.ProgressToken": true,
}

// expectedJSON names the JSON type a Go type is decoded from.
func expectedJSON(goType string) string {
	switch {
	case goType == "string" || stringTypes[goType]:
		return "a string"
	case goType == "bool":
		return "true or false"
	case strings.HasPrefix(goType, "[]"):
		return "an array"
	case strings.HasPrefix(goType, "int"), strings.HasPrefix(goType, "uint"), strings.HasPrefix(goType, "float"):
		return "a number"
	}
	return "an object"
}

func withArticle(jsonKind string) string {
	switch jsonKind {
	case "array", "object":
		return "an " + jsonKind
	case "bool":
		return "a boolean"
	}
	return "a " + jsonKind
}

// lazyRegexp compiles expr on first use. The edge's patterns are needed only
// to reword an error, and compiling them at package initialisation cost every
// start, before the first answer (issue 10: start within 1.5x of a bare
// forwarder).
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
