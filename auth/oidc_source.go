package auth

import (
	"fmt"
	"net/http"
	"sync/atomic"
	"time"
)

// oidcState is what the transport, the hint and the status share: the token
// most recently sent.
type oidcState struct {
	settings oidcSettings
	kind     tokenKind
	v        *verifier
	tokens   tokenProvider
	now      func() time.Time
	last     atomic.Pointer[verifiedToken]
}

// newOIDCSource builds the Source around a provider whose first token has
// been verified.
func newOIDCSource(s oidcSettings, kind tokenKind, v *verifier, tokens tokenProvider, o Options) *Source {
	st := &oidcState{settings: s, kind: kind, v: v, tokens: tokens, now: o.Now}
	first := tokens.latest() // verified by the provider's constructor
	st.last.Store(&first)
	return &Source{
		Method: OIDC,
		// The subject is what AppSync exposes as $ctx.identity.sub and
		// what the backend scopes collections by; it is stable across
		// renames and keeps e-mail addresses out of every log line.
		Principal: first.subject,
		Transport: &oidcTransport{state: st, base: o.Base},
		hint:      st.hint,
		status:    st.status,
	}
}

// oidcTransport sends the current token in the Authorization header.
type oidcTransport struct {
	state *oidcState
	base  http.RoundTripper
}

// RoundTrip sets the raw JWT as the Authorization header: AppSync's OIDC
// mode rejects a "Bearer " prefix ("Unable to parse JWT token."; see
// aws/aws-appsync-community#96 and the AWS knowledge-center article on
// AppSync 401s), and its own clients send the bare token.
func (t *oidcTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if err := refuseInsecure(OIDC, r.URL); err != nil {
		closeBody(r)
		return nil, err
	}
	tok, err := t.state.tokens.current(r.Context())
	if err != nil {
		closeBody(r) // RoundTrip must close the body, even on error
		return nil, err
	}
	t.state.last.Store(&tok)
	// A token past its expiry is refused by every backend; sending it
	// anyway would only put a live credential's twin on the wire. The
	// caller gets an unauthorized error that says so, and the hint the fix.
	if !tok.expiry.After(t.state.now()) {
		closeBody(r)
		return nil, errorf(OIDC, "the OIDC token expired at %s, so it was not sent", tok.expiry.UTC().Format(time.RFC3339))
	}
	return t.base.RoundTrip(withHeader(r, "Authorization", tok.raw))
}

// hint explains a 401 by what is known now: an expired token, a rejected
// replacement, or else a configuration mismatch with the backend.
func (st *oidcState) hint() string {
	tok := st.last.Load()
	remedy := describeSource(st.kind, st.settings)
	problem := st.tokens.problem()
	if !tok.expiry.After(st.now()) {
		msg := fmt.Sprintf("OIDC token expired at %s; %s", tok.expiry.UTC().Format(time.RFC3339), remedy)
		if problem != "" {
			msg += " (" + problem + ")"
		}
		return msg
	}
	if problem != "" {
		return "OIDC token rejected by the backend; " + problem
	}
	return fmt.Sprintf("OIDC token rejected by the backend although it verifies here (issuer %s, audience %s, subject %s, valid until %s): check that the AppSync API's OIDC issuer and client id match OIDC_ISSUER and OIDC_AUDIENCE",
		st.v.issuer, st.v.audience, tok.subject, tok.expiry.UTC().Format(time.RFC3339))
}

func (st *oidcState) status() Status {
	tok := st.last.Load()
	return Status{
		Method:      OIDC,
		Principal:   tok.subject,
		Issuer:      st.v.issuer,
		Audience:    st.v.audience,
		TokenSource: string(st.kind),
		TokenExpiry: tok.expiry.UTC(),
	}
}
