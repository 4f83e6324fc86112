package edge

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/companyintel/mcp-server/internal/ops/telemetry"
)

// Answered is the answer the edge gave one HTTP request, for a layer
// around Handler's hand-off to mcp-go (the metrics) that counts what the
// client got: mcp-go's hooks see mcp-go's own error code, which the edge
// may have changed (plainError, CheckPrompt).
type Answered struct {
	// Seen is true once the edge saw a JSON-RPC answer to the request (a
	// transport refusal in plain text is not one).
	Seen bool
	// Code is the answer's JSON-RPC error code; 0 for a result.
	Code int
}

type answeredKey struct{}

// WithAnswered returns ctx carrying an Answered that Handler fills in for
// the request served in ctx.
func WithAnswered(ctx context.Context) (context.Context, *Answered) {
	a := &Answered{}
	return context.WithValue(ctx, answeredKey{}, a), a
}

// httpEdge gives HTTP the answers stdio gives. A request direct takes (d,
// when not nil) is answered by the MCPServer as on stdio; any other goes
// through mcp-go's Streamable HTTP handler (next), which keeps the
// transport's own rules (Content-Type, MCP-Protocol-Version for
// 2025-11-25 and 2026-07-28, 202 for notifications, the HTTP status of a
// 2026-07-28 error), and what that handler writes is rewritten as follows.
//
// It reads the message ReadMessage parsed (and must run after it):
// the body is not read or decoded again here. mcp-go reads the request's id
// through float64 and writes a string id back HTML-escaped, so an id it
// would not write back as sent is swapped for edgeID and put back, byte for
// byte, in the answer (an application/json body, or the answer event of a
// text/event-stream body; notifications and server requests in the stream
// pass as they are). A result is passed on without being decoded, with
// stdio's spelling of <, > and &; error messages get the same plain words
// as on stdio (plainError), and prompts/get its argument check (-32602,
// where mcp-go says -32603).
//
// With tracing on (tr not nil), this is also where each request's server
// span starts and ends: the one place on HTTP where its method, id and
// _meta are known.
func httpEdge(tr *telemetry.Tracing, checkPrompt func(msg []byte) *Error, d *direct, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		msg, ok := MessageFrom(r.Context())
		if r.Method != http.MethodPost || !ok || msg.Frame.Kind != Request {
			next.ServeHTTP(w, r)
			return
		}
		f := msg.Frame
		aw := &answerWriter{w: w, id: f.ID, method: f.Method,
			modern: mcp.IsModernProtocol(r.Header.Get(mcp.HeaderProtocolVersion)) || mcp.IsModernProtocol(msg.MetaVersion)}
		if tr != nil {
			ctx, span := tr.StartServer(r.Context(), telemetry.Request{
				Method: f.Method, ID: f.ID.Text(), Params: f.Params, Transport: telemetry.TCP,
				ProtocolVersion: r.Header.Get(mcp.HeaderProtocolVersion), Header: r.Header,
			})
			r = r.WithContext(ctx)
			defer func() { telemetry.Finish(span, aw.outcome()) }()
		}
		defer aw.record(r)
		if d != nil && d.takes(r, msg) {
			aw.answered, aw.seen, aw.status = d.serve(w, r, msg, aw.modern)
			return
		}
		if checkPrompt != nil && f.Method == string(mcp.MethodPromptsGet) {
			// Refused after mcp-go has applied the transport's rules, so a
			// request they reject still gets their answer.
			aw.refused = checkPrompt(f.Raw)
		}
		// An id mcp-go would write back otherwise than sent is swapped for
		// edgeID on the way in (forMCPGo) and back on the way out.
		inner, sent, swapped := forMCPGo(f)
		if d != nil && f.Method == string(mcp.MethodToolsCall) {
			// mcp-go would run a call with params.task as a task of its
			// own, in a session every caller shares (tasks.go: route).
			if _, strip := route(r.Context(), d.tasks, f.Method, f.Params); strip {
				inner, swapped = withoutTask(inner), true
			}
		}
		if aw.sent = sent; swapped {
			r.Body = io.NopCloser(bytes.NewReader(inner))
			r.ContentLength = int64(len(inner))
		}
		next.ServeHTTP(aw, r)
		aw.finish()
	})
}

