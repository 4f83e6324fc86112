package auth_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gql "github.com/Khan/genqlient/graphql"
	"github.com/companyintel/mcp-server/appsynclocal"
	"github.com/companyintel/mcp-server/appsynclocal/authn"
	"github.com/companyintel/mcp-server/appsynclocal/authn/authntest"
	"github.com/companyintel/mcp-server/auth"
	"github.com/companyintel/mcp-server/graphql"
	"github.com/stretchr/testify/require"
)

// Secret values used across the tests; TestNoSecretReachesLogsOrErrors
// searches every captured line and message for them.
const (
	apiKey       = "da2-test-api-key-0123456789"
	clientSecret = "client-secret-0123456789"
	awsKeyID     = "AKIDAUTHTEST0001"
	awsSecret    = "aws/secret+access/key0123456789"
	awsSession   = "aws-session-token-0123456789abcdef"
	awsRegion    = "eu-west-1"
)

// env is a fake environment for Options.Getenv.
type env map[string]string

func (e env) get(k string) string { return e[k] }

// isolateAWS gives the AWS SDK an empty environment: no credentials, no
// shared files, no instance metadata. Tests that call it cannot be parallel
// (the SDK reads the process environment).
func isolateAWS(t *testing.T) {
	t.Helper()
	for _, k := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_ROLE_ARN", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_CONTAINER_CREDENTIALS_FULL_URI"} {
		t.Setenv(k, "")
	}
	dir := t.TempDir()
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(dir, "config"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(dir, "credentials"))
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
}

// awsEnv puts static credentials in the process environment.
func awsEnv(t *testing.T, session string) {
	t.Helper()
	isolateAWS(t)
	t.Setenv("AWS_ACCESS_KEY_ID", awsKeyID)
	t.Setenv("AWS_SECRET_ACCESS_KEY", awsSecret)
	t.Setenv("AWS_SESSION_TOKEN", session)
	t.Setenv("AWS_REGION", awsRegion)
}

// logs captures slog output at debug level, safe for concurrent use.
type logs struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logs) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logs) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func (l *logs) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// clock is a settable time source.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock(t time.Time) *clock { return &clock{t: t} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

// world is an issuer and a backend that trusts it, the way the embedded
// backend is wired, with the token endpoint's requests counted.
type world struct {
	issuer    *authn.Issuer
	issuerURL string
	backend   string // GraphQL endpoint URL
	tokenHits atomic.Int32
	closeIss  func()

	mu      sync.Mutex
	secrets []string // every credential seen on the wire, for leak checks
}

// remember records credentials seen on the wire.
func (w *world) remember(values ...string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, v := range values {
		if v != "" {
			w.secrets = append(w.secrets, v)
		}
	}
}

// seen returns the credentials seen so far.
func (w *world) seen() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.secrets...)
}

// recorder keeps a copy of a response body.
type recorder struct {
	http.ResponseWriter
	body bytes.Buffer
}

func (r *recorder) Write(p []byte) (int, error) {
	r.body.Write(p)
	return r.ResponseWriter.Write(p)
}

// worldOptions tune newWorld.
type worldOptions struct {
	clients  []authn.Client
	tokenTTL time.Duration
	now      func() time.Time
	extra    []appsynclocal.Authenticator // after OIDC
}

func newWorld(t *testing.T, o worldOptions) *world {
	t.Helper()
	w := &world{}
	mux := http.NewServeMux()
	issSrv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/token" {
			mux.ServeHTTP(rw, r)
			return
		}
		w.tokenHits.Add(1)
		rec := &recorder{ResponseWriter: rw}
		mux.ServeHTTP(rec, r)
		var tok struct {
			AccessToken  string `json:"access_token"`
			IDToken      string `json:"id_token"`
			RefreshToken string `json:"refresh_token"`
		}
		_ = json.Unmarshal(rec.body.Bytes(), &tok) // error answers have none
		w.remember(tok.AccessToken, tok.IDToken, tok.RefreshToken)
	}))
	t.Cleanup(issSrv.Close)
	w.closeIss = issSrv.Close
	iss, err := authn.NewIssuer(authn.IssuerConfig{URL: issSrv.URL, Clients: o.clients, TokenTTL: o.tokenTTL, Now: o.now})
	require.NoError(t, err)
	mux.Handle("/", iss.Handler())
	w.issuer, w.issuerURL = iss, issSrv.URL

	auths := append([]appsynclocal.Authenticator{iss.Authenticator()}, o.extra...)
	h := authntest.Handler(auths...)
	be := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		w.remember(r.Header.Get("Authorization"), r.Header.Get("x-api-key"), r.Header.Get("X-Amz-Security-Token"))
		h.ServeHTTP(rw, r)
	}))
	t.Cleanup(be.Close)
	w.backend = be.URL + "/graphql"
	return w
}

// mint signs a token for subject with the given expiry.
func (w *world) mint(t *testing.T, c authn.Claims) string {
	t.Helper()
	tok, err := w.issuer.Sign(c)
	require.NoError(t, err)
	return tok
}

// whoami calls the backend through the project's GraphQL client with the
// source's transport, as the server does.
func whoami(t *testing.T, endpoint string, src *auth.Source) (authntest.Whoami, error) {
	t.Helper()
	c := graphql.NewClient(endpoint, &http.Client{Transport: src.Transport}, 5*time.Second)
	var out authntest.Whoami
	err := c.MakeRequest(context.Background(), &gql.Request{OpName: "Whoami", Query: authntest.WhoamiQuery, Variables: map[string]any{"q": "a b/c"}}, &gql.Response{Data: &out})
	return out, err
}

// tamper changes the subject in a token's payload, keeping the signature.
func tamper(t *testing.T, tok string) string {
	t.Helper()
	parts := strings.Split(tok, ".")
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	require.NoError(t, err)
	changed := strings.Replace(string(payload), `"sub":"alice"`, `"sub":"admin"`, 1)
	require.NotEqual(t, string(payload), changed)
	parts[1] = base64.RawURLEncoding.EncodeToString([]byte(changed))
	return strings.Join(parts, ".")
}

// headerRecorder serves one endpoint that remembers the Authorization header.
func headerRecorder(t *testing.T, seen *string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		*seen = r.Header.Get("Authorization")
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}
