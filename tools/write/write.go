// Package write holds the three mutation tools. Every one is built through
// guarded, which puts the --allow-mutations check first, before any GraphQL
// call: no write tool can ship without it.
package write

import (
	"context"

	"github.com/companyintel/mcp-server/graphql/mutation"
	"github.com/companyintel/mcp-server/tools"
)

// Deps is what the write tools need.
type Deps struct {
	// Writer runs the mutations.
	Writer mutation.Writer
	// Allowed reports whether the named write tool is enabled on this server.
	// It is fixed at start-up from --allow-mutations.
	Allowed func(tool string) bool
}

// Tools returns the three write tools, each behind its gate, in catalogue order.
func Tools(d Deps) []tools.Tool {
	return []tools.Tool{
		NewCreateCollection(d),
		NewAddToCollection(d),
		NewRequestEmailDiscovery(d),
	}
}

// disabledNote tells a model reading the catalogue that the tool exists but
// is switched off here, so it can tell the user rather than try.
const disabledNote = "DISABLED ON THIS SERVER: write operations are switched off; calls are refused until the server is started with --allow-mutations."

// guarded builds a write tool whose handler first checks the mutation gate.
// The check runs twice by design: as the pipeline's gate (after argument
// validation, before the rate limit, so a refused call spends nothing) and as
// the first statement of Run, the backstop for any path that reaches Run.
func guarded[In, Out any](d Deps, s tools.Spec[In, Out]) tools.Tool {
	allowed := d.Allowed != nil && d.Allowed(s.Name)
	gate := func(context.Context) error {
		if !allowed {
			return &tools.Error{Class: tools.MutationsDisabled, Message: tools.MutationsDisabledMessage}
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
