// Package feedback holds report_missing_capability, the opt-in tool
// (--feedback-tool) with which a model tells the server's operators of a
// need no tool meets. It reaches no backend: it depends on neither GraphQL
// package nor on the read or write tools, which app's architecture test
// checks, so it sits outside the read/write split rather than on one side.
package feedback

import (
	"context"
	"log/slog"
	"strings"
	"time"

	"github.com/companyintel/mcp-server/internal/untrusted"
	"github.com/companyintel/mcp-server/ratelimit"
	"github.com/companyintel/mcp-server/tools"
)

// Name is the tool's public name.
const Name = "report_missing_capability"

// Facts are the tool's facts: last in the catalogue; it changes nothing; its
// default limit keeps a looping model from flooding the log with free text.
var Facts = tools.Facts{Name: Name, Order: 100, Kind: tools.Read, Limit: ratelimit.Limit{Count: 20, Period: time.Hour}}

// Report is one need no tool met, as the record states it.
type Report struct {
	// Wanted is what the user needed, in the model's words.
	Wanted string
	// Tried are the tools the model tried first, by name as it gave them.
	Tried []string
	// Context is the call's context sentence, if it gave one.
	Context string
}

// Deps is what the tool needs.
type Deps struct {
	// Logger receives one record per report. Required.
	Logger *slog.Logger
	// Observers are told of each report after its record is written, with
	// the call's context: the metric in HTTP mode, and the hook for a span
	// event when tracing is on (the span is the one in ctx).
	Observers []func(ctx context.Context, r Report)
}

type reportInput struct {
	Wanted string   `json:"wanted" desc:"What the user needed, in a sentence." min:"1" max:"500"`
	Tried  []string `json:"tried,omitempty" desc:"Tool names you tried, e.g. [\"search_companies\"]." max:"10" itemmax:"64"`
}

type reportOutput struct {
	Recorded bool   `json:"recorded"`
	Note     string `json:"note"`
}

// Text renders the answer for the model: its note says it was recorded and
// what that means.
func (o reportOutput) Text() string { return o.Note }

// note is the answer's guidance: the report changes nothing for the user.
const note = "Recorded for this server's operators. It adds no capability and changes no answer: tell the user this is not available here."

// New returns the report_missing_capability tool. Contract: wanted required
// (1-500 characters), tried at most 10 names of at most 64 characters; one
// record ("missing capability": caller, wanted, tried, context) and the
// observers per call; never a backend call; rate-limited per caller like
// every tool.
func New(d Deps) tools.Tool {
	return tools.New(tools.Spec[reportInput, reportOutput]{
		Facts: Facts,
		Title: "Report a missing capability",
		Description: "Tell this server's operators about a need no tool here meets: what the user wanted and which tools you tried. " +
			"Use it only when no tool or combination of tools can do the task. It fixes nothing by itself and changes no data.",
		// It changes nothing a client could see and reaches nothing
		// outside this server; each call is one more report.
		Hints: tools.Hints{Destructive: false, Idempotent: false, OpenWorld: false},
		Run: func(ctx context.Context, in reportInput) (reportOutput, error) {
			return report(ctx, d, in)
		},
	})
}

func report(ctx context.Context, d Deps, in reportInput) (reportOutput, error) {
	r := Report{Wanted: strings.TrimSpace(in.Wanted), Tried: in.Tried, Context: tools.ContextSentence(ctx)}
	if r.Wanted == "" {
		return reportOutput{}, tools.Invalid("wanted", "say in a sentence what the user needed")
	}
	caller, _ := tools.CallerFrom(ctx)
	// What the model wrote is logged under the rule for untrusted text:
	// one line, nothing invisible (internal/untrusted).
	attrs := []slog.Attr{
		slog.String("tool", Name),
		slog.String("caller", untrusted.Clean(caller.ID)),
		slog.String("auth", caller.AuthMethod),
	}
	if caller.User != "" {
		attrs = append(attrs, slog.String("user", untrusted.Clean(caller.User)))
	}
	attrs = append(attrs, slog.String("wanted", untrusted.Clean(r.Wanted)), slog.String("tried", untrusted.Clean(strings.Join(r.Tried, ","))))
	if r.Context != "" {
		attrs = append(attrs, slog.String("context", untrusted.Clean(r.Context)))
	}
	d.Logger.LogAttrs(ctx, slog.LevelInfo, "missing capability", attrs...)
	for _, observe := range d.Observers {
		observe(ctx, r)
	}
	return reportOutput{Recorded: true, Note: note}, nil
}
