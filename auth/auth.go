// Package auth chooses how the server authenticates to the AppSync backend and
// supplies that choice as an http.RoundTripper.
//
// Resolve walks the chain once at start-up: OIDC if any OIDC_* variable is
// set, else SigV4 if AWS credentials resolve, else an API key. A method that
// is not configured is skipped (the reason is logged at debug level); a method
// that is configured but broken stops start-up with an *Error naming the
// method and the fix, so a typo never silently downgrades the server to a
// weaker identity.
//
// No secret (API key, token, client secret, refresh token, AWS secret key or
// session token) is ever written to a log line or an error message.
//
// The environment it reads:
//
//	OIDC_ISSUER         issuer URL; discovery must name exactly it (required for OIDC)
//	OIDC_AUDIENCE       required aud, AppSync's OIDC "client id" (default OIDC_CLIENT_ID)
//	OIDC_TOKEN          a JWT, verified at start-up and sent as is
//	OIDC_TOKEN_FILE     a file holding a JWT, re-read when it changes (sidecars, projected volumes)
//	OIDC_REFRESH_TOKEN  with OIDC_CLIENT_ID [+ OIDC_CLIENT_SECRET]: refresh_token grant
//	OIDC_CLIENT_ID      with OIDC_CLIENT_SECRET and no token: client_credentials grant
//	OIDC_CLIENT_SECRET  the client's secret
//	OIDC_SCOPES         scopes for the token endpoint, space- or comma-separated
//	AWS_*               the AWS SDK's own variables and shared files (SigV4)
//	APPSYNC_API_KEY     the API key, sent as x-api-key
//
// One token source is used, in this order of preference: OIDC_TOKEN_FILE,
// OIDC_TOKEN (setting both is an error), OIDC_REFRESH_TOKEN, client
// credentials. Tokens from the token endpoint are renewed a minute before
// they expire.
package auth

import (
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Method names a way of authenticating to AppSync, as the start-up line shows it.
type Method string

// The methods, in the order the chain tries them.
const (
	OIDC   Method = "oidc"
	SigV4  Method = "sigv4"
	APIKey Method = "apikey"
)

// ParseMethod reads the value of the --auth flag. The empty string means "walk
// the chain" and is returned as "".
func ParseMethod(s string) (Method, error) {
	switch m := Method(s); m {
	case "", OIDC, SigV4, APIKey:
		return m, nil
	}
	return "", fmt.Errorf("unknown auth method %q: use oidc, sigv4 or apikey", s)
}

// Source is the chain's choice: a method, the principal it acts as, and the
// transport that authenticates each request.
type Source struct {
	// Method is the method that won.
	Method Method
	// Principal identifies the caller in logs and rate limits: an OIDC
	// subject, "iam:<access key id>", or the API key's fixed name. Never a
	// secret. It is fixed at start-up; Status().Principal follows a token
	// file that changes hands.
	Principal string
	// Transport adds credentials to each request. When it cannot obtain
	// credentials (a token refresh failed, AWS credentials could not be
	// renewed) it returns an *Error without sending anything.
	Transport http.RoundTripper
	// hint explains what to fix when the backend refuses the credentials.
	hint func() string
	// status reports the source's current state.
	status func() Status
}

// UnauthorizedHint says, in a sentence, why the backend may have refused this
// source's credentials and what to do about it. It names the method, reflects
// the state at the time of the call (an OIDC token that has expired since
// start-up says so) and never contains a secret.
func (s *Source) UnauthorizedHint() string {
	if s == nil || s.hint == nil {
		return ""
	}
	return s.hint()
}

// Status describes the source for a status resource or a health check.
func (s *Source) Status() Status {
	if s == nil {
		return Status{}
	}
	if s.status != nil {
		return s.status()
	}
	return Status{Method: s.Method, Principal: s.Principal}
}

// Status is what an operator may see about the credentials in use. It holds
// no secret.
type Status struct {
	// Method is the method in use.
	Method Method `json:"method"`
	// Principal is the identity the server acts as.
	Principal string `json:"principal"`
	// Issuer is the OIDC issuer the token was verified against (OIDC only).
	Issuer string `json:"issuer,omitempty"`
	// Audience is the audience the token was verified for (OIDC only).
	Audience string `json:"audience,omitempty"`
	// TokenSource says where the OIDC token comes from: "OIDC_TOKEN",
	// "OIDC_TOKEN_FILE", "refresh_token" or "client_credentials" (OIDC only).
	TokenSource string `json:"token_source,omitempty"`
	// TokenExpiry is when the OIDC token currently sent expires (OIDC only).
	TokenExpiry time.Time `json:"token_expiry,omitzero"`
	// Region is the region requests are signed for (SigV4 only).
	Region string `json:"region,omitempty"`
	// CredentialSource says where the AWS credentials come from, e.g.
	// "environment", "shared profile", "SSO", "instance role" (SigV4 only).
	CredentialSource string `json:"credential_source,omitempty"`
}

// Error is an authentication failure that the operator has to fix: a method
// that is configured but broken at start-up, or credentials that the
// transport could no longer obtain. Its message names the method and the fix
// and never contains a secret.
type Error struct {
	// Method is the method that failed.
	Method Method
	// Msg says what is wrong and what to do.
	Msg string
}

// Error returns "auth <method>: <message>".
func (e *Error) Error() string { return "auth " + string(e.Method) + ": " + e.Msg }

// errorf builds an *Error. Callers must only format values that are not
// secrets; Resolve additionally scrubs every secret it read from the message.
func errorf(m Method, format string, args ...any) *Error {
	return &Error{Method: m, Msg: fmt.Sprintf(format, args...)}
}

// ErrNoCredentials means no method is configured.
var ErrNoCredentials = errors.New("no credentials for the AppSync backend: set OIDC_ISSUER with OIDC_TOKEN, OIDC_TOKEN_FILE, OIDC_REFRESH_TOKEN or OIDC_CLIENT_ID and OIDC_CLIENT_SECRET; or provide AWS credentials (environment, profile, SSO, web identity, container or instance role); or set APPSYNC_API_KEY")
