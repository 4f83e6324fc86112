// Package tasks is the MCP Tasks extension (io.modelcontextprotocol/tasks,
// SEP-2663, on 2026-07-28) for the tools whose calls start a long backend
// job (tools.Follow): a call from a client that negotiated the extension
// is answered with a CreateTaskResult once the task's record is stored;
// tasks/get asks the backend after the job and answers working until it
// settles, then completed with the tool's answer inlined; tasks/cancel
// stops following it. The record (owner, tool, job, status, expiry) lives
// in a Store: Redis, which every replica reads, or this process.
//
// A task is visible only to the caller who created it: any other caller's
// tasks/get, tasks/update or tasks/cancel is answered exactly as for an id
// that never existed. The edge (internal/edge) decides which requests come
// here; this package knows nothing of transports.
package tasks

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/companyintel/mcp-server/internal/edge"
	"github.com/companyintel/mcp-server/tools"
)

// Extension is the extension's identifier.
const Extension = "io.modelcontextprotocol/tasks"

// The task events counted and recorded.
const (
	EventCreated   = "created"
	EventCompleted = "completed"
	EventFailed    = "failed"
	EventCancelled = "cancelled"
	EventExpired   = "expired"
)

// Engine serves the extension over a Store.
type Engine struct {
	store   Store
	follow  map[string]*tools.Follower
	now     func() time.Time
	logger  *slog.Logger
	observe func(tool, event string)
	after   func(time.Duration) <-chan time.Time
	// required is whether some tool must be a task (AnyRequired).
	required bool
}

// Options configure an Engine.
type Options struct {
	// Followers are the tools whose calls may become tasks, by name.
	Followers map[string]*tools.Follower
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// Logger takes the audit record of each task event.
	Logger *slog.Logger
	// Observe, when set, counts each task event (metrics).
	Observe func(tool, event string)
	// After is the timer tasks/result (2025-11-25) waits on between polls
	// (nil: time.After).
	After func(time.Duration) <-chan time.Time
}

// New returns an engine over store.
func New(store Store, o Options) *Engine {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.After == nil {
		o.After = time.After
	}
	e := &Engine{store: store, follow: o.Followers, now: o.Now, logger: o.Logger, observe: o.Observe, after: o.After}
	for _, f := range o.Followers {
		e.required = e.required || f.Required
	}
	return e
}

var _ edge.Tasks = (*Engine)(nil)

// StoreKind names where the records are kept.
func (e *Engine) StoreKind() string { return e.store.Kind() }

// Follows reports whether a call of tool may become a task.
func (e *Engine) Follows(tool string) bool { return e.follow[tool] != nil }

// Requires reports whether a call of tool must become a task.
func (e *Engine) Requires(tool string) bool { f := e.follow[tool]; return f != nil && f.Required }

// AnyRequired reports whether a call of some tool must become a task.
func (e *Engine) AnyRequired() bool { return e.required }

// Create turns the answer of a tool call (result, an encoded
// CallToolResult) into a task: the record is stored, then the
// CreateTaskResult returned. ok false sends the answer as it is: an error,
// a call that started nothing to follow, or a store that failed (the job
// was started: the caller still learns of it synchronously).
func (e *Engine) Create(ctx context.Context, tool string, result json.RawMessage) (json.RawMessage, bool) {
	r, ok := e.create(ctx, tool, result)
	if !ok {
		return nil, false
	}
	b, _ := json.Marshal(wire(r, "task", false))
	return b, true
}

// CreateLegacy is Create for a 2025-11-25 client that asked for a task
// (params.task, the experimental tasks): the same task and record, in that
// revision's CreateTaskResult ({"task": …}).
func (e *Engine) CreateLegacy(ctx context.Context, tool string, result json.RawMessage) (json.RawMessage, bool) {
	r, ok := e.create(ctx, tool, result)
	if !ok {
		return nil, false
	}
	b, _ := json.Marshal(map[string]any{"task": legacyWire(r)})
	return b, true
}

