package auth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSigningRegion(t *testing.T) {
	for _, tt := range []struct {
		endpoint, configured, want string
	}{
		{"https://abc123.appsync-api.eu-central-1.amazonaws.com/graphql", "", "eu-central-1"},
		{"https://ABC123.APPSYNC-API.US-EAST-2.AMAZONAWS.COM/graphql", "eu-west-1", "us-east-2"},
		{"https://abc123.appsync-api.cn-north-1.amazonaws.com.cn/graphql", "", "cn-north-1"},
		{"https://api.example.com/graphql", "eu-west-1", "eu-west-1"},
		{"http://127.0.0.1:8080/graphql", "us-west-2", "us-west-2"},
	} {
		got, err := signingRegion(tt.endpoint, tt.configured)
		require.NoError(t, err, tt.endpoint)
		assert.Equal(t, tt.want, got, tt.endpoint)
	}
	_, err := signingRegion("https://api.example.com/graphql", "")
	assert.ErrorContains(t, err, "set AWS_REGION")
}

func TestScrub(t *testing.T) {
	s := newSecrets()
	jwt := "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhbGljZSIsImV4cCI6MX0.c2lnbmF0dXJlLXNpZ25hdHVyZS1zaWduYXR1cmU"
	s.add("short", "a-long-api-key-value", jwt)
	assert.Equal(t, "key [redacted] and short", s.scrub("key a-long-api-key-value and short"))
	assert.Equal(t, "segment [redacted] quoted", s.scrub("segment eyJzdWIiOiJhbGljZSIsImV4cCI6MX0 quoted"))

	err := s.scrubError(errorf(OIDC, "bad %s", jwt))
	var ae *Error
	require.True(t, errors.As(err, &ae))
	assert.Equal(t, "auth oidc: bad [redacted]", err.Error())
	assert.Equal(t, "lib said [redacted]", s.scrubError(errors.New("lib said a-long-api-key-value")).Error())
	assert.ErrorIs(t, s.scrubError(ErrNoCredentials), ErrNoCredentials)
}

// TestScrubListIsBounded: configured secrets are kept for good; tokens that
// rotate in later fill a ring of bounded size, newest kept.
func TestScrubListIsBounded(t *testing.T) {
	s := newSecrets()
	s.add("configured-api-key-value", "configured-client-secret")
	s.pin()
	for i := range 10 * maxRotating {
		s.add(fmt.Sprintf("rotating-token-%06d", i))
		s.add("configured-api-key-value") // known values are not added twice
	}
	assert.Equal(t, 2+maxRotating, s.len())
	assert.Equal(t, "[redacted] [redacted]", s.scrub("configured-api-key-value configured-client-secret"))
	newest := fmt.Sprintf("rotating-token-%06d", 10*maxRotating-1)
	assert.Equal(t, redacted, s.scrub(newest))
}

// TestWithHeaderLeavesTheCallersRequestAsItWas: the credential travels in
// the copy only; the request the caller built keeps its headers, and the
// copy keeps the caller's other headers and context.
func TestWithHeaderLeavesTheCallersRequestAsItWas(t *testing.T) {
	type key struct{}
	ctx := context.WithValue(context.Background(), key{}, "v")
	r, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.example/graphql", nil)
	require.NoError(t, err)
	r.Header.Set("Content-Type", "application/json")

	out := withHeader(r, "x-api-key", "da2-secret")

	assert.Equal(t, "da2-secret", out.Header.Get("X-Api-Key"))
	assert.Equal(t, "application/json", out.Header.Get("Content-Type"))
	assert.Equal(t, "v", out.Context().Value(key{}))
	assert.Empty(t, r.Header.Get("X-Api-Key"), "the caller's request carries no credential")
	assert.Len(t, r.Header, 1)
}
