package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"runtime/debug"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/companyintel/mcp-server/ratelimit"
)

// DefaultCallTimeout bounds a whole tool call when the Runtime sets none.
const DefaultCallTimeout = 30 * time.Second

// Limiter decides whether a caller may call a tool now. It never blocks
// beyond its own short deadline, and a refusal spends nothing.
// *ratelimit.Limiter (in process) and *ratelimit.Redis (shared by replicas)
// implement it. An error means the limiter could not decide: the call is
// refused, never let through unlimited.
type Limiter interface {
	Allow(ctx context.Context, tool, caller string) (ratelimit.Decision, error)
}

// Refunder is a Limiter that can give a spent token back. A write the
// backend refused as not found did nothing, so it should cost nothing: a
// model that mistyped an id must not find its budget gone when it retries
// with the right one. Both limiters implement it.
type Refunder interface {
	Refund(ctx context.Context, tool, caller string) error
}

// Runtime is what the pipeline needs from the running server.
type Runtime struct {
	// Logger receives one audit record per call. Required.
	Logger *slog.Logger
	// Limiter, when set, is consulted after validation and the gate.
	Limiter Limiter
	// UnauthorizedHint says how to fix credentials the backend refused.
	UnauthorizedHint func() string
	// ErrorClasses are the operator's errorType mappings (--error-class).
	ErrorClasses ErrorClasses
	// CallTimeout bounds each call; 0 means DefaultCallTimeout.
	CallTimeout time.Duration
	// Now reads the clock for durations; nil means time.Now.
	Now func() time.Time
	// AnswerBound is the most bytes one answer may carry, both renderings
	// counted (answer.go); 0 means DefaultAnswerBound.
	AnswerBound int
	// Observe, when set, is told of every finished call: the tool, its
	// outcome ("ok" or the error class) and how long it took. Metrics hang
	// here, so that they count exactly what the audit record says.
	Observe func(ctx context.Context, tool, outcome string, d time.Duration)
	// Confirm, when on, puts each write to the person at the keyboard
	// first (confirm.go); nil or ConfirmOff writes without asking.
	Confirm *Confirmation
}

// ServerTool binds t to the runtime: the result is what mcp-go serves.
func (rt *Runtime) ServerTool(t Tool) server.ServerTool {
	return server.ServerTool{Tool: t.def, Handler: rt.handler(t)}
}

// handler is the one place where the order of checks lives:
// arguments, gate, the person's confirmation of a write, rate limit,
// backend call with a deadline, result.
func (rt *Runtime) handler(t Tool) server.ToolHandlerFunc {
	now := rt.Now
	if now == nil {
		now = time.Now
	}
	timeout := rt.CallTimeout
	if timeout <= 0 {
		timeout = DefaultCallTimeout
	}
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		start := now()
		rec := record{tool: t.def.Name}
		res := rt.call(ctx, t, req, timeout, &rec)
		rec.duration = now().Sub(start)
		rt.audit(ctx, &rec, res)
		if rt.Observe != nil {
			rt.Observe(ctx, rec.tool, rec.outcome(), rec.duration)
		}
		return res, nil
	}
}