func (e *Engine) create(ctx context.Context, tool string, result json.RawMessage) (Record, bool) {
	f := e.follow[tool]
	if f == nil {
		return Record{}, false
	}
	var res struct {
		IsError           bool            `json:"isError"`
		StructuredContent json.RawMessage `json:"structuredContent"`
	}
	if json.Unmarshal(result, &res) != nil || res.IsError || len(res.StructuredContent) == 0 {
		return Record{}, false
	}
	job, jobID, settled, ok := f.Start(res.StructuredContent)
	if !ok {
		return Record{}, false
	}
	caller, ok := tools.CallerFrom(ctx)
	if !ok {
		return Record{}, false
	}
	now := e.now().UTC()
	r := Record{
		ID: newID(), Owner: caller.ID, Tool: tool, JobID: jobID, Status: Working, Job: job,
		Created: now, Updated: now, Expires: now.Add(f.TTL),
		TTL: f.TTL.Milliseconds(), Poll: f.PollInterval.Milliseconds(),
		Message: "following job " + jobID,
	}
	if settled {
		r.Status, r.Result, r.Message = Completed, result, ""
	}
	if err := e.store.Create(ctx, r); err != nil {
		e.logger.WarnContext(ctx, "task not created: its record could not be stored; answered synchronously",
			"tool", tool, "caller", caller.ID, "job", jobID, "store", e.store.Kind(), "error", err.Error())
		return Record{}, false
	}
	e.event(ctx, r, EventCreated)
	if settled {
		e.event(ctx, r, EventCompleted)
	}
	return r, true
}

// event writes the audit record of a task event and counts it.
func (e *Engine) event(ctx context.Context, r Record, event string) {
	attrs := []any{"task", r.ID, "tool", r.Tool, "caller", r.Owner, "job", r.JobID, "status", string(r.Status), "store", e.store.Kind()}
	switch event {
	case EventCreated:
		attrs = append(attrs, "ttl_ms", r.TTL, "poll_interval_ms", r.Poll)
	case EventCompleted:
		var res struct {
			IsError bool `json:"isError"`
		}
		_ = json.Unmarshal(r.Result, &res)
		attrs = append(attrs, "is_error", res.IsError, "age_ms", r.Updated.Sub(r.Created).Milliseconds())
	}
	e.logger.InfoContext(ctx, "task "+event, attrs...)
	if e.observe != nil {
		e.observe(r.Tool, event)
	}
}

// Serve answers tasks/get, tasks/update and tasks/cancel from a client
// that negotiated the extension (the edge checks that).
func (e *Engine) Serve(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, *edge.Error) {
	var p struct {
		TaskID *string `json:"taskId"`
	}
	if json.Unmarshal(params, &p) != nil || p.TaskID == nil {
		return nil, &edge.Error{Code: edge.CodeInvalidParams, Message: fmt.Sprintf(`invalid params for %s: member "params.taskId" must be the string a CreateTaskResult gave`, method)}
	}
	r, err := e.mine(ctx, method, *p.TaskID)
	if err != nil {
		return nil, err
	}
	switch method {
	case "tasks/get":
		r = e.settle(ctx, r)
		b, _ := json.Marshal(wire(r, "complete", true))
		return b, nil
	case "tasks/cancel":
		e.cancel(ctx, r)
	case "tasks/update":
		var u struct {
			InputResponses map[string]json.RawMessage `json:"inputResponses"`
		}
		if json.Unmarshal(params, &u) != nil || u.InputResponses == nil {
			return nil, &edge.Error{Code: edge.CodeInvalidParams, Message: `invalid params for tasks/update: member "params.inputResponses" must be an object of responses, keyed as the task's inputRequests are`}
		}
		e.update(ctx, r, u.InputResponses)
	}
	return json.RawMessage(`{"resultType":"complete"}`), nil
}

// update keeps the responses to the requests the task waits on; a response
// to any other key (never asked, answered already) is ignored, as the
// extension says.
func (e *Engine) update(ctx context.Context, r Record, responses map[string]json.RawMessage) {
	if r.Status.Terminal() {
		return
	}
	next := r
	next.Responses = map[string]json.RawMessage{}
	for k, v := range r.Responses {
		next.Responses[k] = v
	}
	added := false
	for k, v := range responses {
		if _, asked := r.Inputs[k]; asked {
			if _, done := r.Responses[k]; !done {
				next.Responses[k], added = v, true
			}
		}
	}
	if !added {
		return
	}
	next.Updated = e.now().UTC()
	if _, err := e.store.Update(ctx, next, r.Status); err != nil {
		e.logger.WarnContext(ctx, "task responses not stored", "task", r.ID, "error", err.Error())
	}
}

