package tools

import (
	"context"
	"fmt"
	"reflect"

	"github.com/mark3labs/mcp-go/mcp"
)

// Hints are a tool's four MCP annotations. All four are always sent: mcp-go's
// defaults mark a tool destructive, and clients then ask for approval on
// every call.
type Hints struct {
	ReadOnly    bool
	Destructive bool
	Idempotent  bool
	OpenWorld   bool
}

// Spec is one tool's contract and its work. In describes the arguments (see
// schema.go); Out is the structured result, whose JSON Schema is advertised
// as the tool's outputSchema.
type Spec[In, Out any] struct {
	Name        string
	Title       string
	Description string
	Hints       Hints
	// Run does the tool's work on validated input. It returns an *Error for
	// failures the caller should see as such (not found, a bad argument only
	// the tool can judge) and passes backend errors through unchanged: the
	// pipeline classifies them.
	Run func(ctx context.Context, in In) (Out, error)
	// DryRun, when set, reports whether a call only asks what it would do:
	// such a call passes the gate but spends no rate-limit token, and Run
	// finds the remaining budget with BudgetFrom.
	DryRun func(in In) bool
	// NextStep, when set, adds what to do next to a failure the backend
	// reported, in this tool's terms ("list_collections lists your
	// collections"): the classifier knows the class, the tool knows the way
	// on. It returns "" when it has nothing to add. The tool's own refusals
	// say their next step themselves.
	NextStep func(e *Error) string
}

// Tool is a tool ready to be served: its MCP definition and a type-erased
// handler. Build one with New.
type Tool struct {
	def    mcp.Tool
	inType reflect.Type
	fields []field
	gate   func(context.Context) error
	run    func(ctx context.Context, in reflect.Value) (any, error)
	dryRun func(in reflect.Value) bool
	next   func(e *Error) string
}

// New builds a Tool from its Spec. A malformed input description is a
// programming error and panics at start-up, where a test catches it.
func New[In, Out any](s Spec[In, Out]) Tool {
	inType := reflect.TypeFor[In]()
	fields, err := inputFields(inType)
	if err != nil {
		panic(fmt.Sprintf("tool %s: %v", s.Name, err))
	}
	def := mcp.NewTool(s.Name,
		mcp.WithDescription(s.Description),
		mcp.WithToolTitle(s.Title),
		mcp.WithToolAnnotation(mcp.ToolAnnotation{
			ReadOnlyHint:    mcp.ToBoolPtr(s.Hints.ReadOnly),
			DestructiveHint: mcp.ToBoolPtr(s.Hints.Destructive),
			IdempotentHint:  mcp.ToBoolPtr(s.Hints.Idempotent),
			OpenWorldHint:   mcp.ToBoolPtr(s.Hints.OpenWorld),
		}),
	)
	def.InputSchema = mcp.ToolInputSchema{}
	def.RawInputSchema = inputSchema(fields)
	out, err := compactOutputSchema(reflect.TypeFor[Out]())
	if err != nil {
		panic(fmt.Sprintf("tool %s: output schema: %v", s.Name, err))
	}
	def.RawOutputSchema = out
	run := s.Run
	var dryRun func(reflect.Value) bool
	if s.DryRun != nil {
		dryRun = func(in reflect.Value) bool { return s.DryRun(in.Interface().(In)) }
	}
	return Tool{
		next:   s.NextStep,
		dryRun: dryRun,
		def:    def,
		inType: inType,
		fields: fields,
		run: func(ctx context.Context, in reflect.Value) (any, error) {
			return run(ctx, in.Interface().(In))
		},
	}
}

// writes reports whether the tool may change something (it is not marked
// read-only): a write the backend refused as not found gets its rate-limit
// token back.
func (t Tool) writes() bool {
	return t.def.Annotations.ReadOnlyHint == nil || !*t.def.Annotations.ReadOnlyHint
}

// Name returns the tool's public name.
func (t Tool) Name() string { return t.def.Name }

// Definition returns the tool as tools/list shows it.
func (t Tool) Definition() mcp.Tool { return t.def }

// Gated returns a copy of t whose calls are first put to gate, after argument
// validation and before the rate limit and any backend work. A non-nil error
// refuses the call. Gates added to a gated tool run after the earlier ones:
// the first refusal answers.
func (t Tool) Gated(gate func(context.Context) error) Tool {
	if prev := t.gate; prev != nil {
		t.gate = func(ctx context.Context) error {
			if err := prev(ctx); err != nil {
				return err
			}
			return gate(ctx)
		}
		return t
	}
	t.gate = gate
	return t
}

// WithNote returns a copy of t whose description ends with note, so that a
// model reading the catalogue learns of a limit or a gate before calling.
func (t Tool) WithNote(note string) Tool {
	if note != "" {
		t.def.Description += "\n\n" + note
	}
	return t
}