func (rt *Runtime) call(ctx context.Context, t Tool, req mcp.CallToolRequest, timeout time.Duration, rec *record) (res *mcp.CallToolResult) {
	caller, ok := CallerFrom(ctx)
	rec.caller = caller
	if !ok {
		return rt.fail(t, rec, &Error{Class: BackendError, Message: "internal error in the MCP server: no caller identity; the server log has the detail",
			Err: fmt.Errorf("no caller in context")})
	}

	d, ferrs := decodeArgs(t.inType, t.fields, rawArguments(req))
	rec.args, rec.context = d.shape, d.context
	ctx = withSentence(ctx, d.context)
	if len(ferrs) > 0 {
		return rt.fail(t, rec, InvalidFields(ferrs))
	}
	if t.gate != nil {
		if err := t.gate(ctx); err != nil {
			return rt.fail(t, rec, Classifier{Classes: rt.ErrorClasses, AuthMethod: caller.AuthMethod}.Classify(err))
		}
	}
	dry := t.dryRun != nil && t.dryRun(d.in)
	if !dry && t.confirmed() {
		if !rt.Confirm.on() {
			rec.confirmed = NotAsked
		} else if res := rt.confirm(ctx, t, req, d, caller, timeout, rec); res != nil {
			return res
		}
	}
	spent := false
	if dry {
		ctx = withBudget(ctx, rt.budget(ctx, t.def.Name, caller.ID))
	} else if rt.Limiter != nil {
		dec, err := rt.Limiter.Allow(ctx, t.def.Name, caller.ID)
		if err != nil {
			return rt.fail(t, rec, limitStoreError(t.def.Name, dec.Limit, err))
		}
		if !dec.Allowed {
			return rt.fail(t, rec, &Error{
				Class:      RateLimited,
				Message:    fmt.Sprintf("rate limit reached: %s allows %s per caller; retry after %d s", t.def.Name, dec.Limit, dec.RetryAfterSeconds()),
				Retryable:  true,
				RetryAfter: dec.RetryAfter,
			})
		}
		spent = !dec.Limit.Unlimited()
	}

	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	out, err := safeRun(runCtx, t, d)
	if err != nil {
		hint := ""
		if rt.UnauthorizedHint != nil {
			hint = rt.UnauthorizedHint()
		}
		e := Classifier{Classes: rt.ErrorClasses, Hint: hint, AuthMethod: caller.AuthMethod}.Classify(err)
		if t.next != nil && e.Backend != nil {
			if next := t.next(e); next != "" {
				e.Message += "; " + next
			}
		}
		if spent && e.Class == NotFound && t.writes() {
			rt.refund(ctx, t.def.Name, caller.ID)
		}
		return rt.fail(t, rec, e)
	}
	return rt.succeed(rec, out)
}

// refund gives back the token a call spent. A refund that fails leaves the
// caller one call short until the bucket refills, which is logged, not
// reported: the call's own answer is what the caller needs.
func (rt *Runtime) refund(ctx context.Context, tool, callerID string) {
	r, ok := rt.Limiter.(Refunder)
	if !ok {
		return
	}
	if err := r.Refund(ctx, tool, callerID); err != nil {
		rt.Logger.WarnContext(ctx, "rate-limit refund failed", "tool", tool, "error", err.Error())
	}
}

// limitStoreError refuses a limited call whose limit could not be checked.
func limitStoreError(tool string, lim ratelimit.Limit, err error) *Error {
	cause := "it failed"
	var se *ratelimit.StoreError
	if errors.As(err, &se) {
		cause = se.Cause
	}
	limit := "a rate limit"
	if !lim.Unlimited() {
		limit = "a rate limit of " + lim.String() + " per caller"
	}
	return &Error{
		Class: LimitStoreUnavailable,
		Message: fmt.Sprintf("the rate-limit store is unavailable: %s. %s has %s, so it is refused rather than served unlimited; "+
			"retry after %d s. Tools without a limit still work", cause, tool, limit, retrySeconds(ratelimit.StoreRetryAfter)),
		Retryable:  true,
		RetryAfter: ratelimit.StoreRetryAfter,
		Err:        err,
	}
}

// safeRun turns a panic in a tool into an internal error: one bad call must
// not take the stdio session down with it.
func safeRun(ctx context.Context, t Tool, d decoded) (out any, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic in %s: %v\n%s", t.def.Name, p, debug.Stack())
		}
	}()
	return t.run(ctx, d.in)
}

// rawArguments returns the call's arguments as JSON, preferring the bytes
// that came over the wire.
func rawArguments(req mcp.CallToolRequest) json.RawMessage {
	if len(req.Params.RawArguments) > 0 {
		return req.Params.RawArguments
	}
	if req.Params.Arguments == nil {
		return nil
	}
	b, err := json.Marshal(req.Params.Arguments)
	if err != nil {
		return json.RawMessage(`"unencodable"`)
	}
	return b
}

