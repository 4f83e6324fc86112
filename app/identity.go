package app

import (
	"context"
	"net/http"
	"sync/atomic"

	"github.com/companyintel/mcp-server/auth"
	"github.com/companyintel/mcp-server/internal/edge"
	"github.com/companyintel/mcp-server/tools"
)

// identity is the server's own credentials, as the credential chain
// resolves them. A stdio server resolves them while it answers the
// handshake and the catalogue (edge.Identity says why); its requests and
// its backend requests wait for the outcome, and a chain that fails still
// stops the server, with the same message and exit status as before it
// answered anything.
var _ edge.Identity = (*identity)(nil)

type identity struct {
	ready chan struct{} // closed once src or err is set
	src   *auth.Source
	err   error
	// resolved is src once the chain has resolved it. A backend request
	// reads it instead of awaiting the chain: every request that reaches
	// the backend was held at the edge until the chain resolved (it
	// awaited the chain once there), so awaiting it again per backend
	// request was the same wait twice.
	resolved atomic.Pointer[auth.Source]
}

// newIdentity returns an identity that set will complete.
func newIdentity() *identity { return &identity{ready: make(chan struct{})} }

// resolvedIdentity returns an identity that is already known.
func resolvedIdentity(src *auth.Source) *identity {
	id := newIdentity()
	id.set(src, nil)
	return id
}

// set records the chain's outcome; it is called once.
func (id *identity) set(src *auth.Source, err error) {
	id.src, id.err = src, err
	if err == nil {
		id.resolved.Store(src)
	}
	close(id.ready)
}

// failed returns the chain's error once it has failed, else nil; it does not
// wait.
func (id *identity) failed() error {
	select {
	case <-id.ready:
		return id.err
	default:
		return nil
	}
}

// chainWaits counts the waits for a credential chain's outcome in this
// process; a test reads it around one call.
var chainWaits atomic.Int64

// wait returns the chain's outcome, or ctx's error if ctx ends first.
func (id *identity) wait(ctx context.Context) (*auth.Source, error) {
	chainWaits.Add(1)
	select {
	case <-id.ready:
		return id.src, id.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// RoundTrip sends r with the server's credentials once they are known. It
// waits for the chain only while it is unresolved, which a request the edge
// served never finds.
func (id *identity) RoundTrip(r *http.Request) (*http.Response, error) {
	if src := id.resolved.Load(); src != nil {
		return src.Transport.RoundTrip(r)
	}
	src, err := id.wait(r.Context())
	if err != nil {
		if r.Body != nil {
			r.Body.Close()
		}
		return nil, err
	}
	return src.Transport.RoundTrip(r)
}

// UnauthorizedHint is the source's hint, once it is known.
func (id *identity) UnauthorizedHint() string {
	select {
	case <-id.ready:
		return id.src.UnauthorizedHint()
	default:
		return ""
	}
}

// Status is the source's status; it waits for the chain, which its own
// timeouts bound.
func (id *identity) Status() auth.Status {
	src, err := id.wait(context.Background())
	if err != nil {
		return auth.Status{}
	}
	return src.Status()
}

// Caller is the caller the chain chose, once it has: the edge's stdio
// requests act as it (edge.Identity).
func (id *identity) Caller(ctx context.Context) (tools.Caller, error) {
	src, err := id.wait(ctx)
	if err != nil {
		return tools.Caller{}, err
	}
	return tools.Caller{ID: src.Principal, AuthMethod: string(src.Method)}, nil
}

// Failed is the chain's error once it has failed (edge.Identity).
func (id *identity) Failed() error { return id.failed() }
