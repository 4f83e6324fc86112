package appsynclocal

import (
	"context"
	"sync/atomic"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/companyintel/mcp-server/appsynclocal/graph"
)

// errorResolverFailed is the errorType AppSync gives a field whose Lambda
// resolver failed: the most common cause of partial data in practice.
const errorResolverFailed = "Lambda:Unhandled"

// partialKey keys a request's *partialState in its context.
type partialKey struct{}

// partialState is one request's FaultPartial: which field to fail, and
// whether it has been.
type partialState struct {
	field string // "Type.field", or "" for the first nullable field
	done  atomic.Bool
}

func withPartial(ctx context.Context, field string) (context.Context, *partialState) {
	st := &partialState{field: field}
	return context.WithValue(ctx, partialKey{}, st), st
}

// partialMiddleware fails the one field a FaultPartial targets. Only fields
// on the first item of every list qualify: items resolve concurrently, and
// this keeps the failing path the same on every run.
func partialMiddleware(ctx context.Context, next graphql.Resolver) (any, error) {
	st, _ := ctx.Value(partialKey{}).(*partialState)
	if st == nil || st.done.Load() {
		return next(ctx)
	}
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || !st.targets(fc) || !st.done.CompareAndSwap(false, true) {
		return next(ctx)
	}
	return nil, &graph.Error{
		Type:    errorResolverFailed,
		Message: "The resolver for " + fc.Object + "." + fc.Field.Name + " failed (injected fault).",
	}
}

// targets reports whether fc is the field to fail.
func (st *partialState) targets(fc *graphql.FieldContext) bool {
	path := fc.Path()
	if len(path) < 2 {
		return false // a root field: failing it would leave no data
	}
	for _, p := range path {
		if i, ok := p.(ast.PathIndex); ok && i != 0 {
			return false
		}
	}
	if st.field != "" {
		return fc.Object+"."+fc.Field.Name == st.field
	}
	def := fc.Field.Definition
	return def != nil && def.Type != nil && !def.Type.NonNull
}
