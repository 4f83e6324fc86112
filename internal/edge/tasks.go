package edge

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Tasks is the MCP Tasks extension (io.modelcontextprotocol/tasks,
// SEP-2663) behind the edge: package tasks. The edge decides which
// requests reach it, the same way on both transports (tasksHandler):
//
//   - tasks/get, tasks/update and tasks/cancel from a client that
//     negotiated the extension go to Serve; from one that did not, they
//     are refused with -32021 naming the extension.
//   - A tools/call of a tool the extension follows, from a client that
//     negotiated it, is served as any call, and its answer then goes to
//     Create, which may answer a CreateTaskResult in its place.
//   - Anything else, and every request of a client that did not
//     negotiate, is served as before, byte for byte.
//
// A client negotiates per request, in params._meta's
// io.modelcontextprotocol/clientCapabilities (2026-07-28), or, on stdio,
// for the session in initialize's capabilities.
type Tasks interface {
	Follows(tool string) bool
	// CreateLegacy and ServeLegacy are Create and Serve in 2025-11-25's
	// experimental tasks, for a client that asked for a task with
	// params.task: the same records, that revision's shapes.
	CreateLegacy(ctx context.Context, tool string, result json.RawMessage) (json.RawMessage, bool)
	ServeLegacy(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, *Error)
	// Requires reports whether a call of tool must become a task: one from
	// a client that did not negotiate is refused (-32021). AnyRequired
	// reports whether any tool must, so that other calls are not read.
	Requires(tool string) bool
	AnyRequired() bool
	Create(ctx context.Context, tool string, result json.RawMessage) (json.RawMessage, bool)
	Serve(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, *Error)
}

// TasksExtension is the extension's identifier.
const TasksExtension = "io.modelcontextprotocol/tasks"

// codeMissingCapability is MCP's -32021, Missing Required Client Capability.
const codeMissingCapability = mcp.MISSING_REQUIRED_CLIENT_CAPABILITY

// isTaskMethod reports whether method is one of the extension's own.
func isTaskMethod(method string) bool {
	return method == "tasks/get" || method == "tasks/update" || method == "tasks/cancel"
}

// tasksRoute says what the extension does with a request: nothing
// (served as before), serve it (a tasks/* method), or follow a tool call.
type tasksRoute int

const (
	routeNone tasksRoute = iota
	routeServe
	routeRefuse // a tasks/* method from a client that did not negotiate
	routeFollow
	routeRequired     // a call that must be a task, from a client that did not negotiate
	routeRemoved      // tasks/list, and tasks/result at 2026-07-28: not the extension's
	routeLegacyFollow // a 2025-11-25 call with params.task (the experimental tasks)
	routeLegacyServe  // a 2025-11-25 tasks/get, tasks/result or tasks/cancel
)

// TaskCall reports whether ctx is a tool call that may become a task: the
// tool may answer at once with the job it started (package tasks then
// follows the job), rather than wait for it.
func TaskCall(ctx context.Context) bool {
	b, _ := ctx.Value(taskCallKey{}).(bool)
	return b
}

type taskCallKey struct{}

// route decides, reading the params only when the request could concern
// the extension; strip says a tools/call's params.task (2025-11-25's ask
// for a task) is to be taken out before mcp-go sees it, which would
// otherwise run its own, per-session tasks (unsafe on a stateless
// service: every caller shares its one session).
func route(ctx context.Context, t Tasks, method string, params json.RawMessage) (r tasksRoute, strip bool) {
	if t == nil {
		return routeNone, false
	}
	switch {
	case isTaskMethod(method) || method == "tasks/result":
		switch {
		case method != "tasks/result" && negotiated(ctx, params):
			return routeServe, false
		case method != "tasks/update" && !modernRequest(params):
			return routeLegacyServe, false
		case method == "tasks/result":
			return routeRemoved, false
		}
		return routeRefuse, false
	case method == "tasks/list":
		return routeRemoved, false
	case method == string(mcp.MethodToolsCall):
		session := sessionNegotiated(ctx)
		if !session && !bytes.Contains(params, []byte(TasksExtension)) && !bytes.Contains(params, []byte(`"task"`)) {
			// The common case: the name is read only if a tool requires tasks.
			if !t.AnyRequired() || !requiresAny(t, params) {
				return routeNone, false
			}
		}
		var p struct {
			Name string          `json:"name"`
			Task json.RawMessage `json:"task"`
		}
		if json.Unmarshal(params, &p) != nil || !t.Follows(p.Name) {
			return routeNone, false
		}
		strip = len(p.Task) > 0
		switch {
		case session || metaNegotiated(params):
			return routeFollow, strip
		case strip && p.Task[0] == '{' && !modernRequest(params):
			return routeLegacyFollow, strip
		case t.Requires(p.Name):
			return routeRequired, strip
		}
		return routeNone, strip
	}
	return routeNone, false
}

// modernRequest reports whether params._meta names 2026-07-28 or later.
func modernRequest(params json.RawMessage) bool {
	var p struct {
		Meta struct {
			Version string `json:"io.modelcontextprotocol/protocolVersion"`
		} `json:"_meta"`
	}
	return json.Unmarshal(params, &p) == nil && mcp.IsModernProtocol(p.Meta.Version)
}

// requiresAny reports whether the tool params name must become a task.
func requiresAny(t Tasks, params json.RawMessage) bool {
	var p struct {
		Name string `json:"name"`
	}
	return json.Unmarshal(params, &p) == nil && t.Requires(p.Name)
}

// withoutTask returns msg with params.task taken out.
func withoutTask(msg []byte) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(msg, &m) != nil {
		return msg
	}
	var p map[string]json.RawMessage
	if json.Unmarshal(m["params"], &p) != nil {
		return msg
	}
	delete(p, "task")
	m["params"], _ = json.Marshal(p)
	out, err := json.Marshal(m)
	if err != nil {
		return msg
	}
	return out
}

