package auth

import (
	"context"
	"net/http"
)

// APIKeyPrincipal is the fixed caller name of API-key requests: a key names an
// application, not a user.
const APIKeyPrincipal = "api-key"

// NewAPIKeySource returns a Source that sends key in the x-api-key header, as
// AppSync expects.
func NewAPIKeySource(key string, base http.RoundTripper) *Source {
	if base == nil {
		base = http.DefaultTransport
	}
	return &Source{
		Method:    APIKey,
		Principal: APIKeyPrincipal,
		Transport: &apiKeyTransport{key: key, base: base},
		hint: func() string {
			return "API key rejected: check APPSYNC_API_KEY against the keys of this AppSync API (keys expire); collections and writes need OIDC or IAM, never an API key"
		},
	}
}

// tryAPIKey is the last link of the chain.
func tryAPIKey(_ context.Context, r *resolver) (*Source, string, error) {
	key := r.o.APIKey
	if key == "" {
		key = r.o.Getenv("APPSYNC_API_KEY")
	}
	if key == "" {
		return nil, "APPSYNC_API_KEY is not set", nil
	}
	r.secrets.add(key)
	return NewAPIKeySource(key, r.o.Base), "", nil
}

type apiKeyTransport struct {
	key  string
	base http.RoundTripper
}

func (t *apiKeyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if err := refuseInsecure(APIKey, r.URL); err != nil {
		closeBody(r)
		return nil, err
	}
	return t.base.RoundTrip(withHeader(r, "x-api-key", t.key))
}

// withHeader returns a copy of r with the header name set to value. A
// RoundTripper must not change the request it is given; Request.Clone
// would also copy the URL, every header value and the trailers, which a
// credential header does not touch (on every backend call, a few µs).
// The copy shares r's header values: nothing here writes to them.
func withHeader(r *http.Request, name, value string) *http.Request {
	out := new(http.Request)
	*out = *r
	out.Header = make(http.Header, len(r.Header)+1)
	for k, v := range r.Header {
		out.Header[k] = v
	}
	out.Header.Set(name, value)
	return out
}

// closeBody closes a request's body, as a RoundTripper must even when it
// sends nothing.
func closeBody(r *http.Request) {
	if r.Body != nil {
		r.Body.Close()
	}
}