// ServeLegacy answers tasks/get, tasks/result and tasks/cancel in
// 2025-11-25's experimental shapes, over the same records: tasks/get
// answers the task alone, tasks/result waits (within the request's
// deadline) until the task is terminal and answers the tool's answer, and
// tasks/cancel answers the cancelled task or refuses a terminal one.
func (e *Engine) ServeLegacy(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, *edge.Error) {
	var p struct {
		TaskID *string `json:"taskId"`
	}
	if json.Unmarshal(params, &p) != nil || p.TaskID == nil {
		return nil, &edge.Error{Code: edge.CodeInvalidParams, Message: fmt.Sprintf(`invalid params for %s: member "params.taskId" must be the string a CreateTaskResult gave`, method)}
	}
	r, err := e.mine(ctx, method, *p.TaskID)
	if err != nil {
		return nil, err
	}
	switch method {
	case "tasks/get":
		b, _ := json.Marshal(legacyWire(e.settle(ctx, r)))
		return b, nil
	case "tasks/cancel":
		if r.Status.Terminal() {
			return nil, &edge.Error{Code: edge.CodeInvalidParams, Message: fmt.Sprintf("tasks/cancel: task %q is already %s and cannot be cancelled", r.ID, r.Status)}
		}
		e.cancel(ctx, r)
		if cur, found, err := e.store.Get(ctx, r.ID); err == nil && found {
			r = cur
		}
		b, _ := json.Marshal(legacyWire(r))
		return b, nil
	}
	// tasks/result: wait for a terminal status, asking at the task's interval.
	for r = e.settle(ctx, r); !r.Status.Terminal(); r = e.settle(ctx, r) {
		select {
		case <-ctx.Done():
			return nil, &edge.Error{Code: edge.CodeInternalError, Message: fmt.Sprintf("tasks/result: task %q is still %s; ask again (tasks/get says when it is done)", r.ID, r.Status)}
		case <-e.after(time.Duration(max(r.Poll, 100)) * time.Millisecond):
		}
	}
	switch r.Status {
	case Failed:
		var je edge.Error
		var m struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		}
		_ = json.Unmarshal(r.Error, &m)
		je.Code, je.Message = m.Code, m.Message
		return nil, &je
	case Cancelled:
		return nil, &edge.Error{Code: edge.CodeInvalidParams, Message: fmt.Sprintf("tasks/result: task %q was cancelled and has no result", r.ID)}
	}
	var res map[string]json.RawMessage
	if json.Unmarshal(r.Result, &res) != nil {
		return r.Result, nil
	}
	var meta map[string]any
	_ = json.Unmarshal(res["_meta"], &meta)
	if meta == nil {
		meta = map[string]any{}
	}
	meta[mcp.RelatedTaskMetaKey] = mcp.RelatedTaskMeta(r.ID)
	res["_meta"], _ = json.Marshal(meta)
	b, _ := json.Marshal(res)
	return b, nil
}

// legacyWire is r as 2025-11-25's experimental Task: ttl and pollInterval
// in milliseconds, no inlined result.
func legacyWire(r Record) map[string]any {
	t := map[string]any{
		"taskId": r.ID, "status": r.Status,
		"createdAt": r.Created.UTC().Format(time.RFC3339Nano), "lastUpdatedAt": r.Updated.UTC().Format(time.RFC3339Nano),
		"ttl": r.TTL, "pollInterval": r.Poll,
	}
	if r.Message != "" {
		t["statusMessage"] = r.Message
	}
	return t
}

// mine returns the caller's task of that id. Another caller's task, one
// never created, and one past its keeping are the same answer; the owner
// is told when it expired.
func (e *Engine) mine(ctx context.Context, method, id string) (Record, *edge.Error) {
	unknown := &edge.Error{Code: edge.CodeInvalidParams, Message: fmt.Sprintf(
		"%s: no task %q: task ids come from a CreateTaskResult, each is visible only to the caller who created it, and each expires after its ttlMs", method, edge.Excerpt(id, 80))}
	caller, ok := tools.CallerFrom(ctx)
	if !ok || id == "" {
		return Record{}, unknown
	}
	r, found, err := e.store.Get(ctx, id)
	if err != nil {
		e.logger.WarnContext(ctx, "task store unavailable", "method", method, "store", e.store.Kind(), "error", err.Error())
		return Record{}, &edge.Error{Code: edge.CodeInternalError, Message: fmt.Sprintf("%s: the task store is unavailable; retry in a few seconds", method)}
	}
	if !found || r.Owner != caller.ID {
		return Record{}, unknown
	}
	if e.now().After(r.Expires) {
		if !r.ExpiryRecorded {
			from := r.Status
			r.ExpiryRecorded = true
			if ok, _ := e.store.Update(ctx, r, from); ok {
				e.event(ctx, r, EventExpired)
			}
		}
		return Record{}, &edge.Error{Code: edge.CodeInvalidParams, Message: fmt.Sprintf(
			"%s: task %q has expired (it was kept %d ms); call the tool again for a new one", method, id, r.TTL)}
	}
	return r, nil
}

