package app

import (
	"net/http"
	"time"
)

// maxIdlePerBackend is how many idle connections to the backend are kept
// for reuse. http.DefaultTransport keeps 2 per host, so with more than two
// tool calls in flight every further call closed its connection after use
// and the next one dialled again: a TCP and TLS handshake with AppSync per
// call under load (measured: 2.6 % of the HTTP mode's CPU went to dialling
// the embedded backend at 8 clients). Calls in flight beyond this still get
// connections; only their reuse is bounded.
const maxIdlePerBackend = 128

// newBackendTransport is the one connection pool every request to the
// backend goes through, whoever's credentials it carries: the server's own
// (API key, SigV4, OIDC) and each user's exchanged token.
func newBackendTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = maxIdlePerBackend * 2 // the backend and the token endpoints
	t.MaxIdleConnsPerHost = maxIdlePerBackend
	t.IdleConnTimeout = 90 * time.Second
	return t
}
