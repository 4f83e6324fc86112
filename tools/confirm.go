package tools

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/companyintel/mcp-server/internal/sealed"
)

// A person confirms each write (issue 25). After the gates (the mutation
// flag, the token's scope: a write that is not allowed is refused before
// anyone is asked) and before the rate limit (a declined write costs
// nothing, and no token is held while a person reads), the pipeline runs
// the tool's dry run, shows the person what the write would do, and writes
// only on accept:
//
//   - A 2026-07-28 request whose client declares elicitation gets an
//     InputRequiredResult: the question, and a requestState sealed under
//     the deployment's key (caller, tool, a hash of the arguments and of
//     the preview, an expiry, a single-use id). The client asks its user
//     and calls again with the answer and the state; any replica opens it.
//   - A 2025-11-25 session that declared elicitation and can carry a
//     request to the client (stdio) is asked within the call, by
//     elicitation/create.
//   - A client that cannot ask: refused under ConfirmRequired, written as
//     before under ConfirmAsk, and the record says "not asked".
//
// The audit record of every confirmed tool's call says how it was
// confirmed (confirmed=user|not asked|declined) and the preview's hash.

// ConfirmMode is the operator's choice of confirmation (--confirm-writes).
type ConfirmMode string

// The confirmation modes.
const (
	// ConfirmOff writes without asking anyone, as before confirmation existed.
	ConfirmOff ConfirmMode = "off"
	// ConfirmAsk asks the person whenever the client can ask, and writes
	// without asking where it cannot (the record says "not asked").
	ConfirmAsk ConfirmMode = "ask"
	// ConfirmRequired writes only what a person accepted; a client that
	// cannot ask is refused.
	ConfirmRequired ConfirmMode = "required"
)

// ParseConfirmMode reads --confirm-writes.
func ParseConfirmMode(s string) (ConfirmMode, error) {
	switch m := ConfirmMode(strings.ToLower(strings.TrimSpace(s))); m {
	case ConfirmOff, ConfirmAsk, ConfirmRequired:
		return m, nil
	}
	return "", fmt.Errorf("%q is not off, ask or required", s)
}

// DefaultConfirmWindow is how long a person has to answer: the wait for
// an elicitation's answer, and the life of a sealed requestState.
const DefaultConfirmWindow = 5 * time.Minute

// confirmKey names the question in inputRequests and the answer in
// inputResponses.
const confirmKey = "confirm"

// statePurpose binds a sealed requestState to this use of the key.
const statePurpose = "companyintel/confirm-write/v1"

// How a write was confirmed, as its record says.
const (
	ConfirmedByUser = "user"
	NotAsked        = "not asked"
	Declined        = "declined"
)

// Outcomes of a confirmation, as the metric counts them.
const (
	OutcomeAccepted   = "accepted"    // the person accepted: the write went ahead
	OutcomeDeclined   = "declined"    // the person declined
	OutcomeCancelled  = "cancelled"   // the person dismissed the question
	OutcomeAsked      = "asked"       // an InputRequiredResult went out (2026-07-28)
	OutcomeNotAsked   = "not_asked"   // the client cannot ask; written under ask
	OutcomeRefused    = "refused"     // the client cannot ask; refused under required
	OutcomeUnanswered = "unanswered"  // the question got no answer (deadline, client error)
	OutcomeInvalid    = "invalid"     // a requestState that was altered, expired, replayed, or another's
	OutcomeFailed     = "preview_err" // the dry run failed: the write would fail too, nobody was asked
)

// The classes of a write a person did not confirm.
const (
	// DeclinedClass: the person declined or dismissed the write. Nothing
	// was written; ask the user before trying again.
	DeclinedClass Class = "declined"
	// ConfirmationRequired: this server writes only what a person
	// confirmed, and none did (the client cannot ask, or no answer came).
	ConfirmationRequired Class = "confirmation_required"
	// ConfirmationInvalid: the retried call's requestState was refused
	// (altered, expired, already used, another user's, other arguments).
	ConfirmationInvalid Class = "confirmation_invalid"
)

