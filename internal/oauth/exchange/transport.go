package exchange

import (
	"fmt"
	"net/http"
	"net/url"

	"github.com/companyintel/mcp-server/auth"
	"github.com/companyintel/mcp-server/internal/loopback"
)

// Transport returns a RoundTripper that sends each request with a backend
// token for the request context's Subject, as the bare JWT in Authorization:
// AppSync's OIDC mode rejects a "Bearer " prefix (see auth's OIDC
// transport). A request without a Subject, or whose token cannot be
// obtained, fails with an *auth.Error and is never sent. base nil means
// http.DefaultTransport.
func (x *Exchanger) Transport(base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return &transport{x: x, base: base}
}

type transport struct {
	x    *Exchanger
	base http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (t *transport) RoundTrip(r *http.Request) (*http.Response, error) {
	fail := func(err error) (*http.Response, error) {
		if r.Body != nil {
			r.Body.Close() // RoundTrip must close the body, even on error
		}
		return nil, err
	}
	if r.URL.Scheme != "https" && !loopback.Host(r.URL.Hostname()) {
		return fail(&auth.Error{Method: Method, Msg: "the data API endpoint " + r.URL.Redacted() + " is plain http: user credentials are sent only over https (or http on loopback)"})
	}
	s, ok := SubjectFrom(r.Context())
	if !ok {
		return fail(&auth.Error{Method: Method, Msg: "this request carries no verified user, so no backend token can be obtained for it; nothing was sent"})
	}
	tok, err := t.x.token(r.Context(), s)
	if err != nil {
		return fail(err)
	}
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", tok)
	return t.base.RoundTrip(r)
}

// UnauthorizedHint says what to check when the backend refuses an exchanged
// token, for the tools' unauthorized errors in exchange mode (the server's
// own credential source would describe credentials this mode never sends).
func (x *Exchanger) UnauthorizedHint() string {
	return fmt.Sprintf("each user's token is exchanged at %s for a token with the audience %q: check that the data API's OIDC settings trust that issuer with that client id, and that the user signs in again if their token expired",
		issuerOf(x.cfg.TokenURL), x.cfg.Audience)
}

// issuerOf names the issuer by its token endpoint's origin.
func issuerOf(tokenURL string) string {
	u, err := url.Parse(tokenURL)
	if err != nil || u.Host == "" {
		return tokenURL
	}
	return u.Scheme + "://" + u.Host
}
