package edge

import (
	"context"
	"encoding/json"
	"log/slog"
	"mime"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// direct serves a POSTed request with the MCPServer itself, as stdio does
// (mcpHandler, ResultReply), when mcp-go's Streamable HTTP handler would
// do nothing for it but check the transport's rules, hand the body to the
// same MCPServer and encode the answer. That handler decodes the body
// twice more before HandleMessage, makes a session with four channels and
// a goroutine per request, and encodes the answer through encoding/json,
// which scans a tool's structured content twice; httpEdge then reads the
// answer once more to put the client's id and plain words in it. On a
// get_company call that was a third of what the HTTP mode spent beyond a
// bare mcp-go forwarder (BENCHMARKS.md, issue 24).
//
// It takes only what it can answer byte for byte as that path does
// (TestDirectAnswersAsMCPGosHandlerDoes holds the two to each other): a
// request for one of directMethods whose transport checks pass. Anything
// the transport would refuse, and every other message, takes mcp-go's
// handler, which answers it in its own words.
type direct struct {
	s      *server.MCPServer
	logger *slog.Logger // takes a handler's panic
	// versions are the protocol versions the transport serves, which
	// mcp-go's handler puts in each request's context (server/discover
	// and the unsupported-version error name them).
	versions []string
	// bound caches, per tool name, whether the tool's input schema binds
	// an argument to a header (x-mcp-header), which 2026-07-28 requires
	// the transport to check against the body: such calls take mcp-go's
	// handler. Tools are fixed once the server serves.
	bound sync.Map // string → bool
	// tasks, when set, is the tasks extension: its methods are answered
	// here, and a followed tool's call may become a task (tasks.go).
	tasks Tasks
}

// directMethods are the methods whose answer depends on nothing the
// transport keeps: not initialize (a session id), subscriptions/listen
// (a stream), prompts/get (CheckPrompt's answer must yield to mcp-go's
// protocol errors, which httpEdge orders after the fact), logging or
// anything that sends the client a request or notification mid-call.
var directMethods = map[string]bool{
	string(mcp.MethodToolsCall):              true,
	string(mcp.MethodToolsList):              true,
	string(mcp.MethodResourcesRead):          true,
	string(mcp.MethodResourcesList):          true,
	string(mcp.MethodResourcesTemplatesList): true,
	string(mcp.MethodPromptsList):            true,
	string(mcp.MethodPing):                   true,
}

func newDirect(s *server.MCPServer, transport *server.StreamableHTTPServer, logger *slog.Logger, tasks Tasks) *direct {
	return &direct{s: s, logger: logger, versions: server.FilterSupportedVersions(transport), tasks: tasks}
}

// takes reports whether d answers the request r carries (msg): the checks
// of mcp-go's handlePost and HandleMessage that read the HTTP request, in
// their order, all passing.
func (d *direct) takes(r *http.Request, msg Message) bool {
	f := msg.Frame
	task := d.tasks != nil && f.Method != string(mcp.MethodToolsCall) && tasksMethod(f.Method)
	if r.Method != http.MethodPost || f.Kind != Request || !(directMethods[f.Method] || task) || msg.metaCase {
		return false
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return false
	}
	header := r.Header.Get(mcp.HeaderProtocolVersion)
	if !mcp.IsModernProtocol(header) && !mcp.IsModernProtocol(msg.MetaVersion) {
		// 2025-11-25 and before: a version header this SDK knows, or none.
		return header == "" || mcp.IsValidProtocolVersion(header)
	}
	// 2026-07-28: the same known version in the header and in _meta, no
	// Last-Event-ID, and the Mcp-Method, Mcp-Name and argument headers
	// matching the body (HandleMessage reads those only from a context
	// key of mcp-go's own, so they are checked here).
	if r.Header.Get(mcp.HeaderLastEventID) != "" || header != msg.MetaVersion || !mcp.IsValidProtocolVersion(header) {
		return false
	}
	if task { // its routing headers are checked in serve (taskHeaders)
		return true
	}
	if mcp.ValidateStandardHeaders(r.Header.Get, header, mcp.MCPMethod(f.Method), f.Params) != nil {
		return false
	}
	return f.Method != string(mcp.MethodToolsCall) || !d.binds(msg.Tool)
}

// binds reports whether the tool named binds an argument to a header.
func (d *direct) binds(name string) bool {
	if b, ok := d.bound.Load(name); ok {
		return b.(bool)
	}
	t := d.s.GetTool(name)
	b := t != nil && len(mcp.ExtractParamHeaderBindings(&t.Tool)) > 0
	d.bound.Store(name, b)
	return b
}

// directAnswers counts the requests direct answered in this process, for
// the tests that show which requests it takes.
var directAnswers atomic.Int64

// serve answers the request. It returns the answer's JSON-RPC error (nil
// for a result), whether a JSON-RPC answer was written, and the HTTP
// status.
func (d *direct) serve(w http.ResponseWriter, r *http.Request, msg Message, modern bool) (*Error, bool, int) {
	directAnswers.Add(1)
	f := msg.Frame
	ctx := d.s.WithContext(r.Context(), &httpSession{})
	ctx = server.WithSupportedProtocolVersions(ctx, d.versions)
	body, _, _ := forMCPGo(f)
	var (
		res      json.RawMessage
		e        *Error
		answered = true
	)
	if modern && d.tasks != nil && isTaskMethod(f.Method) {
		e = taskHeaders(r.Header.Get, f)
	}
	if e == nil {
		res, e, answered = d.answer(ctx, f.Method, f.Params, body)
	}
	if !answered { // HandleMessage kept quiet, as for a notification
		w.WriteHeader(http.StatusAccepted)
		return nil, false, http.StatusAccepted
	}
	var reply []byte
	status := http.StatusOK
	if e != nil {
		reply = ErrorReply(f.ID, e)
		if modern {
			status = modernStatus(e.Code)
		}
	} else {
		reply = ResultReply(f.ID, res)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(reply, '\n'))
	return e, true, status
}

// answer is mcp-go's answer to msg in the words both transports give it,
// recovering a handler's panic as stdio does (call). Error data is read
// back as JSON values, as httpEdge reads it from mcp-go's encoded answer,
// so its members come in the same order.
func (d *direct) answer(ctx context.Context, method string, params json.RawMessage, msg []byte) (res json.RawMessage, e *Error, answered bool) {
	answered = true
	handle := func(ctx context.Context, method string, msg []byte) (json.RawMessage, *Error) {
		r, err, ok := handleWithMCPGo(ctx, d.s, method, msg)
		answered = ok
		return r, err
	}
	if d.tasks != nil {
		mcpgo := handle
		handle = func(ctx context.Context, method string, msg []byte) (json.RawMessage, *Error) {
			return serveTasks(ctx, d.tasks, method, params, func(ctx context.Context, strip bool) (json.RawMessage, *Error) {
				if strip {
					return mcpgo(ctx, method, withoutTask(msg))
				}
				return mcpgo(ctx, method, msg)
			})
		}
	}
	res, e = call(ctx, handle, d.logger, method, msg)
	if e != nil && len(e.Data) > 0 {
		var v any
		if json.Unmarshal(e.Data, &v) == nil {
			e.Data, _ = json.Marshal(v)
		}
	}
	return res, e, answered
}

// httpSession is the client of one request, as mcp-go sees it: stateless,
// so it knows nothing between requests and has no id. It cannot ask the
// client anything (no Elicitor): 2026-07-28 clients are asked through the
// answer (tools.Runtime.confirm), and older ones over HTTP not at all. Like
// mcp-go's own session for a stateless request, it keeps what a 2026-07-28
// request's _meta says of the client, and no protocol version.
type httpSession struct {
	initialized atomic.Bool
	clientInfo
}

var (
	_ server.ClientSession         = (*httpSession)(nil)
	_ server.SessionWithClientInfo = (*httpSession)(nil)
)

func (s *httpSession) SessionID() string { return "" }

// NotificationChannel is nil: no method direct serves sends the client
// anything mid-call, and mcp-go's sends do not wait (one would be dropped,
// through its OnError hook).
func (s *httpSession) NotificationChannel() chan<- mcp.JSONRPCNotification { return nil }
func (s *httpSession) Initialize()                                         { s.initialized.Store(true) }
func (s *httpSession) Initialized() bool                                   { return s.initialized.Load() }