// Confirmation is the operator's confirmation setting and what it needs.
type Confirmation struct {
	Mode ConfirmMode
	// Key seals the 2026-07-28 requestState; every replica needs the same.
	Key *sealed.Key
	// Once makes each requestState good for one answer.
	Once sealed.Once
	// Window is how long a person has to answer (DefaultConfirmWindow if 0).
	Window time.Duration
	// Now reads the clock (time.Now if nil).
	Now func() time.Time
	// Observe, when set, counts each confirmation by tool and outcome.
	Observe func(ctx context.Context, tool, outcome string)
	// Stateless says the transport is stateless HTTP: it carries no
	// request to the client within a call, so a 2025-11-25 client cannot
	// be asked there whatever it declared (2026-07-28 is asked through the
	// answer).
	Stateless bool
}

// CannotAsk says, for a client that cannot be asked, why and what would
// let it be: the transport (stateless HTTP under 2025-11-25, whatever the
// client declared), or the client (it declared no elicitation).
func (c *Confirmation) CannotAsk(modern bool) (why, fix string) {
	if !modern && c.Stateless {
		return "this server runs over stateless HTTP, where under protocol 2025-11-25 no question can reach the user within a call, " +
				"whatever the client declared",
			"connect with protocol 2026-07-28, where the question comes back in the answer, or run the server over stdio; " +
				"or ask whoever runs the server about --confirm-writes"
	}
	return "it did not declare the elicitation capability", "use a client that supports elicitation, or ask whoever runs the server about --confirm-writes"
}

func (c *Confirmation) on() bool { return c != nil && c.Mode != "" && c.Mode != ConfirmOff }

func (c *Confirmation) window() time.Duration {
	if c.Window > 0 {
		return c.Window
	}
	return DefaultConfirmWindow
}

func (c *Confirmation) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

func (c *Confirmation) observe(ctx context.Context, tool, outcome string) {
	if c.Observe != nil {
		c.Observe(ctx, tool, outcome)
	}
}

// Previewer is a dry run's answer that can tell a person, in a few lines,
// what the write would do: what by name, how many, what is already there.
type Previewer interface {
	Preview() string
}

// Elicitor is a session that can ask its client's user within a call
// (2025-11-25 elicitation/create over a transport that carries requests to
// the client: stdio). CanElicit says whether this client declared it.
type Elicitor interface {
	CanElicit() bool
	RequestElicitation(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error)
}

// confirmed reports whether calls of t are put to a person: writes that
// have a dry run to show. The feedback tool writes only a log line.
func (t Tool) confirmed() bool { return t.writes() && t.dryRun != nil && t.dryRunField() >= 0 }

// dryRunField is the index of the input's dry_run field, or -1.
func (t Tool) dryRunField() int {
	for _, f := range t.fields {
		if f.name == "dry_run" && f.kind == kindBool {
			return f.index
		}
	}
	return -1
}

// confirmState is what a sealed requestState holds.
type confirmState struct {
	Caller  string `json:"c"`
	Tool    string `json:"t"`
	Args    string `json:"a"` // sha256 of the arguments as decoded
	Preview string `json:"p"` // sha256 of the question the person saw
	Expires int64  `json:"e"` // unix seconds
	ID      string `json:"n"` // single use
}

