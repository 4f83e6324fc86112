package edge

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"runtime/debug"
)

// MessageHandler serves one checked message: mcp-go behind an adapter, in this
// server. For a request, msg carries an id of the edge's own (a small
// integer, safe for any decoder) in place of the client's, which the edge
// puts back in the answer; the handler returns the result or the error.
// For a notification the return values are ignored.
type MessageHandler func(ctx context.Context, method string, msg []byte) (result json.RawMessage, err *Error)

// Respond serves one message whole and returns the bytes to send back, or
// nil when nothing is sent (a notification, a response from the client):
// what Stdio does for one line, with the same checks and exact ids, without
// the line loop, concurrency or cancellation. The transports do not use it
// (ServeStdio runs Stdio; Handler hands mcp-go's own HTTP handler the body
// through httpEdge); tests hold one message's answer to it.
func Respond(ctx context.Context, h MessageHandler, logger *slog.Logger, body []byte) []byte {
	f, perr := Parse(body)
	if perr != nil {
		logRefusal(logger, f, perr)
		return Refusal(f, perr)
	}
	switch f.Kind {
	case Notification:
		call(ctx, h, logger, f.Method, f.Raw)
		return nil
	case Response:
		logger.Debug("ignored a response from the client: the server sends no requests over this transport", "id", f.ID.String())
		return nil
	}
	msg, _, _ := forMCPGo(f)
	res, err := call(ctx, h, logger, f.Method, msg)
	if err != nil {
		return ErrorReply(f.ID, err)
	}
	return ResultReply(f.ID, res)
}

// call runs h, turning a panic into an internal error whose message names
// the method and leaves the panic's own words to the log.
func call(ctx context.Context, h MessageHandler, logger *slog.Logger, method string, msg []byte) (res json.RawMessage, err *Error) {
	defer func() {
		if r := recover(); r != nil {
			logger.Error("panic while serving a message", "method", method, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			res, err = nil, &Error{CodeInternalError, fmt.Sprintf("internal error while serving %s; the server's log has the details", excerpt(method)), nil}
		}
	}()
	res, err = h(ctx, method, msg)
	if err == nil && res == nil {
		res = json.RawMessage("{}")
	}
	return res, err
}

// logRefusal records a refused frame: its code and reason, never its
// content (it may hold a credential).
func logRefusal(logger *slog.Logger, f Frame, e *Error) {
	if f.Kind == Notification {
		logger.Warn("dropped a malformed notification", "method", excerpt(f.Method), "reason", e.Message)
		return
	}
	logger.Warn("refused a message", "id", f.ID.String(), "code", e.Code, "reason", e.Message, "bytes", len(f.Raw))
}
