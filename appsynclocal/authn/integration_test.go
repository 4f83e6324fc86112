package authn_test

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/companyintel/mcp-server/appsynclocal"
	"github.com/companyintel/mcp-server/appsynclocal/authn"
	"github.com/companyintel/mcp-server/auth"
	"github.com/companyintel/mcp-server/graphql"
	"github.com/companyintel/mcp-server/graphql/mutation"
	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// These tests run the real embedded backend (appsynclocal.Start) with this
// package's authenticators and call it with the project's generated client
// over the transport package auth resolves: every layer the server uses,
// over real HTTP.

const integrationKey = "da2-integrationkeyintegration"

// stack is an issuer on its own listener and a backend that trusts it, one
// local IAM identity and an API key.
type stack struct {
	clk     *clock
	iss     *authn.IssuerServer
	backend string
}

func newStack(t *testing.T) *stack {
	t.Helper()
	s := &stack{clk: newClock()}
	var err error
	s.iss, err = authn.StartIssuer("127.0.0.1:0", authn.IssuerConfig{Now: s.clk.Now})
	require.NoError(t, err)
	t.Cleanup(func() { s.iss.Close() })
	sigv4, err := authn.NewSigV4Authenticator(authn.SigV4Config{
		Region:      testRegion,
		Credentials: []authn.SigV4Credential{{AccessKeyID: testKeyID, SecretAccessKey: testSecret, User: "ci-bot"}},
		Now:         s.clk.Now,
	})
	require.NoError(t, err)
	srv, err := appsynclocal.Start(appsynclocal.Config{
		DataDir:        filepath.Join(t.TempDir(), "data"),
		Companies:      200,
		APIKey:         integrationKey,
		Authenticators: []appsynclocal.Authenticator{s.iss.Authenticator(), sigv4},
	}, "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { srv.Close() })
	s.backend = srv.URL()
	return s
}

// session is what the server builds from resolved credentials.
type session struct {
	src *auth.Source
	r   query.Reader
	w   mutation.Writer
}

func (s *stack) connect(t *testing.T, vars map[string]string) session {
	t.Helper()
	src, err := auth.Resolve(context.Background(), auth.Options{
		Endpoint: s.backend,
		Getenv:   func(k string) string { return vars[k] },
		Now:      s.clk.Now,
	})
	require.NoError(t, err)
	return s.sessionOver(src.Transport, src)
}

func (s *stack) sessionOver(rt http.RoundTripper, src *auth.Source) session {
	c := graphql.NewClient(s.backend, &http.Client{Transport: rt}, 10*time.Second)
	return session{src: src, r: query.NewReader(c), w: mutation.NewWriter(c)}
}

// asUser connects with a token minted for user.
func (s *stack) asUser(t *testing.T, user string) session {
	t.Helper()
	tok, err := s.iss.Mint(user, time.Hour)
	require.NoError(t, err)
	return s.connect(t, map[string]string{"OIDC_ISSUER": s.iss.URL(), "OIDC_AUDIENCE": s.iss.Audience(), "OIDC_TOKEN": tok})
}

// TestEmbeddedOIDCUsersAreSeparate: each OIDC user sees only their own
// collections, because the backend scopes them by the verified subject.
func TestEmbeddedOIDCUsersAreSeparate(t *testing.T) {
	s := newStack(t)
	ctx := context.Background()
	alice, bob := s.asUser(t, "alice"), s.asUser(t, "bob")

	made, err := alice.w.CreateCollection(ctx, "alice's shortlist", nil)
	require.NoError(t, err)
	require.True(t, made.Created)

	mine, err := alice.r.ListCollections(ctx, nil, nil)
	require.NoError(t, err)
	assert.Equal(t, 1, mine.Total)
	theirs, err := bob.r.ListCollections(ctx, nil, nil)
	require.NoError(t, err)
	assert.Equal(t, 0, theirs.Total, "bob must not see alice's collection")
	_, err = bob.r.GetCollectionItems(ctx, made.Collection.Id, nil, nil)
	assert.Error(t, err, "nor read its items")
}

// TestEmbeddedRejectsBadTokens sends tokens the client would refuse to send
// (it verifies before use) straight to the backend, which must refuse them
// with a 401 UnauthorizedException in AppSync's words.
func TestEmbeddedRejectsBadTokens(t *testing.T) {
	s := newStack(t)
	now := s.clk.Now()
	sign := func(c authn.Claims) string {
		tok, err := s.iss.Sign(c)
		require.NoError(t, err)
		return tok
	}
	other, err := authn.NewIssuer(authn.IssuerConfig{URL: s.iss.URL(), Now: s.clk.Now})
	require.NoError(t, err)
	forged, err := other.Mint("alice", time.Hour)
	require.NoError(t, err)

	for _, tt := range []struct{ name, token, want string }{
		{"expired", sign(authn.Claims{Subject: "alice", IssuedAt: now.Add(-2 * time.Hour), Expiry: now.Add(-time.Hour)}), "Token has expired."},
		{"wrong audience", sign(authn.Claims{Subject: "alice", Audience: "other-app"}), `Token audience ["other-app"] does not match`},
		{"wrong issuer", sign(authn.Claims{Subject: "alice", Issuer: "https://login.example.com"}), `Token issuer "https://login.example.com" is not trusted`},
		{"tampered", tamper(t, sign(authn.Claims{Subject: "alice"}), "alice", "admin"), "Token signature is invalid."},
		{"another issuer's key", forged, "Token signature is invalid."},
		{"Bearer prefix", "Bearer " + sign(authn.Claims{Subject: "alice"}), "Unable to parse JWT token."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sess := s.sessionOver(headerTransport{"Authorization", tt.token}, nil)
			_, err := sess.r.ListCollections(context.Background(), nil, nil)
			assertUnauthorized(t, err, tt.want)
		})
	}
}

