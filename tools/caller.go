package tools

import (
	"context"
	"slices"
)

// Caller is who a tool call acts for: the authenticated principal and how it
// authenticated. On stdio, and over HTTP in the local single-user mode, it is
// the server's own identity, fixed for the process; over HTTP with OAuth it
// is the user whose bearer token the request carried.
type Caller struct {
	// ID is the principal rate limits and the audit record key on: an OIDC
	// subject, an IAM identity, or the API key's fixed name; for an OAuth
	// user over HTTP, the token's issuer and subject together, so that two
	// issuers' "alice" are two callers. Never a secret.
	ID string
	// AuthMethod is "oidc", "sigv4" or "apikey"; "oauth" for an HTTP user.
	AuthMethod string
	// User is the OAuth user's subject, and Client the OAuth client the
	// token was issued to (azp or client_id). Empty on stdio.
	User, Client string
	// Issuer is the OAuth user's token issuer. Empty on stdio.
	Issuer string
	// Scoped says the caller's token scopes narrow what it may do: true only
	// for an OAuth user over HTTP. Elsewhere the server's flags alone decide.
	Scoped bool
	// Scopes are the token's scopes, when Scoped.
	Scopes []string
}

// HasScope reports whether the caller may act under scope: always for an
// unscoped caller, else when its token carries the scope.
func (c Caller) HasScope(scope string) bool {
	return !c.Scoped || slices.Contains(c.Scopes, scope)
}

type callerKey struct{}

// WithCaller returns a context carrying c.
func WithCaller(ctx context.Context, c Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

// CallerFrom returns the caller the context carries. ok is false when none
// was set, which is a wiring bug: the pipeline refuses such calls rather than
// charge an anonymous bucket.
func CallerFrom(ctx context.Context) (c Caller, ok bool) {
	c, ok = ctx.Value(callerKey{}).(Caller)
	return c, ok && c.ID != ""
}
