// Package graph implements schema.graphql for the embedded backend: the
// gqlgen-generated executor (generated.go, model/) and the hand-written
// resolvers over package store.
//
// Resolvers know nothing of HTTP or authentication. The caller's user, when
// there is one, arrives in the context (WithOwner); which fields a caller may
// reach at all is decided before any resolver runs, from the schema's auth
// directives (package appsynclocal).
package graph

import (
	"context"
	"log/slog"

	"github.com/companyintel/mcp-server/appsynclocal/store"
)

// Resolver is the root of the resolvers.
type Resolver struct {
	store *store.Store
	log   *slog.Logger
}

// NewResolver returns resolvers over s. Internal failures are logged to log
// and answered with a generic message.
func NewResolver(s *store.Store, log *slog.Logger) *Resolver {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Resolver{store: s, log: log}
}

// Query returns the Query resolvers.
func (r *Resolver) Query() QueryResolver { return &queryResolver{r} }

// Mutation returns the Mutation resolvers.
func (r *Resolver) Mutation() MutationResolver { return &mutationResolver{r} }

type queryResolver struct{ *Resolver }

type mutationResolver struct{ *Resolver }

// ownerKey keys the caller's user in a context.
type ownerKey struct{}

// WithOwner returns ctx carrying the user that collections and jobs belong
// to: the OIDC subject or IAM user. API-key callers have none.
func WithOwner(ctx context.Context, subject string) context.Context {
	return context.WithValue(ctx, ownerKey{}, subject)
}

// owner returns the caller's user, or an error when the call has none.
// Field-level auth normally stops such calls first; this is the backstop.
func owner(ctx context.Context) (string, error) {
	if s, _ := ctx.Value(ownerKey{}).(string); s != "" {
		return s, nil
	}
	return "", &Error{Type: TypeUnauthorized, Message: "collections and email discovery belong to a user: call with an OIDC token or IAM credentials, not an API key"}
}
