package mcphttp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"github.com/companyintel/mcp-server/jsonrpc"
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
}

type messageKey struct{}

// MessageFrom returns the message ReadMessage put in the request's context.
func MessageFrom(ctx context.Context) (Message, bool) {
	m, ok := ctx.Value(messageKey{}).(Message)
	return m, ok
}

// wireMessage is the part of a JSON-RPC message that is read here. Each
// member is kept raw and read only when it is a string: a params member of
// the wrong type is mcp-go's to refuse, in words the edge rewrites, not a
// reason to refuse the whole body here.
type wireMessage struct {
	Method json.RawMessage `json:"method"`
	Params json.RawMessage `json:"params"`
}

type wireParams struct {
	Name            json.RawMessage `json:"name"`
	ProtocolVersion json.RawMessage `json:"protocolVersion"`
	Meta            json.RawMessage `json:"_meta"`
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
// frame rules of package jsonrpc, and otherwise puts the Message in the request's context
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
		// "method", a duplicate member) is answered here.
		if reply, ok := jsonrpc.Check(body); !ok {
			if reply == nil { // a notification or a client's response: nothing to answer
				w.WriteHeader(http.StatusAccepted)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write(reply)
			return
		}
		msg, ok := parseMessage(body)
		if !ok {
			WriteJSONRPCError(w, http.StatusBadRequest, -32700, "Parse error: the body must be one JSON-RPC message (a JSON object)")
			return
		}
		msg.ProtocolVersion = firstNonEmpty(r.Header.Get("MCP-Protocol-Version"), msg.ProtocolVersion)
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), messageKey{}, msg)))
	})
}

func parseMessage(body []byte) (Message, bool) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return Message{}, false
	}
	var wm wireMessage
	if err := json.Unmarshal(trimmed, &wm); err != nil {
		return Message{}, false
	}
	m := Message{Method: str(wm.Method)}
	var p wireParams
	if json.Unmarshal(wm.Params, &p) == nil {
		if m.Method == "tools/call" {
			m.Tool = str(p.Name)
		}
		var meta map[string]json.RawMessage
		if json.Unmarshal(p.Meta, &meta) == nil {
			m.ProtocolVersion = str(meta["io.modelcontextprotocol/protocolVersion"])
		}
		if m.ProtocolVersion == "" && m.Method == "initialize" {
			m.ProtocolVersion = str(p.ProtocolVersion)
		}
	}
	return m, true
}

func tooLarge(w http.ResponseWriter, max int64) {
	http.Error(w, "request body too large: at most "+itoa(max)+" bytes", http.StatusRequestEntityTooLarge)
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
