package edge

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/companyintel/mcp-server/tools"
)

// Identity is who a stdio server's requests act as: the server's own
// credentials, which the credential chain resolves while the server
// answers the handshake and the catalogue. The chain's SigV4 link probes
// the EC2 metadata service (about 10 ms where it answers at once, up to its
// one-second bound where the packets are dropped) and the OIDC link may
// fetch a token, and a client needs neither to list the tools. Whatever may
// reach the backend or name the caller waits for the outcome
// (waitForIdentity).
type Identity interface {
	// Caller waits for the chain and returns the caller it chose: the
	// chain's error when it failed, ctx's when ctx ended first.
	Caller(ctx context.Context) (tools.Caller, error)
	// Failed returns the chain's error once it has failed, else nil; it
	// does not wait.
	Failed() error
}

// answeredWithoutIdentity are the requests a stdio server answers before
// its credentials are known: the handshake and the catalogue, which read
// only what the server holds (tools/list may still wait for what start-up
// learns of the backend's schema: waitForCatalogue). Every other request waits, including any
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
func waitForIdentity(id Identity, next MessageHandler) MessageHandler {
	return func(ctx context.Context, method string, msg []byte) (json.RawMessage, *Error) {
		if answeredWithoutIdentity[method] || strings.HasPrefix(method, "notifications/") {
			return next(ctx, method, msg)
		}
		caller, err := id.Caller(ctx)
		if err != nil {
			// A chain that failed stops the server, which ends ctx too:
			// the chain's outcome is known by then, and is the answer.
			if chainErr := id.Failed(); chainErr != nil {
				return chainFailed(method, msg, chainErr)
			}
			return nil, &Error{Code: CodeInternalError, Message: "the server stopped before it could answer " + method}
		}
		return next(tools.WithCaller(ctx, caller), method, msg)
	}
}

// chainFailed answers a request that waited for a credential chain that
// failed, in the chain's own words (the ones the log and the exit carry,
// which name the setting to fix and hold no secret). A tool call gets a
// tool error, as every failed call does, so that the model can tell the
// user; anything else a JSON-RPC error.
func chainFailed(method string, msg []byte, chainErr error) (json.RawMessage, *Error) {
	words := "the server could not resolve its own credentials for the backend and is stopping: " + chainErr.Error() +
		". Whoever runs the server must fix that setting and restart it; retrying will not help"
	if method != "tools/call" {
		return nil, &Error{Code: CodeInternalError, Message: words}
	}
	var req struct {
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	_ = json.Unmarshal(msg, &req) // the name only labels the answer
	res, err := json.Marshal(tools.ErrorResult(req.Params.Name, &tools.Error{Class: tools.Unauthorized, Message: words}))
	if err != nil {
		return nil, &Error{Code: CodeInternalError, Message: words}
	}
	return res, nil
}

// waitForCatalogue holds tools/list and tools/call until ready is closed:
// which tools are served is settled at start-up, within a bounded time
// (the server must ask the backend which schema it serves), and a client
// that lists the tools once, as most do, must see the settled list.
func waitForCatalogue(ready <-chan struct{}, next MessageHandler) MessageHandler {
	return func(ctx context.Context, method string, msg []byte) (json.RawMessage, *Error) {
		if method == "tools/list" || method == "tools/call" {
			select {
			case <-ready:
			case <-ctx.Done():
				return nil, &Error{Code: CodeInternalError, Message: "the server stopped before it could answer " + method}
			}
		}
		return next(ctx, method, msg)
	}
}
