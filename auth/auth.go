// Package auth chooses how the server authenticates to the AppSync backend and
// supplies that choice as an http.RoundTripper.
package auth

import (
	"context"
	"errors"
	"net/http"
	"os"
)

// Method names a way of authenticating to AppSync, as the start-up line shows it.
type Method string

// The methods, in the order the chain tries them.
const (
	OIDC   Method = "oidc"
	SigV4  Method = "sigv4"
	APIKey Method = "apikey"
)

// Options is what the chain may use. Empty fields are read from the environment.
type Options struct {
	// Force, when set, picks one method instead of walking the chain.
	Force Method
	// Endpoint is the AppSync GraphQL URL; SigV4 reads the region from it.
	Endpoint string
	// APIKey overrides APPSYNC_API_KEY.
	APIKey string
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// Base is the transport credentials are added on top of; nil means
	// http.DefaultTransport.
	Base http.RoundTripper
}

// Source is the chain's choice: a method, the principal it acts as, and the
// transport that authenticates each request.
type Source struct {
	// Method is the method that won.
	Method Method
	// Principal identifies the caller in logs and rate limits: an OIDC
	// subject, an IAM identity, or the API key's fixed name. Never a secret.
	Principal string
	// Transport adds credentials to each request.
	Transport http.RoundTripper
	// hint explains what to fix when the backend refuses the credentials.
	hint func() string
}

// UnauthorizedHint says, in a sentence, why the backend may have refused this
// source's credentials and what to do about it. It never contains a secret.
func (s *Source) UnauthorizedHint() string {
	if s == nil || s.hint == nil {
		return ""
	}
	return s.hint()
}

// ErrNoCredentials means no method is configured.
var ErrNoCredentials = errors.New("no credentials: set OIDC_TOKEN, OIDC_TOKEN_FILE or OIDC_ISSUER with a client; or AWS credentials; or APPSYNC_API_KEY")

// Resolve walks the chain and returns the first configured method.
//
// For now only the API key is implemented; OIDC and SigV4 come with the auth
// issue and keep this signature.
func Resolve(ctx context.Context, o Options) (*Source, error) {
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	base := o.Base
	if base == nil {
		base = http.DefaultTransport
	}
	key := o.APIKey
	if key == "" {
		key = getenv("APPSYNC_API_KEY")
	}
	if key != "" && (o.Force == "" || o.Force == APIKey) {
		return NewAPIKeySource(key, base), nil
	}
	return nil, ErrNoCredentials
}
