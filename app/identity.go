package app

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/companyintel/mcp-server/auth"
	"github.com/companyintel/mcp-server/internal/edge"
	"github.com/companyintel/mcp-server/tools"
)

// identity is the server's own credentials, as the credential chain
// resolves them. A stdio server resolves them while it answers the
// handshake and the catalogue: the chain's SigV4 link probes the EC2
// metadata service (about 10 ms where it answers at once, up to its
// one-second bound where the packets are dropped) and the OIDC link may
// fetch a token, and a client needs neither to list the tools. Whatever
// may reach the backend or name the caller waits for the outcome
// (waitForIdentity); a chain that fails still stops the server, with the
// same message and exit status as before it answered anything.
type identity struct {
	ready chan struct{} // closed once src or err is set
	src   *auth.Source
	err   error
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

// chainFailed answers a request that waited for a credential chain that
// failed, in the chain's own words (the ones the log and the exit carry,
// which name the setting to fix and hold no secret). A tool call gets a
// tool error, as every failed call does, so that the model can tell the
// user; anything else a JSON-RPC error.
func chainFailed(method string, msg []byte, chainErr error) (json.RawMessage, *edge.Error) {
	words := "the server could not resolve its own credentials for the backend and is stopping: " + chainErr.Error() +
		". Whoever runs the server must fix that setting and restart it; retrying will not help"
	if method != "tools/call" {
		return nil, &edge.Error{Code: edge.CodeInternalError, Message: words}
	}
	var req struct {
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	_ = json.Unmarshal(msg, &req) // the name only labels the answer
	res, err := json.Marshal(tools.ErrorResult(req.Params.Name, &tools.Error{Class: tools.Unauthorized, Message: words}))
	if err != nil {
		return nil, &edge.Error{Code: edge.CodeInternalError, Message: words}
	}
	return res, nil
}

// wait returns the chain's outcome, or ctx's error if ctx ends first.
func (id *identity) wait(ctx context.Context) (*auth.Source, error) {
	select {
	case <-id.ready:
		return id.src, id.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// RoundTrip sends r with the server's credentials once they are known.
func (id *identity) RoundTrip(r *http.Request) (*http.Response, error) {
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

// answeredWithoutIdentity are the requests a stdio server answers before
// its credentials are known: the handshake and the catalogue, which read
// only what the server holds. Every other request waits, including any
// method added later, and so do none of the notifications, which carry no
// answer and must not queue behind the chain (a cancellation above all).
var answeredWithoutIdentity = map[string]bool{
	"initialize":               true,
	"ping":                     true,
	"tools/list":               true,
	"resources/list":           true,
	"resources/templates/list": true,
	"prompts/list":             true,
}

// waitForIdentity holds each request that needs the server's identity
// until the chain has resolved it, then serves it as that caller.
func waitForIdentity(id *identity, next edge.MessageHandler) edge.MessageHandler {
	return func(ctx context.Context, method string, msg []byte) (json.RawMessage, *edge.Error) {
		if answeredWithoutIdentity[method] || strings.HasPrefix(method, "notifications/") {
			return next(ctx, method, msg)
		}
		src, err := id.wait(ctx)
		if err != nil {
			// A chain that failed stops the server, which ends ctx too:
			// the chain's outcome is known by then, and is the answer.
			if chainErr := id.failed(); chainErr != nil {
				return chainFailed(method, msg, chainErr)
			}
			return nil, &edge.Error{Code: edge.CodeInternalError, Message: "the server stopped before it could answer " + method}
		}
		return next(tools.WithCaller(ctx, tools.Caller{ID: src.Principal, AuthMethod: string(src.Method)}), method, msg)
	}
}
