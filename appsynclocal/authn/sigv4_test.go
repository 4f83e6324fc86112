package authn_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/companyintel/mcp-server/appsynclocal/authn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	testKeyID  = "AKIDLOCALTEST"
	testSecret = "local/secret+key/for/tests"
	testRegion = "eu-west-1"
)

func newSigV4(t *testing.T, clk *clock, creds ...authn.SigV4Credential) *authn.SigV4Authenticator {
	t.Helper()
	if len(creds) == 0 {
		creds = []authn.SigV4Credential{{AccessKeyID: testKeyID, SecretAccessKey: testSecret, User: "ci-bot"}}
	}
	a, err := authn.NewSigV4Authenticator(authn.SigV4Config{Region: testRegion, Credentials: creds, Now: clk.Now})
	require.NoError(t, err)
	return a
}

// signed builds a whoami request signed by the SDK's signer, the way
// package auth signs, and lets edit change it after signing.
type signOpts struct {
	keyID, secret, session, region, service string
	at                                      time.Time
	edit                                    func(*http.Request)
}

func sendSigned(t *testing.T, url string, o signOpts) answer {
	t.Helper()
	body := []byte(`{"query":"query Whoami { whoami { method subject } }","variables":{"q":"a b/c"}}`)
	req, err := http.NewRequest(http.MethodPost, url+"/graphql?x=1&a-b=2&a=3", bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	sum := sha256.Sum256(body)
	creds := aws.Credentials{AccessKeyID: o.keyID, SecretAccessKey: o.secret, SessionToken: o.session}
	require.NoError(t, v4.NewSigner().SignHTTP(context.Background(), creds, req, hex.EncodeToString(sum[:]), o.service, o.region, o.at))
	if o.edit != nil {
		o.edit(req)
	}
	return do(t, req)
}

func TestSigV4Authenticator(t *testing.T) {
	clk := newClock()
	srv := backend(t, newSigV4(t, clk))
	good := signOpts{keyID: testKeyID, secret: testSecret, region: testRegion, service: "appsync", at: clk.Now()}

	tests := []struct {
		name    string
		change  func(o *signOpts)
		message string
	}{
		{name: "valid signature"},
		{name: "signed 14 minutes ago", change: func(o *signOpts) { o.at = o.at.Add(-14 * time.Minute) }},
		{name: "wrong secret", change: func(o *signOpts) { o.secret = "not-the-secret" }, message: "The request signature we calculated does not match"},
		{name: "unknown access key", change: func(o *signOpts) { o.keyID = "AKIDUNKNOWN" }, message: "The security token included in the request is invalid."},
		{name: "unexpected session token", change: func(o *signOpts) { o.session = "sess" }, message: "The security token included in the request is invalid."},
		{name: "wrong region", change: func(o *signOpts) { o.region = "us-east-1" }, message: "Credential should be scoped to a valid region, not 'us-east-1'"},
		{name: "wrong service", change: func(o *signOpts) { o.service = "execute-api" }, message: "Credential should be scoped to correct service: 'appsync'"},
		{name: "signed 16 minutes ago", change: func(o *signOpts) { o.at = o.at.Add(-16 * time.Minute) }, message: "Signature expired: 20261130T014400Z is now earlier than 20261130T014500Z"},
		{name: "signed 16 minutes ahead", change: func(o *signOpts) { o.at = o.at.Add(16 * time.Minute) }, message: "Signature not yet current"},
		{name: "body changed after signing", change: func(o *signOpts) {
			o.edit = func(r *http.Request) { replaceInBody(t, r, "whoami {", "drop_db{") }
		}, message: "The request signature we calculated does not match"},
		{name: "signed header changed", change: func(o *signOpts) {
			o.edit = func(r *http.Request) { r.Header.Set("Accept", "text/html") }
		}, message: "The request signature we calculated does not match"},
		{name: "date header changed", change: func(o *signOpts) {
			o.edit = func(r *http.Request) {
				r.Header.Set("X-Amz-Date", clk.Now().Add(time.Minute).Format("20060102T150405Z"))
			}
		}, message: "The request signature we calculated does not match"},
		{name: "date header missing", change: func(o *signOpts) {
			o.edit = func(r *http.Request) { r.Header.Del("X-Amz-Date") }
		}, message: "Authorization header requires existence of either a 'X-Amz-Date'"},
		{name: "malformed header", change: func(o *signOpts) {
			o.edit = func(r *http.Request) { r.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=abc") }
		}, message: "Authorization header requires 'SignedHeaders' parameter."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := good
			if tt.change != nil {
				tt.change(&o)
			}
			got := sendSigned(t, srv.URL, o)
			if tt.message != "" {
				assert.Equal(t, http.StatusUnauthorized, got.status)
				assert.Contains(t, got.message, tt.message)
				return
			}
			assert.Equal(t, http.StatusOK, got.status, got.message)
			assert.Equal(t, authn.MethodIAM, got.method)
			assert.Equal(t, "ci-bot", got.subject)
		})
	}
}

func TestSigV4SessionToken(t *testing.T) {
	clk := newClock()
	srv := backend(t, newSigV4(t, clk, authn.SigV4Credential{AccessKeyID: testKeyID, SecretAccessKey: testSecret, SessionToken: "session-token-value"}))
	o := signOpts{keyID: testKeyID, secret: testSecret, session: "session-token-value", region: testRegion, service: "appsync", at: clk.Now()}
	got := sendSigned(t, srv.URL, o)
	assert.Equal(t, http.StatusOK, got.status, got.message)
	assert.Equal(t, testKeyID, got.subject, "without a user name the key id is the subject")

	o.session = "another-session"
	assert.Equal(t, "The security token included in the request is invalid.", sendSigned(t, srv.URL, o).message)
	o.session = ""
	assert.Equal(t, "The security token included in the request is invalid.", sendSigned(t, srv.URL, o).message)
}

// TestSigV4IgnoresOtherSchemes leaves bearer tokens and API keys to the
// other authenticators.
func TestSigV4IgnoresOtherSchemes(t *testing.T) {
	a := newSigV4(t, newClock())
	for _, h := range []string{"", "eyJhbGciOiJFUzI1NiJ9.e30.sig", "Bearer x"} {
		r, _ := http.NewRequest(http.MethodPost, "http://backend.test/graphql", strings.NewReader("{}"))
		if h != "" {
			r.Header.Set("Authorization", h)
		}
		_, ok, err := a.Authenticate(r, []byte("{}"))
		assert.False(t, ok, h)
		assert.NoError(t, err, h)
	}
}

func TestSigV4Config(t *testing.T) {
	_, err := authn.NewSigV4Authenticator(authn.SigV4Config{})
	assert.Error(t, err)
	_, err = authn.NewSigV4Authenticator(authn.SigV4Config{Region: "r", Credentials: []authn.SigV4Credential{{AccessKeyID: "a"}}})
	assert.Error(t, err)
}
