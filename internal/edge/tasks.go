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
	routeRequired // a call that must be a task, from a client that did not negotiate
	routeRemoved  // tasks/list or tasks/result: 2025-11-25's, not the extension's
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
// the extension.
func route(ctx context.Context, t Tasks, method string, params json.RawMessage) tasksRoute {
	if t == nil {
		return routeNone
	}
	switch {
	case isTaskMethod(method):
		if negotiated(ctx, params) {
			return routeServe
		}
		return routeRefuse
	case method == "tasks/list" || method == "tasks/result":
		return routeRemoved
	case method == string(mcp.MethodToolsCall):
		var p struct {
			Name string `json:"name"`
		}
		session := sessionNegotiated(ctx)
		if !session && !bytes.Contains(params, []byte(TasksExtension)) {
			// The common case: the name is read only if a tool requires tasks.
			if !t.AnyRequired() || !requiresAny(t, params) {
				return routeNone
			}
		}
		if json.Unmarshal(params, &p) != nil || !t.Follows(p.Name) {
			return routeNone
		}
		switch {
		case session || metaNegotiated(params):
			return routeFollow
		case t.Requires(p.Name):
			return routeRequired
		}
	}
	return routeNone
}

// requiresAny reports whether the tool params name must become a task.
func requiresAny(t Tasks, params json.RawMessage) bool {
	var p struct {
		Name string `json:"name"`
	}
	return json.Unmarshal(params, &p) == nil && t.Requires(p.Name)
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
		return serveTasks(ctx, t, method, paramsOf(msg), func(ctx context.Context) (json.RawMessage, *Error) {
			return next(ctx, method, msg)
		})
	}
}

// serveTasks answers one request as route decides; serve is the request
// served as before.
func serveTasks(ctx context.Context, t Tasks, method string, params json.RawMessage, serve func(context.Context) (json.RawMessage, *Error)) (json.RawMessage, *Error) {
	switch route(ctx, t, method, params) {
	case routeServe:
		return t.Serve(ctx, method, params)
	case routeRefuse:
		return nil, missingCapability(method)
	case routeRequired:
		var p struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(params, &p)
		e := missingCapability(method)
		e.Message = Excerpt(p.Name, 60) + " runs only as a task, in the tasks extension, which this request did not negotiate: declare \"" + TasksExtension + "\" under _meta's io.modelcontextprotocol/clientCapabilities.extensions"
		return nil, e
	case routeRemoved:
		return nil, &Error{Code: CodeMethodNotFound, Message: method + " is not a method of the tasks extension (" + TasksExtension + "), which inlines a task's result in tasks/get and has no task list"}
	case routeFollow:
		res, err := serve(context.WithValue(ctx, taskCallKey{}, true))
		if err != nil {
			return res, err
		}
		var p struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(params, &p)
		if created, ok := t.Create(ctx, p.Name, res); ok {
			return created, nil
		}
		return res, nil
	}
	return serve(ctx)
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
