package tools

import "context"

// Caller is who a tool call acts for: the authenticated principal and how it
// authenticated. On stdio it is fixed for the process; over HTTP it will come
// from each request.
type Caller struct {
	// ID is the principal: an OIDC subject, an IAM identity, or the API
	// key's fixed name. Never a secret.
	ID string
	// AuthMethod is "oidc", "sigv4" or "apikey".
	AuthMethod string
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
