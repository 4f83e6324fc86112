package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// Follow is how a tool whose call starts a long backend job (an
// email-discovery job) follows that job when the call became a task (the
// MCP Tasks extension, internal/tasks): what identifies the job in the
// tool's answer, and how to ask the backend after it. The call itself runs
// the pipeline as any call does; only what comes after is new.
type Follow[Out any] struct {
	// Job returns the job an answer started, as JSON the task keeps, its
	// id for the record, and whether it has settled already. ok false: the
	// answer started nothing to follow (a dry run), and stays synchronous.
	Job func(out Out) (job json.RawMessage, id string, settled bool, ok bool)
	// Poll asks the backend after the job, as the caller in ctx: the
	// tool's final answer once the job has settled (an error the backend
	// reports is an error here, and the task's result then isError), or
	// settled false and a status sentence while it runs.
	Poll func(ctx context.Context, job json.RawMessage) (out Out, settled bool, status string, err error)
	// TTL is how long the task is kept after it is created; PollInterval
	// how often a client should ask.
	TTL, PollInterval time.Duration
}

// Follower is a Follow with its types erased, bound to the runtime that
// renders its answers as the pipeline does: what package tasks uses.
type Follower struct {
	TTL, PollInterval time.Duration
	// Required says a call must become a task: a client that did not
	// negotiate the tasks extension is refused (-32021).
	Required bool
	// Start reads the job from a successful answer's structuredContent.
	Start func(structured json.RawMessage) (job json.RawMessage, id string, settled bool, ok bool)
	// Ask, when set, returns what the job still needs from the client
	// given the responses so far (the extension's inputRequests, keyed);
	// none lets Poll run.
	Ask func(job json.RawMessage, responses map[string]json.RawMessage) map[string]json.RawMessage
	// Poll asks after job: the final answer once settled, else a status
	// sentence. A failure that may pass (the backend busy or unreachable)
	// leaves the job unsettled and says so. Settled with no answer is a
	// fault of the server: the task fails.
	Poll func(ctx context.Context, job json.RawMessage, responses map[string]json.RawMessage) (res *mcp.CallToolResult, settled bool, status string)
}

// follower erases Follow's types, for Tool.
type follower struct {
	ttl, every time.Duration
	start      func(structured json.RawMessage) (json.RawMessage, string, bool, bool)
	poll       func(ctx context.Context, job json.RawMessage) (any, bool, string, error)
}

func eraseFollow[Out any](f *Follow[Out]) *follower {
	if f == nil {
		return nil
	}
	return &follower{
		ttl: f.TTL, every: f.PollInterval,
		start: func(structured json.RawMessage) (json.RawMessage, string, bool, bool) {
			var out Out
			if json.Unmarshal(structured, &out) != nil {
				return nil, "", false, false
			}
			return f.Job(out)
		},
		poll: func(ctx context.Context, job json.RawMessage) (any, bool, string, error) {
			return f.Poll(ctx, job)
		},
	}
}

// Follower returns how t follows the job a call starts, or nil when its
// calls start none. Its answers are rendered and classified as the
// pipeline's own.
func (rt *Runtime) Follower(t Tool) *Follower {
	f := t.follow
	if f == nil {
		return nil
	}
	timeout := rt.CallTimeout
	if timeout <= 0 {
		timeout = DefaultCallTimeout
	}
	return &Follower{
		TTL: f.ttl, PollInterval: f.every, Start: f.start,
		Poll: func(ctx context.Context, job json.RawMessage, _ map[string]json.RawMessage) (*mcp.CallToolResult, bool, string) {
			caller, ok := CallerFrom(ctx)
			if !ok {
				return nil, false, "the server could not tell who asks; the job is still followed"
			}
			ctx, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			out, settled, status, err := safePoll(ctx, f, job)
			if err != nil {
				hint := ""
				if rt.UnauthorizedHint != nil {
					hint = rt.UnauthorizedHint()
				}
				e := Classifier{Classes: rt.ErrorClasses, Hint: hint, AuthMethod: caller.AuthMethod}.Classify(err)
				if e.Retryable {
					return nil, false, fmt.Sprintf("could not ask after the job (%s: %s); asking again at the next poll", e.Class, e.Message)
				}
				return errorResult(t.def.Name, e), true, ""
			}
			if !settled {
				return nil, false, status
			}
			rec := record{tool: t.def.Name}
			return rt.succeed(&rec, out), true, ""
		},
	}
}

// safePoll turns a panic in a poll into an error, as safeRun does for a
// call.
func safePoll(ctx context.Context, f *follower, job json.RawMessage) (out any, settled bool, status string, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic while following a job: %v", p)
		}
	}()
	return f.poll(ctx, job)
}