// confirm runs the confirmation step. It returns the answer to send instead
// of writing (a question, a refusal, a decline), or nil to go ahead, with
// rec saying how the write was confirmed.
func (rt *Runtime) confirm(ctx context.Context, t Tool, req mcp.CallToolRequest, d decoded, caller Caller, timeout time.Duration, rec *record) *mcp.CallToolResult {
	c := rt.Confirm
	tool := t.def.Name
	args := argsHash(d.in)
	if req.Params.RequestState != "" || len(req.Params.InputResponses) > 0 {
		return rt.finishConfirmation(ctx, t, req, caller, args, rec)
	}

	modern := server.IsModernRequest(ctx)
	elicitor, canAsk := clientAsker(ctx)
	canAsk = canAsk && (!modern || c.Key != nil)
	if !canAsk {
		if c.Mode == ConfirmRequired {
			c.observe(ctx, tool, OutcomeRefused)
			why, fix := c.CannotAsk(modern)
			return rt.fail(t, rec, &Error{Class: ConfirmationRequired, Message: "this server writes only what a person confirms, and this client cannot ask its user " +
				"(" + why + "); nothing was written. Tell the user: " + fix})
		}
		rec.confirmed = NotAsked
		c.observe(ctx, tool, OutcomeNotAsked)
		return nil
	}

	question, hash, perr := rt.preview(ctx, t, d, caller, timeout)
	if perr != nil {
		c.observe(ctx, tool, OutcomeFailed)
		return rt.fail(t, rec, perr)
	}
	rec.previewHash = hash
	params := mcp.ElicitationParams{
		Message:         question,
		RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{}},
	}

	if modern {
		state := confirmState{Caller: caller.ID, Tool: tool, Args: args, Preview: hash,
			Expires: c.now().Add(c.window()).Unix(), ID: rand.Text()}
		payload, _ := json.Marshal(state)
		rec.confirmed = "asked"
		c.observe(ctx, tool, OutcomeAsked)
		return server.NewInputRequestBuilder(c.Key.Seal(statePurpose, payload)).Elicit(confirmKey, params).ToolResult()
	}

	actx, cancel := context.WithTimeout(ctx, c.window())
	defer cancel()
	res, err := elicitor.RequestElicitation(actx, mcp.ElicitationRequest{
		Request: mcp.Request{Method: string(mcp.MethodElicitationCreate)},
		Params:  params,
	})
	if err != nil {
		c.observe(ctx, tool, OutcomeUnanswered)
		why := "the client did not pass the question on"
		if actx.Err() != nil {
			why = fmt.Sprintf("no answer came within %s", c.window())
		}
		return rt.fail(t, rec, &Error{Class: ConfirmationRequired, Retryable: true, Err: err,
			Message: "this write needs the user's confirmation and none came (" + why + "); nothing was written. Call again to ask again"})
	}
	return rt.answered(ctx, t, rec, res.Action)
}

// answered applies the person's answer: nil (go ahead) on accept, else the
// decline.
func (rt *Runtime) answered(ctx context.Context, t Tool, rec *record, action mcp.ElicitationResponseAction) *mcp.CallToolResult {
	c, tool := rt.Confirm, t.def.Name
	switch action {
	case mcp.ElicitationResponseActionAccept:
		rec.confirmed = ConfirmedByUser
		c.observe(ctx, tool, OutcomeAccepted)
		return nil
	case mcp.ElicitationResponseActionDecline:
		rec.confirmed, rec.answer = Declined, string(action)
		c.observe(ctx, tool, OutcomeDeclined)
		return rt.fail(t, rec, &Error{Class: DeclinedClass,
			Message: "the user declined this write when asked to confirm it; nothing was written. Don't repeat it unless the user asks again"})
	default: // cancel, or anything a client made up: not a yes
		rec.confirmed, rec.answer = Declined, "cancel"
		c.observe(ctx, tool, OutcomeCancelled)
		return rt.fail(t, rec, &Error{Class: DeclinedClass,
			Message: "the user dismissed the confirmation without accepting; nothing was written. Ask the user before trying again"})
	}
}

// finishConfirmation checks a retried 2026-07-28 call: the sealed state
// must open under our key, be unexpired, name this caller, tool and
// arguments, carry the person's answer, and not have been used before.
func (rt *Runtime) finishConfirmation(ctx context.Context, t Tool, req mcp.CallToolRequest, caller Caller, args string, rec *record) *mcp.CallToolResult {
	c, tool := rt.Confirm, t.def.Name
	refuse := func(msg string) *mcp.CallToolResult {
		c.observe(ctx, tool, OutcomeInvalid)
		return rt.fail(t, rec, &Error{Class: ConfirmationInvalid, Message: msg + "; nothing was written. Call " + tool +
			" again without requestState and inputResponses to ask the user anew"})
	}
	if req.Params.RequestState == "" {
		return refuse("the call carries inputResponses but not the requestState this server issued with the question")
	}
	if c.Key == nil {
		return refuse("this server cannot open confirmation states (it has no --confirm-state-key)")
	}
	payload, err := c.Key.Open(statePurpose, req.Params.RequestState)
	var st confirmState
	if err != nil || json.Unmarshal(payload, &st) != nil {
		return refuse("the confirmation state was altered or cut short, or was not issued by this service")
	}
	now := c.now()
	switch {
	case now.Unix() >= st.Expires:
		return refuse(fmt.Sprintf("the confirmation expired (a question is good for %s)", c.window()))
	case st.Caller != caller.ID:
		return refuse("the confirmation was issued to another user")
	case st.Tool != tool:
		return refuse("the confirmation was issued for " + Excerpt(st.Tool))
	case st.Args != args:
		return refuse("the arguments differ from those the user was asked about")
	}
	answer := server.ElicitationResponse(req.Params.InputResponses, confirmKey)
	if answer == nil {
		return refuse(`the call carries no answer to the question under inputResponses["` + confirmKey + `"]`)
	}
	rec.previewHash = st.Preview
	first, err := c.Once.First(ctx, st.ID, time.Unix(st.Expires, 0))
	if err != nil {
		c.observe(ctx, tool, OutcomeInvalid)
		return rt.fail(t, rec, &Error{Class: ConfirmationInvalid, Retryable: true, Err: err,
			Message: "the server could not check that this confirmation is used only once, so it is refused; nothing was written. Retry shortly"})
	}
	if !first {
		return refuse("this confirmation was already used: the write it confirmed is done once, never again")
	}
	return rt.answered(ctx, t, rec, answer.Action)
}

