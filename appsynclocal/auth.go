package appsynclocal

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base32"
	"errors"
	"net/http"
	"strings"
)

// Identity is who a request acts as.
type Identity struct {
	// Method is the auth mode: "apikey", "oidc" or "iam".
	Method string
	// Subject is the user for oidc and iam; "" for apikey, because an API
	// key names an application, not a user.
	Subject string
}

// Auth modes, as Identity.Method spells them.
const (
	MethodAPIKey = "apikey"
	MethodOIDC   = "oidc"
	MethodIAM    = "iam"
)

// Authenticator checks one auth mode. ok=false means the request does not
// carry this mode's credentials at all; err != nil means it does but they are
// invalid (the message becomes the 401 message).
type Authenticator interface {
	Authenticate(r *http.Request, body []byte) (id Identity, ok bool, err error)
}

// msgNotAuthorized is AppSync's 401 message for missing or invalid
// credentials, word for word.
const msgNotAuthorized = "You are not authorized to make this call."

// APIKeyAuthenticator accepts requests whose x-api-key header holds its key.
type APIKeyAuthenticator struct{ key []byte }

// NewAPIKeyAuthenticator accepts key.
func NewAPIKeyAuthenticator(key string) *APIKeyAuthenticator {
	return &APIKeyAuthenticator{key: []byte(key)}
}

// Authenticate compares the x-api-key header with the key in constant time,
// so the answer's timing says nothing about how close a guess was.
func (a *APIKeyAuthenticator) Authenticate(r *http.Request, _ []byte) (Identity, bool, error) {
	got := r.Header.Get("x-api-key")
	if got == "" {
		return Identity{}, false, nil
	}
	if len(a.key) == 0 || subtle.ConstantTimeCompare([]byte(got), a.key) != 1 {
		return Identity{}, true, errors.New(msgNotAuthorized)
	}
	return Identity{Method: MethodAPIKey}, true, nil
}

// StaticAuthenticator trusts a request header to name the user. It is for
// tests and demos only: anyone who can reach the backend can claim to be
// anyone. It stands in for OIDC or IAM where a user identity is needed and no
// token issuer is at hand.
type StaticAuthenticator struct {
	// Header names the user; "" means "x-test-user".
	Header string
	// Method is the mode reported; "" means "oidc".
	Method string
}

// Authenticate reads the user from the header.
func (a StaticAuthenticator) Authenticate(r *http.Request, _ []byte) (Identity, bool, error) {
	header := a.Header
	if header == "" {
		header = "x-test-user"
	}
	user := strings.TrimSpace(r.Header.Get(header))
	if user == "" {
		return Identity{}, false, nil
	}
	method := a.Method
	if method == "" {
		method = MethodOIDC
	}
	return Identity{Method: method, Subject: user}, true, nil
}

// authenticate tries each authenticator in order. The first to accept the
// request wins; if none does, the first refusal's message is the 401 message,
// and a request carrying no credentials at all gets AppSync's.
func authenticate(auths []Authenticator, r *http.Request, body []byte) (Identity, error) {
	var refusal error
	for _, a := range auths {
		id, ok, err := a.Authenticate(r, body)
		switch {
		case !ok:
		case err != nil:
			if refusal == nil {
				refusal = err
			}
		default:
			return id, nil
		}
	}
	if refusal == nil {
		refusal = errors.New(msgNotAuthorized)
	}
	return Identity{}, refusal
}

// identityKey keys the caller's Identity in a request context.
type identityKey struct{}

// IdentityFrom returns the identity a request to the backend authenticated
// as, from the context its resolvers run in.
func IdentityFrom(ctx context.Context) (Identity, bool) {
	id, ok := ctx.Value(identityKey{}).(Identity)
	return id, ok
}

// GenerateAPIKey returns a new random key shaped like AppSync's
// ("da2-" and 26 lower-case base32 characters).
func GenerateAPIKey() string {
	b := make([]byte, 16)
	rand.Read(b) // never fails (crypto/rand documents it)
	enc := base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b)
	return "da2-" + strings.ToLower(enc[:26])
}
