package authn

import "net/http"

// Identity is who a request authenticated as.
//
// TODO(authn): replace with `type Identity = appsynclocal.Identity` once
// package appsynclocal defines it, so these authenticators satisfy
// appsynclocal.Authenticator; the fields are the same.
type Identity struct {
	// Method is "apikey", "oidc" or "iam".
	Method string
	// Subject is the caller: the token's sub, the IAM user name, or "" for
	// an API key, which names an application rather than a user.
	Subject string
}

// Authenticator is the contract every authenticator here meets (the same as
// appsynclocal.Authenticator).
type Authenticator interface {
	// Authenticate returns ok=false when r carries no credentials of this
	// kind, and a non-nil error, whose message is the 401 message, when it
	// carries invalid ones. body is the exact request body.
	Authenticate(r *http.Request, body []byte) (id Identity, ok bool, err error)
}

// The identity methods, as AppSync names its authorization modes.
const (
	MethodAPIKey = "apikey"
	MethodOIDC   = "oidc"
	MethodIAM    = "iam"
)