// preview runs t's dry run on the call's arguments and returns the
// question to put to the person and its hash. A dry run that fails (the
// collection or company does not exist) is the call's answer: the write
// would fail too, so nobody is asked.
func (rt *Runtime) preview(ctx context.Context, t Tool, d decoded, caller Caller, timeout time.Duration) (string, string, *Error) {
	in := reflect.New(d.in.Type()).Elem()
	in.Set(d.in)
	in.Field(t.dryRunField()).SetBool(true)
	budget := rt.budget(ctx, t.def.Name, caller.ID)
	pctx, cancel := context.WithTimeout(withBudget(ctx, budget), timeout)
	defer cancel()
	out, err := safeRun(pctx, t, decoded{in: in, context: d.context, shape: d.shape})
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
		return "", "", e
	}
	var what string
	if p, ok := out.(Previewer); ok {
		what = p.Preview()
	} else {
		what = t.title
	}
	question := fmt.Sprintf("%s?\n\n%s\n%s\n\nAccept to write this; decline and nothing is written.", t.title, what, costLine(budget))
	sum := sha256.Sum256([]byte(question))
	return question, hex.EncodeToString(sum[:]), nil
}

// costLine says what the write costs against the caller's rate budget.
func costLine(b Budget) string {
	switch {
	case !b.Limited:
		return "Cost: no rate limit applies to this tool."
	case b.Remaining < 0 && b.Limit.Unlimited():
		return "Cost: one call against your rate limit."
	case b.Remaining < 0:
		return fmt.Sprintf("Cost: one of your %s calls.", b.Limit)
	case b.Remaining == 0:
		return fmt.Sprintf("Cost: one of your %s calls; none are left now, so the write would be refused until the limit refills.", b.Limit)
	default:
		return fmt.Sprintf("Cost: one of your %s calls; %d left now.", b.Limit, b.Remaining)
	}
}

// argsHash identifies the arguments as decoded (so a client that re-encodes
// them in another key order still matches): sha256 of their JSON.
func argsHash(in reflect.Value) string {
	b, _ := json.Marshal(in.Interface()) // strings, numbers, bools and lists of them always encode
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// clientAsker reports whether the client of ctx can put a question to its
// user: on 2026-07-28 it declared elicitation with the request, on
// 2025-11-25 its session can elicit (and is returned, to ask through).
func clientAsker(ctx context.Context) (Elicitor, bool) {
	if server.IsModernRequest(ctx) {
		info := server.RequestProtocolInfoFromContext(ctx)
		return nil, info.ClientCapabilities != nil && info.ClientCapabilities.Elicitation != nil
	}
	if e, ok := server.ClientSessionFromContext(ctx).(Elicitor); ok && e.CanElicit() {
		return e, true
	}
	return nil, false
}

// CanAskUser reports whether the client of ctx can ask its user to confirm
// a write, for the status resource to tell the agent in advance.
func CanAskUser(ctx context.Context) bool {
	_, ok := clientAsker(ctx)
	return ok
}
