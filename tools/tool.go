package tools

import (
	"context"
	"fmt"
	"reflect"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/companyintel/mcp-server/ratelimit"
)

// Hints are a tool's MCP annotations besides readOnlyHint, which its Kind
// decides. All four are always sent: mcp-go's defaults mark a tool
// destructive, and clients then ask for approval on every call.
type Hints struct {
	Destructive bool
	Idempotent  bool
	OpenWorld   bool
}

// Kind says whether a tool may change data.
type Kind uint8

const (
	// Read tools change nothing: they carry readOnlyHint, need the read
	// scope, and run with writes disabled.
	Read Kind = iota + 1
	// Write tools may change data: --allow-mutations names them, and an
	// OAuth caller needs the write scope.
	Write
)

// Facts are what the server knows of a tool without building it (building
// every schema costs a start-up): the one source of "is this a write", "is
// this per user", its default rate limit, the scope it needs and the bounds
// the status resource states. The catalogue, the rate limiter, the HTTP
// scope check and the status resource all read them from here.
type Facts struct {
	// Name is the tool's public name.
	Name string
	// Order is the tool's place in the catalogue (tools/list, the status
	// resource and the catalogue hash list tools by it).
	Order int
	// Kind says whether the tool reads or writes.
	Kind Kind
	// PerUser says that the answer depends on who asks (a user's own
	// collections, a write in the user's name): under a service identity
	// upstream, the backend could not tell users apart, so it is refused.
	PerUser bool
	// Limit is the default rate limit per caller (zero: none), for tools
	// that are expensive upstream or whose calls a looping model must not
	// be able to flood. --rate-limit overrides it.
	Limit ratelimit.Limit
	// Bounds state the arguments' bounds for the status resource, by
	// argument name ("limit": "1-100, default 20"). The validator itself
	// reads the input struct's tags (schema.go).
	Bounds map[string]string
	// Needs names the extension of the API's original schema the tool
	// cannot work without ("Mutation.removeFromCollection"); "" for a tool
	// the original schema serves. Such a tool is served only where the
	// backend has its extension (app/extensions.go).
	Needs string
}

// Writes reports whether the tool may change data.
func (f Facts) Writes() bool { return f.Kind == Write }

// Scope returns the scope of the two an OAuth caller's token needs for the
// tool: write for a write tool, read for any other.
func (f Facts) Scope(read, write string) string {
	if f.Writes() {
		return write
	}
	return read
}

// Spec is one tool's contract and its work. In describes the arguments (see
// schema.go); Out is the structured result, whose JSON Schema is advertised
// as the tool's outputSchema.
type Spec[In, Out any] struct {
	// Facts are the tool's name, kind, default limit and bounds.
	Facts
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
	// Follow, when set, is how a call's job is followed when the call
	// became a task (follow.go).
	Follow *Follow[Out]
	// TaskSupport, when set, is the tool's execution.taskSupport in
	// tools/list ("optional"): what a 2025-11-25 client with the
	// experimental tasks reads before it asks for a task.
	TaskSupport mcp.TaskSupport
}

// Tool is a tool ready to be served: its MCP definition and a type-erased
// handler. Build one with New.
type Tool struct {
	def    mcp.Tool
	title  string // for a person: tools/list and the confirmation question
	facts  Facts
	inType reflect.Type
	plain  bool // answers render as plain text (answer.go)
	fields []field
	gate   func(context.Context) error
	run    func(ctx context.Context, in reflect.Value) (any, error)
	dryRun func(in reflect.Value) bool
	next   func(e *Error) string
	follow *follower
}

// New builds a Tool from its Spec. A malformed input description is a
// programming error and panics at start-up, where a test catches it.
func New[In, Out any](s Spec[In, Out]) Tool {
	if s.Kind != Read && s.Kind != Write {
		panic(fmt.Sprintf("tool %s: Kind is neither Read nor Write", s.Name))
	}
	inType := reflect.TypeFor[In]()
	fields, err := inputFields(inType)
	if err != nil {
		panic(fmt.Sprintf("tool %s: %v", s.Name, err))
	}
	// The title is for the person: hosts show it in their tool lists and
	// before a write they ask about, and the confirmation's question opens
	// with it. It is sent both as the tool's title and as the annotation
	// older hosts read. The catalogue budget counts what a model reads
	// (name, description, input schema), which the title is not.
	def := mcp.NewTool(s.Name,
		mcp.WithDescription(s.Description),
		mcp.WithToolAnnotation(mcp.ToolAnnotation{
			Title:           s.Title,
			ReadOnlyHint:    mcp.ToBoolPtr(s.Kind == Read),
			DestructiveHint: mcp.ToBoolPtr(s.Hints.Destructive),
			IdempotentHint:  mcp.ToBoolPtr(s.Hints.Idempotent),
			OpenWorldHint:   mcp.ToBoolPtr(s.Hints.OpenWorld),
		}),
	)
	def.Title = s.Title
	if s.TaskSupport != "" {
		def.Execution = &mcp.ToolExecution{TaskSupport: s.TaskSupport}
	}
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
	outType := reflect.TypeFor[Out]()
	return Tool{
		plain:  outType.Implements(reflect.TypeFor[List]()) || outType.Implements(reflect.TypeFor[Texter]()),
		next:   s.NextStep,
		follow: eraseFollow(s.Follow),
		facts:  s.Facts,
		dryRun: dryRun,
		def:    def,
		title:  s.Title,
		inType: inType,
		fields: fields,
		run: func(ctx context.Context, in reflect.Value) (any, error) {
			return run(ctx, in.Interface().(In))
		},
	}
}

// writes reports whether the tool may change something: a write the backend
// refused as not found gets its rate-limit token back.
func (t Tool) writes() bool { return t.facts.Writes() }

// PlainText reports whether the tool's answers carry plain text for the
// model (its output is a List or a Texter) rather than their JSON.
func (t Tool) PlainText() bool { return t.plain }

// Facts returns the facts the tool was built with.
func (t Tool) Facts() Facts { return t.facts }

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
