package auth_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/companyintel/mcp-server/appsynclocal/authn"
	"github.com/companyintel/mcp-server/appsynclocal/authn/authntest"
	"github.com/companyintel/mcp-server/auth"
	"github.com/companyintel/mcp-server/graphql"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// iamBackend accepts the given local credential by SigV4.
func iamBackend(t *testing.T, cred authn.SigV4Credential) string {
	t.Helper()
	a, err := authn.NewSigV4Authenticator(authn.SigV4Config{Region: awsRegion, Credentials: []authn.SigV4Credential{cred}})
	require.NoError(t, err)
	srv := httptest.NewServer(authntest.Handler(a))
	t.Cleanup(srv.Close)
	return srv.URL + "/graphql"
}

func TestSigV4FromEnvironment(t *testing.T) {
	for _, session := range []string{"", awsSession} {
		t.Run("session token "+map[bool]string{true: "present", false: "absent"}[session != ""], func(t *testing.T) {
			awsEnv(t, session)
			endpoint := iamBackend(t, authn.SigV4Credential{AccessKeyID: awsKeyID, SecretAccessKey: awsSecret, SessionToken: session, User: "ci-bot"})
			src, err := auth.Resolve(context.Background(), auth.Options{Endpoint: endpoint, Getenv: env{}.get})
			require.NoError(t, err)
			assert.Equal(t, auth.SigV4, src.Method)
			assert.Equal(t, "iam:"+awsKeyID, src.Principal)
			assert.Equal(t, auth.Status{Method: auth.SigV4, Principal: "iam:" + awsKeyID, Region: awsRegion, CredentialSource: "environment"}, src.Status())

			got, err := whoami(t, endpoint, src)
			require.NoError(t, err)
			assert.Equal(t, "iam", got.Whoami.Method)
			assert.Equal(t, "ci-bot", got.Whoami.Subject)
		})
	}
}

// TestSigV4WrongSecret: the backend's refusal comes back as a 401 with AWS's
// words, and the hint names SigV4 and what to check.
func TestSigV4WrongSecret(t *testing.T) {
	awsEnv(t, "")
	endpoint := iamBackend(t, authn.SigV4Credential{AccessKeyID: awsKeyID, SecretAccessKey: "the-real-secret-is-different"})
	src, err := auth.Resolve(context.Background(), auth.Options{Endpoint: endpoint, Getenv: env{}.get})
	require.NoError(t, err)

	_, err = whoami(t, endpoint, src)
	var ge *graphql.Error
	require.True(t, errors.As(err, &ge), "%v", err)
	assert.Equal(t, http.StatusUnauthorized, ge.StatusCode)
	assert.True(t, ge.HasErrorType("UnauthorizedException"))
	assert.Contains(t, ge.Error(), "The request signature we calculated does not match")
	assert.Contains(t, src.UnauthorizedHint(), "AWS credentials rejected (iam:"+awsKeyID+", from environment, signing for region eu-west-1)")
}

// TestSigV4StaticProvider signs with credentials handed to the SDK through
// Options.AWSConfig, and takes the region from an AppSync endpoint host.
func TestSigV4StaticProvider(t *testing.T) {
	isolateAWS(t)
	var seen string
	rec := headerRecorder(t, &seen)
	src, err := auth.Resolve(context.Background(), auth.Options{
		Endpoint:  "https://abcdefghijklmnopqrstuvwxyz.appsync-api.ap-southeast-2.amazonaws.com/graphql",
		Getenv:    env{}.get,
		Now:       func() time.Time { return t0 },
		AWSConfig: []func(*config.LoadOptions) error{config.WithCredentialsProvider(credentials.NewStaticCredentialsProvider(awsKeyID, awsSecret, ""))},
	})
	require.NoError(t, err)
	assert.Equal(t, "ap-southeast-2", src.Status().Region)

	resp, err := (&http.Client{Transport: src.Transport}).Post(rec, "application/json", nil)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Regexp(t, `^AWS4-HMAC-SHA256 Credential=`+awsKeyID+`/20261130/ap-southeast-2/appsync/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=[0-9a-f]{64}$`, seen)
}

func TestSigV4BrokenStopsStartup(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T)
		want  string
	}{
		{"access key without secret", func(t *testing.T) { t.Setenv("AWS_ACCESS_KEY_ID", awsKeyID) },
			"auth sigv4: AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not"},
		{"profile that does not exist", func(t *testing.T) { t.Setenv("AWS_PROFILE", "nope") },
			"auth sigv4: the AWS configuration cannot be loaded"},
		{"no region", func(t *testing.T) { awsEnv(t, ""); t.Setenv("AWS_REGION", "") },
			`auth sigv4: no region to sign for: the endpoint "http://127.0.0.1:9/graphql" is not <id>.appsync-api.<region>.amazonaws.com; set AWS_REGION`},
		{"web identity token file missing", func(t *testing.T) {
			t.Setenv("AWS_WEB_IDENTITY_TOKEN_FILE", "/nonexistent/token")
			t.Setenv("AWS_ROLE_ARN", "arn:aws:iam::123456789012:role/x")
			t.Setenv("AWS_REGION", awsRegion)
		}, "auth sigv4: AWS credentials are configured (web identity) but cannot be retrieved"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolateAWS(t)
			tt.setup(t)
			_, err := auth.Resolve(context.Background(), auth.Options{Endpoint: "http://127.0.0.1:9/graphql", Getenv: env{"APPSYNC_API_KEY": apiKey}.get})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.NotContains(t, err.Error(), awsSecret)
			assert.NotContains(t, err.Error(), apiKey)
		})
	}
}

// TestSigV4CredentialsRefreshed: the transport asks the cache for
// credentials on every request, so expiring credentials are renewed.
func TestSigV4CredentialsRefreshed(t *testing.T) {
	isolateAWS(t)
	t.Setenv("AWS_REGION", awsRegion)
	calls := 0
	provider := aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
		calls++
		return aws.Credentials{AccessKeyID: awsKeyID, SecretAccessKey: awsSecret, CanExpire: true, Expires: time.Now().Add(time.Second)}, nil
	})
	endpoint := iamBackend(t, authn.SigV4Credential{AccessKeyID: awsKeyID, SecretAccessKey: awsSecret})
	src, err := auth.Resolve(context.Background(), auth.Options{
		Endpoint: endpoint,
		Getenv:   env{}.get,
		AWSConfig: []func(*config.LoadOptions) error{
			config.WithCredentialsProvider(provider),
			config.WithCredentialsCacheOptions(func(o *aws.CredentialsCacheOptions) { o.ExpiryWindow = time.Minute }),
		},
	})
	require.NoError(t, err)
	for range 2 {
		_, err = whoami(t, endpoint, src)
		require.NoError(t, err)
	}
	// Credentials one second from expiry are inside the cache's refresh
	// window, so start-up and each request retrieve anew.
	assert.Equal(t, 3, calls)
}
