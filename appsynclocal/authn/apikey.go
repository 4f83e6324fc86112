package authn

import (
	"crypto/subtle"
	"errors"
	"net/http"
)

// msgUnauthorized is AppSync's answer to a wrong or expired API key.
const msgUnauthorized = "You are not authorized to make this call."

// APIKeyAuthenticator accepts requests whose x-api-key header holds one of
// the configured keys.
type APIKeyAuthenticator struct {
	keys [][]byte
}

// NewAPIKeyAuthenticator accepts the given keys; empty keys are ignored.
func NewAPIKeyAuthenticator(keys ...string) *APIKeyAuthenticator {
	a := &APIKeyAuthenticator{}
	for _, k := range keys {
		if k != "" {
			a.keys = append(a.keys, []byte(k))
		}
	}
	return a
}

// Authenticate implements the Authenticator contract for API keys. Every
// configured key is compared in constant time, so the answer's timing does
// not tell which key was close.
func (a *APIKeyAuthenticator) Authenticate(r *http.Request, _ []byte) (Identity, bool, error) {
	got := r.Header.Get("x-api-key")
	if got == "" {
		return Identity{}, false, nil
	}
	match := 0
	for _, k := range a.keys {
		match |= subtle.ConstantTimeCompare([]byte(got), k)
	}
	if match != 1 {
		return Identity{}, true, errors.New(msgUnauthorized)
	}
	return Identity{Method: MethodAPIKey}, true, nil
}