// settle asks after a task's job and records the outcome: the input it
// still needs, or, when it needs none, what the backend says.
func (e *Engine) settle(ctx context.Context, r Record) Record {
	if r.Status.Terminal() {
		return r
	}
	f := e.follow[r.Tool]
	if f != nil && f.Ask != nil {
		pending := f.Ask(r.Job, r.Responses)
		if len(pending) > 0 || r.Status == InputRequired {
			next := r
			next.Inputs = pending
			next.Status = Working
			if len(pending) > 0 {
				next.Status = InputRequired
			}
			next.Updated = e.now().UTC()
			if ok, err := e.store.Update(ctx, next, r.Status); err != nil || !ok {
				if cur, found, err := e.store.Get(ctx, r.ID); err == nil && found {
					return cur
				}
				return r
			}
			if next.Status == InputRequired {
				return next
			}
			r = next
		}
	}
	var next Record
	if f == nil {
		// A replica that does not follow this tool (another version, or
		// the tool switched off): a fault of the server, not of the job.
		next = r
		next.Status, next.Message = Failed, "this server no longer follows "+r.Tool+" jobs"
		next.Inputs = nil
		next.Error, _ = json.Marshal(map[string]any{"code": edge.CodeInternalError, "message": "internal error: " + next.Message})
	} else {
		res, settled, status := f.Poll(ctx, r.Job, r.Responses)
		if !settled {
			if status != "" {
				r.Message = status
			}
			return r
		}
		b, err := encodeResult(res)
		next = r
		if res == nil {
			next.Status, next.Message = Failed, "the job failed inside the server"
			next.Error, _ = json.Marshal(map[string]any{"code": edge.CodeInternalError, "message": "internal error: " + r.Tool + " failed while running its job; the server's log has the details"})
		} else if err != nil {
			next.Status, next.Message = Failed, "the tool's answer could not be encoded"
			next.Error, _ = json.Marshal(map[string]any{"code": edge.CodeInternalError, "message": "internal error: " + next.Message})
		} else {
			next.Status, next.Result, next.Message = Completed, b, ""
		}
	}
	next.Updated = e.now().UTC()
	next.Inputs = nil
	ok, err := e.store.Update(ctx, next, r.Status)
	if err != nil {
		e.logger.WarnContext(ctx, "task outcome not stored; it is asked after again at the next poll", "task", r.ID, "error", err.Error())
		return next
	}
	if !ok { // cancelled or settled meanwhile, here or on another replica
		if cur, found, err := e.store.Get(ctx, r.ID); err == nil && found {
			return cur
		}
		return next
	}
	if next.Status == Completed {
		e.event(ctx, next, EventCompleted)
	} else {
		e.event(ctx, next, EventFailed)
	}
	return next
}

// cancel stops following a working task. The backend has no way to stop a
// job: it may still finish, and what it finds then reaches the company.
func (e *Engine) cancel(ctx context.Context, r Record) {
	if r.Status.Terminal() {
		return
	}
	next := r
	next.Status, next.Updated, next.Inputs = Cancelled, e.now().UTC(), nil
	next.Message = "cancelled at the client's request; the backend's job " + r.JobID + " may still finish, and what it finds then appears on the company"
	if ok, err := e.store.Update(ctx, next, r.Status); err == nil && ok {
		e.event(ctx, next, EventCancelled)
	}
}

// task is a Task as the wire carries it (CreateTaskResult, DetailedTask).
type task struct {
	ResultType     string                     `json:"resultType"`
	TaskID         string                     `json:"taskId"`
	Status         Status                     `json:"status"`
	StatusMessage  string                     `json:"statusMessage,omitempty"`
	CreatedAt      string                     `json:"createdAt"`
	LastUpdatedAt  string                     `json:"lastUpdatedAt"`
	TTLMs          int64                      `json:"ttlMs"`
	PollIntervalMs int64                      `json:"pollIntervalMs,omitempty"`
	InputRequests  map[string]json.RawMessage `json:"inputRequests,omitempty"`
	Result         json.RawMessage            `json:"result,omitempty"`
	Error          json.RawMessage            `json:"error,omitempty"`
}

// wire is r on the wire; detailed adds the result or error (tasks/get).
func wire(r Record, resultType string, detailed bool) task {
	t := task{
		ResultType: resultType, TaskID: r.ID, Status: r.Status, StatusMessage: r.Message,
		CreatedAt: r.Created.UTC().Format(time.RFC3339Nano), LastUpdatedAt: r.Updated.UTC().Format(time.RFC3339Nano),
		TTLMs: r.TTL, PollIntervalMs: r.Poll,
	}
	if detailed {
		switch r.Status {
		case InputRequired:
			t.InputRequests = r.Inputs
		case Completed:
			t.Result = r.Result
		case Failed:
			t.Error = r.Error
		}
	}
	return t
}

// encodeResult encodes a tool's answer as a tools/call result is encoded.
func encodeResult(res *mcp.CallToolResult) (json.RawMessage, error) {
	if res == nil {
		return nil, fmt.Errorf("no answer")
	}
	return res.MarshalJSON()
}

// newID returns a task id: 128 random bits, which no caller can guess.
func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return "task_" + hex.EncodeToString(b[:])
}