// record fills in the Answered the request's context carries, if any.
func (a *answerWriter) record(r *http.Request) {
	if rec, ok := r.Context().Value(answeredKey{}).(*Answered); ok && a.seen {
		rec.Seen = true
		if a.answered != nil {
			rec.Code = a.answered.Code
		}
	}
}

// answerWriter rewrites the answer mcp-go writes for one request. An
// application/json body is held until the handler returns, since its
// status may change with the error code; a text/event-stream body is
// passed on event by event, so progress still streams; anything else
// (mcp-go's plain-text refusals) passes untouched.
type answerWriter struct {
	w       http.ResponseWriter
	id      ID
	sent    json.RawMessage // the id mcp-go was given: the client's, or edgeID
	method  string
	modern  bool
	refused *Error // prompts/get's argument check, when it failed

	mode    int // one of the modes below, set at the first write
	status  int
	pending []byte // the held body, or a stream's unfinished event
	// held is the reused buffer a held body is read into (answerBuffers),
	// until finish gives it back.
	held *[]byte
	// answered is the answer's JSON-RPC error, once the answer is seen;
	// zero for a result.
	answered *Error
	seen     bool
}

// outcome is how the request ended, for its span.
func (a *answerWriter) outcome() telemetry.Outcome {
	switch {
	case a.answered != nil:
		return telemetry.Outcome{Code: a.answered.Code, Message: a.answered.Message}
	case !a.seen:
		return telemetry.Outcome{HTTPStatus: a.status}
	}
	return telemetry.Outcome{}
}

const (
	modeUnset = iota
	modePass
	modeJSON
	modeStream
)

func (a *answerWriter) Header() http.Header { return a.w.Header() }

// Unwrap lets http.ResponseController reach the connection (mcp-go sets
// write deadlines through it).
func (a *answerWriter) Unwrap() http.ResponseWriter { return a.w }

func (a *answerWriter) WriteHeader(status int) {
	if a.mode != modeUnset {
		return
	}
	a.status = status
	mt, _, _ := mime.ParseMediaType(a.w.Header().Get("Content-Type"))
	switch mt {
	case "application/json":
		a.mode = modeJSON
	case "text/event-stream":
		a.mode = modeStream
		a.w.WriteHeader(status)
	default:
		a.mode = modePass
		a.w.WriteHeader(status)
	}
}

func (a *answerWriter) Write(p []byte) (int, error) {
	if a.mode == modeUnset {
		a.WriteHeader(http.StatusOK)
	}
	switch a.mode {
	case modeJSON:
		if a.held == nil {
			a.held = answerBuffers.Get().(*[]byte)
			a.pending = (*a.held)[:0]
		}
		a.pending = append(a.pending, p...)
		return len(p), nil
	case modeStream:
		a.pending = append(a.pending, p...)
		for {
			end := bytes.Index(a.pending, []byte("\n\n"))
			if end < 0 {
				return len(p), nil
			}
			event := a.pending[:end+2]
			if _, err := a.w.Write(a.event(event)); err != nil {
				return 0, err
			}
			a.pending = a.pending[end+2:]
		}
	}
	return a.w.Write(p)
}

// Flush passes a stream's flushes on; a held body is sent at the end.
func (a *answerWriter) Flush() {
	if a.mode == modeJSON {
		return
	}
	if f, ok := a.w.(http.Flusher); ok {
		f.Flush()
	}
}

// finish sends a held body, and whatever of a stream was left unfinished.
func (a *answerWriter) finish() {
	switch a.mode {
	case modeJSON:
		// The answer is rewritten into a second reused buffer, and both go
		// back once written: the answer is the largest thing a call
		// writes, and two new copies of it were two of the largest
		// allocations of a call on HTTP.
		reply := answerBuffers.Get().(*[]byte)
		out, code, changed := a.answer((*reply)[:0], bytes.TrimSpace(a.pending))
		status := a.status
		if changed && a.modern {
			status = modernStatus(code)
		}
		if changed {
			out = append(out, '\n')
		}
		a.w.Header().Del("Content-Length")
		a.w.WriteHeader(status)
		_, _ = a.w.Write(out)
		if changed {
			*reply = out
		}
		putAnswerBuffer(reply)
		if a.held != nil {
			*a.held = a.pending
			putAnswerBuffer(a.held)
			a.held, a.pending = nil, nil
		}
	case modeStream:
		if len(a.pending) > 0 {
			_, _ = a.w.Write(a.pending)
		}
	}
}