// succeed renders out as structuredContent plus its text rendering, within
// the answer bound (answer.go).
func (rt *Runtime) succeed(rec *record, out any) *mcp.CallToolResult {
	r, err := Render(out, rt.AnswerBound)
	if err != nil {
		rec.err = &Error{Class: BackendError, Message: "internal error: result not encodable", Err: err}
		return errorResult(rec.tool, rec.err)
	}
	rec.resultBytes = r.Size()
	rec.resultItems = itemCount(out)
	if _, ok := out.(List); ok {
		rec.resultItems = r.Records
	}
	rec.touched = touchedBy(r.Value)
	// The structured JSON is encoded once: encoding the result is a
	// measurable share of a call's CPU (BENCHMARKS.md).
	res := mcp.NewToolResultStructured(json.RawMessage(r.JSON), r.Text)
	if l, ok := r.Value.(Linked); ok {
		for _, link := range l.ResourceLinks() {
			res.Content = append(res.Content, link)
		}
	}
	return res
}

// Linked is an answer that points at resources (an export's file): each
// link follows the text as a resource_link content block, which a client
// reads with resources/read.
type Linked interface {
	ResourceLinks() []mcp.ResourceLink
}

func (rt *Runtime) fail(t Tool, rec *record, e *Error) *mcp.CallToolResult {
	rec.err = e
	return errorResult(t.def.Name, e)
}

// ErrorMetaKey is the result _meta key under which a failed call's details
// travel: class, retryability, the arguments at fault, the backend's words.
// A reverse-DNS prefix outside the ones MCP reserves (modelcontextprotocol,
// mcp), as the spec's _meta key rules ask.
const ErrorMetaKey = "io.companyintel/error"

// ErrorResult renders a failure of the named tool that happened before its
// pipeline could run (the server's own credentials failed while the call
// waited for them) exactly as the pipeline renders its own.
func ErrorResult(tool string, e *Error) *mcp.CallToolResult { return errorResult(tool, e) }

// errorResult renders a failure as the caller sees it: isError, a sentence
// naming the tool and the class for the model, and the same facts for a
// program in _meta[ErrorMetaKey]. There is no structuredContent: the
// outputSchema describes successes, and clients validate structuredContent
// against it whenever it is present, isError or not.
func errorResult(tool string, e *Error) *mcp.CallToolResult {
	text := fmt.Sprintf("%s failed [%s]: %s", tool, e.Class, e.Message)
	body := map[string]any{
		"tool":      tool,
		"code":      e.Class,
		"message":   e.Message,
		"retryable": e.Retryable,
	}
	if e.RetryAfter > 0 {
		body["retry_after_s"] = retrySeconds(e.RetryAfter)
	}
	if len(e.Fields) > 0 {
		body["fields"] = e.Fields
	}
	if e.Backend != nil {
		body["backend"] = e.Backend
	}
	if e.Partial != nil {
		body["partial"] = e.Partial
	}
	return &mcp.CallToolResult{
		Result:  mcp.Result{Meta: mcp.NewMetaFromMap(map[string]any{ErrorMetaKey: body})},
		IsError: true,
		Content: []mcp.Content{mcp.NewTextContent(text)},
	}
}

// encode renders a result as compact JSON without HTML escaping: a model
// reads "R&D" better than "R\u0026D", and the answer is never embedded in
// HTML.
func encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// retrySeconds rounds up, so that a caller waiting that long finds a token.
func retrySeconds(d time.Duration) int {
	return int(math.Ceil(d.Seconds()))
}

// itemCount is the number of items a result holds, for the audit record.
func itemCount(out any) int {
	if c, ok := out.(interface{ ItemCount() int }); ok {
		return c.ItemCount()
	}
	return 1
}
