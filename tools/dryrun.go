package tools

import (
	"context"
	"fmt"

	"github.com/companyintel/mcp-server/ratelimit"
)

// Budget is what a dry run reports of the caller's rate limit: how many
// real calls it may still make now. A dry run spends none.
type Budget struct {
	// Limited is false when the tool has no limit.
	Limited bool
	// Remaining is the calls left now; -1 when the store cannot say.
	Remaining int
	Limit     ratelimit.Limit
}

// String is the budget as a sentence for a note.
func (b Budget) String() string {
	switch {
	case !b.Limited:
		return "This tool has no rate limit here."
	case b.Remaining < 0 && b.Limit.Unlimited():
		return "A rate limit may apply; the shared store does not report what is left. This dry run spent none."
	case b.Remaining < 0:
		return fmt.Sprintf("Rate limit: %s per caller; the shared store does not report what is left. This dry run spent none.", b.Limit)
	default:
		return fmt.Sprintf("Rate limit: %d of %s per caller left now; this dry run spent none.", b.Remaining, b.Limit)
	}
}

// remainer is a Limiter that can say what is left without spending
// (ratelimit.Limiter can; the shared Redis store does not).
type remainer interface {
	Remaining(ctx context.Context, tool, caller string) (int, ratelimit.Limit, error)
}

// budget asks the limiter, without spending, what tool has left for caller.
func (rt *Runtime) budget(ctx context.Context, tool, caller string) Budget {
	if rt.Limiter == nil {
		return Budget{}
	}
	r, ok := rt.Limiter.(remainer)
	if !ok {
		return Budget{Limited: true, Remaining: -1}
	}
	n, lim, err := r.Remaining(ctx, tool, caller)
	if err != nil || n < 0 {
		return Budget{Limited: err != nil, Remaining: -1, Limit: lim}
	}
	return Budget{Limited: true, Remaining: n, Limit: lim}
}

type budgetKey struct{}

func withBudget(ctx context.Context, b Budget) context.Context {
	return context.WithValue(ctx, budgetKey{}, b)
}

// BudgetFrom returns the budget the pipeline found for a dry run.
func BudgetFrom(ctx context.Context) Budget {
	b, _ := ctx.Value(budgetKey{}).(Budget)
	return b
}
