// Package write holds the four mutation tools. Every one is built through
// guarded, which puts the --allow-mutations check first, before any GraphQL
// call: no write tool can ship without it.
package write

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/companyintel/mcp-server/graphql/mutation"
	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/tools"
)

// Deps is what the write tools need.
type Deps struct {
	// Writer runs the mutations.
	Writer mutation.Writer
	// Lookup reads the targets of a dry run; nil refuses dry runs.
	Lookup Lookup
	// Jobs asks after an email-discovery job when the call that started it
	// became a task; nil leaves request_email_discovery synchronous.
	Jobs query.Jobs
	// Allowed reports whether the named write tool is enabled on this server.
	// It is fixed at start-up from --allow-mutations.
	Allowed func(tool string) bool
	// Scope is the OAuth scope (--write-scope) a caller whose token scopes
	// narrow its rights (tools.Caller.Scoped) must hold to write. Empty
	// refuses every scoped caller: the check fails closed.
	Scope string
}

// Tools returns the four write tools, each behind its gate, in catalogue order.
func Tools(d Deps) []tools.Tool { return registry.Build(d) }

// registry holds the write tools; each tool's file adds itself.
var registry tools.Registry[Deps]

// Facts returns the write tools' facts in catalogue order, without building
// any tool.
func Facts() []tools.Facts { return registry.Facts() }

// disabledNote tells a model reading the catalogue that the tool exists but
// is switched off here, so it can tell the user rather than try. How to
// switch it on is the refusal's to say (MutationsDisabledMessage), once, not
// the catalogue's in every session. The flag stays named, so whoever reads
// the catalogue knows what enables the tool; "ON THIS SERVER" was 60 bytes
// of the 10 KB budget across the four notes.
const disabledNote = "DISABLED (--allow-mutations off)."

// guarded builds a write tool whose handler first checks the mutation gate,
// then the caller's write scope. The flag is the ceiling and comes first: with
// writes off the answer is mutations_disabled whatever the token holds, since
// asking the user for a scope would not help. Over HTTP the transport already
// answers a missing scope with 403 before the call reaches here; this check
// is the same rule in the one place every transport passes.
//
// The checks run twice by design: as the pipeline's gate (after argument
// validation, before the rate limit, so a refused call spends nothing) and as
// the first statement of Run, the backstop for any path that reaches Run.
func guarded[In, Out any](d Deps, s tools.Spec[In, Out]) tools.Tool {
	allowed := d.Allowed != nil && d.Allowed(s.Name)
	gate := func(ctx context.Context) error {
		if !allowed {
			return &tools.Error{Class: tools.MutationsDisabled, Message: tools.MutationsDisabledMessage(s.Name)}
		}
		if c, _ := tools.CallerFrom(ctx); c.Scoped && (d.Scope == "" || !c.HasScope(d.Scope)) {
			return &tools.Error{Class: tools.Forbidden, Message: fmt.Sprintf(
				"your access token lacks the %s scope this tool needs; sign in again asking for scopes %q", d.Scope, scopeList(c.Scopes, d.Scope))}
		}
		return nil
	}
	run := s.Run
	s.Run = func(ctx context.Context, in In) (Out, error) {
		if err := gate(ctx); err != nil {
			var zero Out
			return zero, err
		}
		return run(ctx, in)
	}
	t := tools.New(s).Gated(gate)
	if !allowed {
		t = t.WithNote(disabledNote)
	}
	return t
}

// scopeList is the scopes to ask for: those held plus the one missing, since
// a client replaces its scopes with what it asks for next.
func scopeList(held []string, need string) string {
	all := slices.Clone(held)
	if need != "" && !slices.Contains(all, need) {
		all = append(all, need)
	}
	return strings.Join(all, " ")
}
