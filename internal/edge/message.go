package edge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// DefaultMaxBody caps a request body. The largest legitimate request (a
// tool call with 50 ids and a 500-character context) is a few KiB.
const DefaultMaxBody = 1 << 20

// Message is what the server needs to know of a POSTed JSON-RPC message
// before mcp-go handles it.
type Message struct {
	// Method is the JSON-RPC method; empty for a response the client posts.
	Method string
	// Tool is params.name of a tools/call.
	Tool string
	// ProtocolVersion is the revision the message is spoken in: the
	// MCP-Protocol-Version header, else the version a 2026-07-28 request
	// carries in params._meta, else the one an initialize asks for.
	ProtocolVersion string
	// MetaVersion is the version params._meta names ("" for none).
	MetaVersion string
	// metaCase is true when a member name matched for MetaVersion was
	// spelled in another case than MCP's. mcp-go reads that key exactly, so
	// it may see another version than MetaVersion (direct.go).
	metaCase bool
	// Frame is the message as Parse read it, body included: the
	// one parse of the body before mcp-go's.
	Frame Frame
}

type messageKey struct{}

// MessageFrom returns the message ReadMessage put in the request's context.
func MessageFrom(ctx context.Context) (Message, bool) {
	m, ok := ctx.Value(messageKey{}).(Message)
	return m, ok
}

// str is raw's value when it is a JSON string, else "".
func str(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// ReadMessage reads a POST body through a limit of max bytes, answers 413
// when it is larger and a JSON-RPC error (HTTP 400) when it breaks the
// frame rules of Parse, and otherwise puts the Message in the request's context
// and hands the body on, unread, to next. Other methods pass untouched.
func ReadMessage(max int64, next http.Handler) http.Handler {
	if max <= 0 {
		max = DefaultMaxBody
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		if r.ContentLength > max {
			tooLarge(w, max)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, max))
		if err != nil {
			if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
				tooLarge(w, max)
				return
			}
			http.Error(w, "cannot read the request body", http.StatusBadRequest)
			return
		}
		// The same frame rules as on stdio: what mcp-go's decoder would
		// read differently from the rules (a batch, "Method" for
		// "method", a duplicate member) is answered here. This is the
		// one parse of the body before mcp-go's: everything after reads
		// the Message it leaves in the request's context.
		f, perr := Parse(body)
		var reply []byte
		if perr != nil {
			reply = Refusal(f, perr)
		}
		switch {
		case reply != nil:
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write(reply)
			return
		case perr != nil, f.Kind == Response:
			w.WriteHeader(http.StatusAccepted) // nothing to answer
			return
		}
		msg := messageOf(f)
		msg.ProtocolVersion = firstNonEmpty(r.Header.Get("MCP-Protocol-Version"), msg.ProtocolVersion)
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), messageKey{}, msg)))
	})
}

// messageOf reads what the edge needs from a frame's params: one decode of
// params, none of the rest of the body.
func messageOf(f Frame) Message {
	m := Message{Method: f.Method, Frame: f}
	// Each member is kept raw and read only when it is a string: a params
	// member of the wrong type is mcp-go's to refuse, in words the edge
	// rewrites, not a reason to refuse the whole body here. Names match as
	// Go's decoder, and so mcp-go, matches them: case-insensitively, the
	// last one written winning.
	var name, version, meta json.RawMessage
	if f.Params == nil || !Members(f.Params, func(k string, v json.RawMessage) {
		switch {
		case strings.EqualFold(k, "name"):
			name = v
		case strings.EqualFold(k, "protocolVersion"):
			version = v
		case strings.EqualFold(k, "_meta"):
			meta = v
			m.metaCase = m.metaCase || k != "_meta"
		}
	}) {
		return m
	}
	if m.Method == "tools/call" {
		m.Tool = str(name)
	}
	if len(meta) > 0 && meta[0] == '{' {
		Members(meta, func(k string, v json.RawMessage) {
			if strings.EqualFold(k, mcp.MetaKeyProtocolVersion) {
				m.MetaVersion = str(v)
				m.metaCase = m.metaCase || k != mcp.MetaKeyProtocolVersion
			}
		})
	}
	m.ProtocolVersion = m.MetaVersion
	if m.ProtocolVersion == "" && m.Method == "initialize" {
		m.ProtocolVersion = str(version)
	}
	return m
}

func tooLarge(w http.ResponseWriter, max int64) {
	http.Error(w, "request body too large: at most "+strconv.FormatInt(max, 10)+" bytes", http.StatusRequestEntityTooLarge)
}

// WriteJSONRPCError answers with a JSON-RPC error object (id null) and the
// given HTTP status, for refusals made before a message reaches mcp-go.
func WriteJSONRPCError(w http.ResponseWriter, status, code int, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"jsonrpc": "2.0",
		"id":      nil,
		"error":   map[string]any{"code": code, "message": message},
	})
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