// negotiated reports whether the request's client negotiated the extension.
func negotiated(ctx context.Context, params json.RawMessage) bool {
	return metaNegotiated(params) || sessionNegotiated(ctx)
}

// metaNegotiated reads params._meta's client capabilities.
func metaNegotiated(params json.RawMessage) bool {
	var p struct {
		Meta struct {
			Caps struct {
				Extensions map[string]json.RawMessage `json:"extensions"`
			} `json:"io.modelcontextprotocol/clientCapabilities"`
		} `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil {
		return false
	}
	v, ok := p.Meta.Caps.Extensions[TasksExtension]
	return ok && len(v) > 0 && v[0] == '{'
}

// sessionNegotiated reads what the session's client declared at
// initialize (stdio; a stateless HTTP request has no session to remember).
func sessionNegotiated(ctx context.Context) bool {
	s, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo)
	if !ok {
		return false
	}
	if _, isHTTP := s.(*httpSession); isHTTP {
		return false
	}
	_, ok = s.GetClientCapabilities().Extensions[TasksExtension]
	return ok
}

// missingCapability refuses a tasks/* method from a client that did not
// negotiate the extension.
func missingCapability(method string) *Error {
	return &Error{
		Code:    codeMissingCapability,
		Message: method + " belongs to the tasks extension, which this request did not negotiate: declare \"" + TasksExtension + "\" under _meta's io.modelcontextprotocol/clientCapabilities.extensions",
		Data:    json.RawMessage(`{"requiredCapabilities":{"extensions":{"` + TasksExtension + `":{}}}}`),
	}
}

// tasksHandler puts the extension in front of next (stdio: next is
// mcpHandler). msg is the whole message; its params are read only for the
// requests route names.
func tasksHandler(t Tasks, next MessageHandler) MessageHandler {
	if t == nil {
		return next
	}
	return func(ctx context.Context, method string, msg []byte) (json.RawMessage, *Error) {
		if !tasksMethod(method) {
			return next(ctx, method, msg)
		}
		// Most calls concern no task: the message is not decoded for them.
		if method == string(mcp.MethodToolsCall) && !t.AnyRequired() && !sessionNegotiated(ctx) &&
			!bytes.Contains(msg, []byte(TasksExtension)) && !bytes.Contains(msg, []byte(`"task"`)) {
			return next(ctx, method, msg)
		}
		return serveTasks(ctx, t, method, paramsOf(msg), func(ctx context.Context, strip bool) (json.RawMessage, *Error) {
			if strip {
				return next(ctx, method, withoutTask(msg))
			}
			return next(ctx, method, msg)
		})
	}
}

// serveTasks answers one request as route decides; serve is the request
// served as before (strip: without params.task).
func serveTasks(ctx context.Context, t Tasks, method string, params json.RawMessage, serve func(ctx context.Context, strip bool) (json.RawMessage, *Error)) (json.RawMessage, *Error) {
	r, strip := route(ctx, t, method, params)
	name := func() string {
		var p struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(params, &p)
		return p.Name
	}
	switch r {
	case routeServe:
		return t.Serve(ctx, method, params)
	case routeLegacyServe:
		return t.ServeLegacy(ctx, method, params)
	case routeRefuse:
		return nil, missingCapability(method)
	case routeRequired:
		e := missingCapability(method)
		e.Message = Excerpt(name(), 60) + " runs only as a task, in the tasks extension, which this request did not negotiate: declare \"" + TasksExtension + "\" under _meta's io.modelcontextprotocol/clientCapabilities.extensions"
		return nil, e
	case routeRemoved:
		return nil, &Error{Code: CodeMethodNotFound, Message: method + " is not a method of the tasks extension (" + TasksExtension + "), which inlines a task's result in tasks/get and has no task list"}
	case routeFollow, routeLegacyFollow:
		res, err := serve(context.WithValue(ctx, taskCallKey{}, true), strip)
		if err != nil {
			return res, err
		}
		create := t.Create
		if r == routeLegacyFollow {
			create = t.CreateLegacy
		}
		if created, ok := create(ctx, name(), res); ok {
			return created, nil
		}
		return res, nil
	}
	return serve(ctx, strip)
}

// paramsOf returns a message's params member.
func paramsOf(msg []byte) json.RawMessage {
	var m struct {
		Params json.RawMessage `json:"params"`
	}
	_ = json.Unmarshal(msg, &m)
	return m.Params
}

// taskHeaders checks a 2026-07-28 tasks/* request's routing headers
// (SEP-2663): Mcp-Method naming the method and Mcp-Name the task, as the
// body does. mcp-go checks them only for the methods it knows.
func taskHeaders(get func(string) string, f Frame) *Error {
	mismatch := func(why string) *Error {
		return &Error{Code: mcp.HEADER_MISMATCH, Message: "header mismatch: " + why}
	}
	switch m := strings.TrimSpace(get(mcp.HeaderMethod)); {
	case m == "":
		return mismatch("the Mcp-Method header is missing; it must name the method, " + f.Method)
	case m != f.Method:
		return mismatch(fmt.Sprintf("the Mcp-Method header says %q but the body's method is %q", Excerpt(m, 40), f.Method))
	}
	var p struct {
		TaskID string `json:"taskId"`
	}
	_ = json.Unmarshal(f.Params, &p)
	name, ok := mcp.DecodeHeaderValue(strings.TrimSpace(get(mcp.HeaderName)))
	switch {
	case get(mcp.HeaderName) == "":
		return mismatch("the Mcp-Name header is missing; on " + f.Method + " it must carry params.taskId")
	case !ok || name != p.TaskID:
		return mismatch("the Mcp-Name header does not match params.taskId")
	}
	return nil
}

// tasksMethod reports whether the extension may have a say in method.
func tasksMethod(method string) bool {
	return isTaskMethod(method) || method == string(mcp.MethodToolsCall) || method == "tasks/list" || method == "tasks/result"
}