// TestEmbeddedTokenExpiresAfterStartup: a token that expires while the
// server runs is no longer sent, and the error and the hint say what
// happened.
func TestEmbeddedTokenExpiresAfterStartup(t *testing.T) {
	s := newStack(t)
	alice := s.asUser(t, "alice")
	_, err := alice.r.ListCollections(context.Background(), nil, nil)
	require.NoError(t, err)

	s.clk.Add(2 * time.Hour)
	_, err = alice.r.ListCollections(context.Background(), nil, nil)
	var ae *auth.Error
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, "auth oidc: the OIDC token expired at 2026-11-30T03:00:00Z, so it was not sent", ae.Error())
	var ge *graphql.Error
	require.ErrorAs(t, err, &ge)
	assert.Zero(t, ge.StatusCode, "no request reached the backend")
	assert.Contains(t, alice.src.UnauthorizedHint(), "OIDC token expired at 2026-11-30T03:00:00Z; set OIDC_TOKEN to a fresh token")
}

func TestEmbeddedSigV4(t *testing.T) {
	s := newStack(t)
	ctx := context.Background()
	for _, tt := range []struct {
		name, secret, want string
	}{
		{"right secret", testSecret, ""},
		{"wrong secret", "not-" + testSecret, "The request signature we calculated does not match"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			isolateAWS(t)
			t.Setenv("AWS_ACCESS_KEY_ID", testKeyID)
			t.Setenv("AWS_SECRET_ACCESS_KEY", tt.secret)
			t.Setenv("AWS_REGION", testRegion)
			iam := s.connect(t, nil)
			require.Equal(t, auth.SigV4, iam.src.Method)
			_, err := iam.w.CreateCollection(ctx, "ci picks", nil)
			if tt.want != "" {
				assertUnauthorized(t, err, tt.want)
				assert.Contains(t, iam.src.UnauthorizedHint(), "AWS credentials rejected")
				return
			}
			require.NoError(t, err)
			page, err := iam.r.ListCollections(ctx, nil, nil)
			require.NoError(t, err)
			assert.Equal(t, 1, page.Total)
		})
	}
}

// TestEmbeddedAPIKey: the key reads companies; a wrong key is refused.
func TestEmbeddedAPIKey(t *testing.T) {
	s := newStack(t)
	isolateAWS(t)
	key := s.connect(t, map[string]string{"APPSYNC_API_KEY": integrationKey})
	require.Equal(t, auth.APIKey, key.src.Method)
	limit := 1
	page, err := key.r.SearchCompanies(context.Background(), nil, nil, query.Bounds{}, &limit, nil)
	require.NoError(t, err)
	assert.Positive(t, page.Total)

	wrong := s.connect(t, map[string]string{"APPSYNC_API_KEY": "da2-wrongwrongwrongwrongwrong"})
	_, err = wrong.r.SearchCompanies(context.Background(), nil, nil, query.Bounds{}, &limit, nil)
	assertUnauthorized(t, err, "You are not authorized to make this call.")
	assert.Contains(t, wrong.src.UnauthorizedHint(), "API key rejected")
}

func assertUnauthorized(t *testing.T, err error, want string) {
	t.Helper()
	var ge *graphql.Error
	require.True(t, errors.As(err, &ge), "%v", err)
	assert.Equal(t, http.StatusUnauthorized, ge.StatusCode)
	assert.True(t, ge.HasErrorType("UnauthorizedException"), ge.Error())
	assert.Contains(t, ge.Error(), want)
}

// headerTransport sets one header, standing in for a client that sends
// whatever it was given.
type headerTransport struct{ name, value string }

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(h.name, h.value)
	return http.DefaultTransport.RoundTrip(r)
}

// isolateAWS gives the AWS SDK an empty environment.
func isolateAWS(t *testing.T) {
	t.Helper()
	for _, k := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_ROLE_ARN", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_CONTAINER_CREDENTIALS_FULL_URI"} {
		t.Setenv(k, "")
	}
	dir := t.TempDir()
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(dir, "config"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(dir, "credentials"))
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
}
