package tools

import (
	"context"
	"encoding/json"
	"log/slog"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/companyintel/mcp-server/internal/untrusted"
)

// record is what the audit line of one call says. Argument values never go
// in it: only their names and sizes, and the caller's own context sentence.
type record struct {
	tool        string
	caller      Caller
	args        map[string]int
	context     string
	duration    time.Duration
	resultItems int
	resultBytes int
	touched     Touched
	err         *Error
	// confirmed says how a write was confirmed (confirm.go): "user", "not
	// asked", "declined", or "asked" when the answer is a question; empty
	// for reads and dry runs. answer is what a decline was (decline or
	// cancel), previewHash the sha256 of the question the person saw.
	confirmed, answer, previewHash string
}

// outcome is "ok", the failure's class, or "input_required" for a call
// answered with a question to the person.
func (r *record) outcome() string {
	if r.err != nil {
		return string(r.err.Class)
	}
	if r.confirmed == "asked" {
		return "input_required"
	}
	return "ok"
}

// audit writes one structured line per call: info for success, warn for a
// refusal the caller caused, error for backend and server faults.
func (rt *Runtime) audit(ctx context.Context, r *record, _ *mcp.CallToolResult) {
	outcome, level := r.outcome(), slog.LevelInfo
	// Room for every attribute a record can have, so that the list is
	// built in place rather than grown three times per call.
	attrs := make([]slog.Attr, 0, 20)
	attrs = append(attrs,
		slog.String("tool", r.tool),
		slog.String("caller", untrusted.Clean(r.caller.ID)),
		slog.String("auth", r.caller.AuthMethod),
	)
	// Every value someone else wrote (a token's claims, a client's name,
	// the backend's words, the context sentence, ids) gets the rule for
	// untrusted text: a record stays one line, with nothing invisible.
	if r.caller.User != "" {
		attrs = append(attrs, slog.String("user", untrusted.Clean(r.caller.User)))
	}
	if r.caller.Client != "" {
		attrs = append(attrs, slog.String("client", untrusted.Clean(r.caller.Client)))
	}
	if r.err != nil {
		level = levelFor(r.err.Class)
	}
	attrs = append(attrs,
		slog.String("outcome", outcome),
		slog.Int64("duration_ms", r.duration.Milliseconds()),
		slog.Any("args", argShape(r.args)),
	)
	if r.err == nil {
		attrs = append(attrs, slog.Int("result_items", r.resultItems), slog.Int("result_bytes", r.resultBytes))
	} else {
		attrs = append(attrs, slog.String("error_class", string(r.err.Class)))
		if t := r.err.Backend.ErrorType(); t != "" {
			attrs = append(attrs, slog.String("backend_error_type", untrusted.Clean(t)))
		}
		if r.err.Backend != nil && r.err.Backend.Status != 0 {
			attrs = append(attrs, slog.Int("backend_status", r.err.Backend.Status))
		}
		if level == slog.LevelError && r.err.Err != nil {
			// The operator's view may hold the Go error; the caller's never does.
			attrs = append(attrs, slog.String("detail", untrusted.Clean(r.err.Err.Error())))
		}
	}
	if r.confirmed != "" {
		attrs = append(attrs, slog.String("confirmed", r.confirmed))
		if r.answer != "" {
			attrs = append(attrs, slog.String("answer", untrusted.Clean(r.answer)))
		}
		if r.previewHash != "" {
			attrs = append(attrs, slog.String("preview_sha256", r.previewHash))
		}
	}
	attrs = r.touched.appendAttrs(attrs)
	if r.context != "" {
		attrs = append(attrs, slog.String("context", untrusted.Clean(r.context)))
	}
	rt.Logger.LogAttrs(ctx, level, "tool call", attrs...)
}

// refusals are the classes a caller causes and can act on: it sent
// arguments to fix, called a tool this server or its token does not allow,
// went over a limit, or named something that does not exist. Their records
// are warnings. Every other class is a failure the caller cannot cause — the
// backend failed, timed out or cannot be reached, the server's own
// credentials were refused, the rate-limit store is down, the server itself
// faulted — and its record is an error, so that an operator can alert on
// errors alone without being paged because a model guessed a field name.
// A class missing here is an error: a new class is a refusal only by choice.
var refusals = map[Class]bool{
	InvalidArguments:  true,
	MutationsDisabled: true,
	RateLimited:       true, // ours or the backend's throttle: wait and retry
	NotFound:          true,
	Forbidden:         true, // the caller's token or identity may not do this
	// The person said no, the client cannot ask, or the state it sent back
	// was refused: the caller's side, and nothing was written.
	DeclinedClass:        true,
	ConfirmationRequired: true,
	ConfirmationInvalid:  true,
}

// levelFor is the level of a failed call's record (see refusals).
func levelFor(c Class) slog.Level {
	if refusals[c] {
		return slog.LevelWarn
	}
	return slog.LevelError
}

// argShape is the arguments' names and sizes. It renders as a JSON object
// in JSON logs ({"query":8,"limit":1}) and as "query=8 limit=1" in text,
// and as {} when there are none: a slog group would vanish when empty.
type argShape map[string]int

// MarshalJSON writes the sizes as an object with sorted keys.
func (a argShape) MarshalJSON() ([]byte, error) {
	if a == nil {
		return []byte("{}"), nil
	}
	return json.Marshal(map[string]int(a))
}

// MarshalText is String for slog's text handler, which takes a
// TextMarshaler as it is where a Stringer goes through fmt, a tenth of the
// cost of the record. (MarshalJSON still wins in JSON logs.)
func (a argShape) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// String writes the sizes as "name=size" pairs in name order.
func (a argShape) String() string {
	if len(a) == 0 {
		return "{}"
	}
	if len(a) == 1 { // most calls: nothing to sort or join
		for name, size := range a {
			return name + "=" + strconv.Itoa(size)
		}
	}
	parts := make([]string, 0, len(a))
	for _, name := range slices.Sorted(maps.Keys(a)) {
		parts = append(parts, name+"="+strconv.Itoa(a[name]))
	}
	return strings.Join(parts, " ")
}