// event rewrites the data line of one server-sent event.
func (a *answerWriter) event(ev []byte) []byte {
	lines := bytes.Split(ev, []byte("\n"))
	for i, l := range lines {
		if data, ok := bytes.CutPrefix(l, []byte("data: ")); ok {
			if out, _, changed := a.answer(nil, data); changed {
				lines[i] = append([]byte("data: "), out...)
			}
		}
	}
	return bytes.Join(lines, []byte("\n"))
}

// answer rewrites msg when it is the answer to this request: the client's
// id, and the error in stdio's words, appended to dst. It returns the
// rewritten answer (msg itself when it was not the answer), the answer's
// error code (0 for a result) and whether msg was the answer.
func (a *answerWriter) answer(dst, msg []byte) ([]byte, int, bool) {
	// A result, the common answer, is read without decoding: mcp-go
	// writes {"jsonrpc":"2.0","id":…,"result":…}, members in that order.
	if a.refused == nil {
		if rest, ok := a.cutResultPrefix(msg); ok && len(rest) > 0 && rest[len(rest)-1] == '}' {
			a.seen = true
			return AppendResultReply(dst, a.id, rest[:len(rest)-1]), 0, true
		}
	}
	var m struct {
		ID     json.RawMessage          `json:"id"`
		Method *string                  `json:"method"`
		Result json.RawMessage          `json:"result"`
		Error  *mcp.JSONRPCErrorDetails `json:"error"`
	}
	if json.Unmarshal(msg, &m) != nil || m.Method != nil || (m.Result == nil && m.Error == nil) {
		return msg, 0, false
	}
	// null: mcp-go refused before reading the id; it still answers this
	// request, whose id is known here.
	if id := string(bytes.TrimSpace(m.ID)); id != string(a.sent) && id != "null" && id != "" {
		return msg, 0, false
	}
	a.seen = true
	switch {
	// The check's answer replaces the handler's (a result, or -32603 for
	// a missing argument) and mcp-go's decode error, never a refusal of
	// the transport's.
	case a.refused != nil && (m.Error == nil || m.Error.Code == CodeInternalError || goism().MatchString(m.Error.Message)):
		a.answered = a.refused
		return append(dst, ErrorReply(a.id, a.refused)...), a.refused.Code, true
	case m.Error != nil:
		e := plainError(a.method, *m.Error)
		a.answered = e
		return append(dst, ErrorReply(a.id, e)...), e.Code, true
	}
	return AppendResultReply(dst, a.id, m.Result), 0, true
}

// answerBuffers are the buffers answerWriter holds a JSON answer in and
// rewrites it into, reused across requests.
var answerBuffers = sync.Pool{New: func() any { return new([]byte) }}

// maxPooledAnswer is the largest buffer kept for reuse, so that one huge
// answer is not held for the life of the process.
const maxPooledAnswer = 256 << 10

func putAnswerBuffer(b *[]byte) {
	if cap(*b) <= maxPooledAnswer {
		*b = (*b)[:0]
		answerBuffers.Put(b)
	}
}

// cutResultPrefix cuts from msg how mcp-go's answer to this request
// begins when it is a result: {"jsonrpc":"2.0","id":<sent>,"result":.
func (a *answerWriter) cutResultPrefix(msg []byte) ([]byte, bool) {
	rest, ok := bytes.CutPrefix(msg, []byte(`{"jsonrpc":"2.0","id":`))
	if ok {
		rest, ok = bytes.CutPrefix(rest, a.sent)
	}
	if ok {
		rest, ok = bytes.CutPrefix(rest, []byte(`,"result":`))
	}
	return rest, ok
}

// modernStatus is the HTTP status protocol 2026-07-28 gives a JSON-RPC
// error, as mcp-go maps it: the codes for a caller's mistake are 400, an
// unknown method 404, the rest 200.
func modernStatus(code int) int {
	switch code {
	case 0:
		return http.StatusOK
	case mcp.METHOD_NOT_FOUND:
		return http.StatusNotFound
	case mcp.HEADER_MISMATCH, mcp.MISSING_REQUIRED_CLIENT_CAPABILITY, mcp.UNSUPPORTED_PROTOCOL_VERSION,
		mcp.INVALID_REQUEST, mcp.INVALID_PARAMS, mcp.PARSE_ERROR:
		return http.StatusBadRequest
	}
	return http.StatusOK
}
