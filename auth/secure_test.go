package auth_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/auth"
)

func TestPlainHTTPCarriesCredentialsToLoopbackHostsOnly(t *testing.T) {
	for raw, ok := range map[string]bool{
		"http://localhost:8080/graphql": true, "http://LOCALHOST/graphql": true, "http://127.8.9.10/graphql": true,
		"http://[::1]:9/graphql": true, "https://api.example.com/graphql": true,
		// A name under .localhost may resolve anywhere through DNS.
		"http://api.localhost/graphql": false, "http://localhost.example.com/graphql": false,
		"http://10.0.0.1/graphql": false, "http://0.0.0.0/graphql": false,
	} {
		err := auth.CheckSecureURL(raw)
		assert.Equal(t, ok, err == nil, "%s: %v", raw, err)
	}
}

// failingTransport fails the test if anything reaches it.
type failingTransport struct{ t *testing.T }

func (f failingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	f.t.Errorf("a request to %s was sent", r.URL)
	return nil, errors.New("sent")
}

// TestTransportsNeverSendCredentialsOverPlainHTTP: whatever the
// configuration checks missed, the transport refuses before the key leaves.
func TestTransportsNeverSendCredentialsOverPlainHTTP(t *testing.T) {
	src := auth.NewAPIKeySource(apiKey, failingTransport{t})
	req, err := http.NewRequest(http.MethodPost, "http://api.example.com/graphql", strings.NewReader(`{}`))
	require.NoError(t, err)
	_, err = src.Transport.RoundTrip(req)
	var ae *auth.Error
	require.ErrorAs(t, err, &ae)
	assert.Contains(t, ae.Error(), "credentials not sent")
	assert.NotContains(t, ae.Error(), apiKey)
}

func TestPlainHTTPIssuerStopsTheChain(t *testing.T) {
	isolateAWS(t)
	_, err := auth.Resolve(context.Background(), auth.Options{Getenv: env{
		"OIDC_ISSUER": "http://idp.example.com/realms/main", "OIDC_AUDIENCE": "app", "OIDC_TOKEN": "x.y.z", "APPSYNC_API_KEY": apiKey,
	}.get})
	require.Error(t, err, "a configured but insecure OIDC never falls through to the API key")
	assert.Contains(t, err.Error(), "auth oidc: OIDC_ISSUER")
	assert.Contains(t, err.Error(), "plain http")
}

// TestUnusedAPIKeyIsReported: an API key the operator set that loses to AWS
// credentials the machine provides is named in the start-up log.
func TestUnusedAPIKeyIsReported(t *testing.T) {
	awsEnv(t, "")
	var captured logs
	src, err := auth.Resolve(context.Background(), auth.Options{Getenv: env{"APPSYNC_API_KEY": apiKey}.get, Logger: captured.logger()})
	require.NoError(t, err)
	assert.Equal(t, auth.SigV4, src.Method)
	assert.Contains(t, captured.String(), "APPSYNC_API_KEY is set but not used: the credential chain chose sigv4 (AWS credentials from environment)")
	assert.Contains(t, captured.String(), "--auth apikey")
	assert.NotContains(t, captured.String(), apiKey)

	isolateAWS(t)
	var quiet logs
	src, err = auth.Resolve(context.Background(), auth.Options{Getenv: env{"APPSYNC_API_KEY": apiKey}.get, Logger: quiet.logger()})
	require.NoError(t, err)
	assert.Equal(t, auth.APIKey, src.Method)
	assert.NotContains(t, quiet.String(), "not used", "a key that is used is not reported")
}

func TestRefusedURLsAreQuotedWithoutTheirSecrets(t *testing.T) {
	for raw, want := range map[string]string{
		"http://api.example.com/graphql?key=s3cr3t":       `"http://api.example.com/graphql?…" is plain http`,
		"ftp://api.example.com/graphql?key=s3cr3t#s3cr3t": `"ftp://api.example.com/graphql?…" has scheme ftp`,
		"api.example.com/graphql?key=s3cr3t":              `"api.example.com/graphql?…" has no scheme`,
		"user:s3cr3t@api.example.com/graphql":             `"user:…" has scheme user`,
		"https:///graphql?key=s3cr3t":                     `"https:///graphql?…" has no host`,
		"https://user:s3cr3t@api.example.com/graphql":     "carries a user name or password",
		"https://api.example.com/%zz?key=s3cr3t":          "the value is not a URL",
	} {
		err := auth.CheckSecureURL(raw)
		require.Error(t, err, raw)
		assert.Contains(t, err.Error(), want, raw)
		assert.NotContains(t, err.Error(), "s3cr3t", raw)
	}
}
