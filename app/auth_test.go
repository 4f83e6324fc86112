package app

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/appsynclocal"
	"github.com/companyintel/mcp-server/appsynclocal/authn"
)

// These tests run the whole server (app.Run, over stdio pipes) against the
// embedded backend with each auth method, and prove the rules: the
// method that wins is the one logged; per-user data stays per user; a
// refused credential is an unauthorized answer naming the fix; a broken
// configured method stops start-up instead of falling back; and no secret
// reaches a log.

// authStack is a backend that trusts an issuer, one IAM key and its API key.
type authStack struct {
	srv *appsynclocal.Server
	iss *authn.IssuerServer
	clk *fakeClock
}

const (
	iamKeyID  = "AKIDAPPTEST"
	iamSecret = "app-test-iam-secret-9f8e7d"
)

type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) Add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

func newAuthStack(t *testing.T) *authStack {
	t.Helper()
	clk := &fakeClock{t: time.Now()}
	iss, err := authn.StartIssuer("127.0.0.1:0", authn.IssuerConfig{Now: clk.Now})
	require.NoError(t, err)
	t.Cleanup(func() { iss.Close() })
	sig, err := authn.NewSigV4Authenticator(authn.SigV4Config{Region: "eu-west-1",
		Credentials: []authn.SigV4Credential{{AccessKeyID: iamKeyID, SecretAccessKey: iamSecret, User: "ci-role"}}})
	require.NoError(t, err)
	srv, err := appsynclocal.Start(appsynclocal.Config{
		DataDir:        t.TempDir(),
		Companies:      300,
		Authenticators: []appsynclocal.Authenticator{iss.Authenticator(), sig},
	}, "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { srv.Close() })
	return &authStack{srv: srv, iss: iss, clk: clk}
}

func (s *authStack) mint(t *testing.T, user string) string {
	t.Helper()
	tok, err := s.iss.Mint(user, time.Hour)
	require.NoError(t, err)
	return tok
}

// running is a server started by app.Run, spoken to over pipes.
type running struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *bufio.Scanner
	logs *syncBuffer
	done chan error
	id   int
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
	// up is closed once the start-up line has been written, so that a test
	// waits for it on a channel rather than polling the buffer.
	up     chan struct{}
	upDone bool
}

// startUpLine is what the server logs once it is ready to serve.
const startUpLine = "starting mcp-server"

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n, err := b.b.Write(p)
	if !b.upDone && bytes.Contains(b.b.Bytes(), []byte(startUpLine)) {
		b.upDone = true
		close(b.upChan())
	}
	return n, err
}

// started is closed once the start-up line is in the buffer.
func (b *syncBuffer) started() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.upChan()
}

// upChan makes up on first use; b.mu must be held.
func (b *syncBuffer) upChan() chan struct{} {
	if b.up == nil {
		b.up = make(chan struct{})
	}
	return b.up
}
func (b *syncBuffer) String() string { b.mu.Lock(); defer b.mu.Unlock(); return b.b.String() }

// start runs the server with env as its whole environment. It returns the
// error Run returned if start-up failed.
func start(t *testing.T, s *authStack, env map[string]string, args ...string) (*running, error) {
	t.Helper()
	return startAt(t, s.srv.URL(), env, args...)
}

// startAt is start with the server pointed at endpoint.
func startAt(t *testing.T, endpoint string, env map[string]string, args ...string) (*running, error) {
	t.Helper()
	r := launch(t, append([]string{"--endpoint", endpoint, "--allow-mutations"}, args...), env)
	// Start-up either fails (Run returns) or logs its line.
	select {
	case <-r.logs.started():
	case err := <-r.done:
		return nil, err
	case <-time.After(10 * time.Second):
		t.Fatalf("no start-up line: %s", r.logs.String())
	}
	r.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`)
	r.read()
	return r, nil
}

// launch runs app.Run with args and env as its whole environment, over
// pipes, and returns at once.
func launch(t *testing.T, args []string, env map[string]string) *running {
	t.Helper()
	cfg, err := ParseConfig(args, func(k string) string { return env[k] }, io.Discard)
	require.NoError(t, err)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	r := &running{t: t, in: inW, out: bufio.NewScanner(outR), logs: &syncBuffer{}, done: make(chan error, 1)}
	r.out.Buffer(make([]byte, 1<<20), 1<<22)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		r.done <- Run(ctx, cfg, Stdio{In: inR, Out: outW, Err: r.logs}, func(k string) string { return env[k] })
		outW.Close()
	}()
	t.Cleanup(func() { cancel(); inW.Close() })
	return r
}

func (r *running) send(line string) {
	r.t.Helper()
	_, err := io.WriteString(r.in, line+"\n")
	require.NoError(r.t, err)
}

func (r *running) read() map[string]any {
	r.t.Helper()
	require.True(r.t, r.out.Scan(), "no answer: %v", r.out.Err())
	var m map[string]any
	require.NoError(r.t, json.Unmarshal(r.out.Bytes(), &m))
	return m
}

// call runs one tool and returns its structuredContent and isError; for a
// failure, its _meta error details as "error".
func (r *running) call(tool, args string) (map[string]any, bool) {
	r.t.Helper()
	r.id++
	r.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, r.id, tool, args))
	res := r.read()["result"].(map[string]any)
	isErr, _ := res["isError"].(bool)
	if isErr {
		return map[string]any{"error": errorMeta(res)}, true
	}
	return res["structuredContent"].(map[string]any), isErr
}

func (r *running) authLine() string {
	for _, l := range strings.Split(r.logs.String(), "\n") {
		if strings.Contains(l, "starting mcp-server") {
			return l
		}
	}
	return ""
}

func TestOIDCUsersSeeOnlyTheirOwnCollections(t *testing.T) {
	s := newAuthStack(t)
	alice, err := start(t, s, map[string]string{"OIDC_ISSUER": s.iss.URL(), "OIDC_AUDIENCE": authn.DefaultAudience, "OIDC_TOKEN": s.mint(t, "alice")})
	require.NoError(t, err)
	assert.Contains(t, alice.authLine(), "auth=oidc")
	made, isErr := alice.call("create_collection", `{"name":"Alice's list"}`)
	require.False(t, isErr, "%v", made)
	colID := made["collection"].(map[string]any)["id"].(string)

	bob, err := start(t, s, map[string]string{"OIDC_ISSUER": s.iss.URL(), "OIDC_AUDIENCE": authn.DefaultAudience, "OIDC_TOKEN": s.mint(t, "bob")})
	require.NoError(t, err)
	got, isErr := bob.call("list_collections", `{}`)
	require.False(t, isErr)
	assert.EqualValues(t, 0, got["total"], "bob sees none of alice's collections")
	got, isErr = bob.call("get_collection_items", fmt.Sprintf(`{"collection_id":%q}`, colID))
	require.True(t, isErr)
	assert.Equal(t, "not_found", got["error"].(map[string]any)["code"])
}

func TestBrokenOIDCStopsStartUpWithoutFallingBack(t *testing.T) {
	s := newAuthStack(t)
	now := s.clk.Now()
	sign := func(c authn.Claims) string {
		tok, err := s.iss.Sign(c)
		require.NoError(t, err)
		return tok
	}
	valid := s.mint(t, "alice")
	parts := strings.Split(valid, ".")
	payload, _ := base64.RawURLEncoding.DecodeString(parts[1])
	parts[1] = base64.RawURLEncoding.EncodeToString(bytes.Replace(payload, []byte("alice"), []byte("admin"), 1))
	tampered := strings.Join(parts, ".")

	tests := []struct{ name, token string }{
		{"expired", sign(authn.Claims{Subject: "alice", IssuedAt: now.Add(-2 * time.Hour), Expiry: now.Add(-time.Hour)})},
		{"wrong audience", sign(authn.Claims{Subject: "alice", Audience: "another-app"})},
		{"wrong issuer", sign(authn.Claims{Subject: "alice", Issuer: "https://login.example.com"})},
		{"tampered", tampered},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := map[string]string{
				"OIDC_ISSUER": s.iss.URL(), "OIDC_AUDIENCE": authn.DefaultAudience, "OIDC_TOKEN": tt.token,
				"APPSYNC_API_KEY": s.srv.Backend().APIKey(), // a weaker identity that must not be used
			}
			_, err := start(t, s, env)
			require.Error(t, err, "start-up must stop")
			assert.Contains(t, err.Error(), "oidc")
			assert.NotContains(t, err.Error(), tt.token)
		})
	}
}

func TestTokenExpiredAfterStartUpIsUnauthorized(t *testing.T) {
	s := newAuthStack(t)
	r, err := start(t, s, map[string]string{"OIDC_ISSUER": s.iss.URL(), "OIDC_AUDIENCE": authn.DefaultAudience, "OIDC_TOKEN": s.mint(t, "alice")})
	require.NoError(t, err)
	_, isErr := r.call("list_collections", `{}`)
	require.False(t, isErr)

	s.clk.Add(2 * time.Hour) // the backend's clock: the token has now expired there
	got, isErr := r.call("list_collections", `{}`)
	require.True(t, isErr)
	e := got["error"].(map[string]any)
	assert.Equal(t, "unauthorized", e["code"])
	assert.Contains(t, e["message"], "Token has expired.", "the backend's own words")
	assert.Contains(t, e["message"], "OIDC", "names the method to fix")
}

func TestAPIKeyReadsAndExplainsCollections(t *testing.T) {
	s := newAuthStack(t)
	r, err := start(t, s, map[string]string{"APPSYNC_API_KEY": s.srv.Backend().APIKey()})
	require.NoError(t, err)
	assert.Contains(t, r.authLine(), "auth=apikey")
	_, isErr := r.call("search_companies", `{"query":"software","limit":2}`)
	require.False(t, isErr)
	got, isErr := r.call("list_collections", `{}`)
	require.True(t, isErr)
	e := got["error"].(map[string]any)
	assert.Equal(t, "unauthorized", e["code"])
	assert.Contains(t, e["message"], "OIDC or IAM")

	wrong, err := start(t, s, map[string]string{"APPSYNC_API_KEY": "da2-wrongwrongwrong"})
	require.NoError(t, err, "an API key cannot be checked before use")
	got, isErr = wrong.call("search_companies", `{"query":"software"}`)
	require.True(t, isErr)
	e = got["error"].(map[string]any)
	assert.Equal(t, "unauthorized", e["code"])
	assert.Contains(t, e["message"], "API key rejected")
	assert.NotContains(t, wrong.logs.String(), "da2-wrongwrongwrong")
}

// The AWS SDK reads the process environment itself, so these set it.
func TestSigV4(t *testing.T) {
	s := newAuthStack(t)
	t.Setenv("AWS_REGION", "eu-west-1")
	t.Setenv("AWS_ACCESS_KEY_ID", iamKeyID)
	t.Setenv("AWS_SECRET_ACCESS_KEY", iamSecret)
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	t.Setenv("AWS_CONFIG_FILE", "/nonexistent")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent")
	r, err := start(t, s, map[string]string{})
	require.NoError(t, err)
	assert.Contains(t, r.authLine(), "auth=sigv4")
	made, isErr := r.call("create_collection", `{"name":"IAM list"}`)
	require.False(t, isErr, "%v", made)

	t.Setenv("AWS_SECRET_ACCESS_KEY", "not-the-secret")
	wrong, err := start(t, s, map[string]string{})
	require.NoError(t, err)
	got, isErr := wrong.call("search_companies", `{"query":"software"}`)
	require.True(t, isErr)
	assert.Equal(t, "unauthorized", got["error"].(map[string]any)["code"])
	assert.Contains(t, got["error"].(map[string]any)["message"], "AWS")
	for _, secret := range []string{iamSecret, "not-the-secret"} {
		assert.NotContains(t, r.logs.String()+wrong.logs.String(), secret)
	}
}

func TestChainPrefersOIDCOverAnAPIKey(t *testing.T) {
	s := newAuthStack(t)
	env := map[string]string{"OIDC_ISSUER": s.iss.URL(), "OIDC_AUDIENCE": authn.DefaultAudience, "OIDC_TOKEN": s.mint(t, "alice"),
		"APPSYNC_API_KEY": s.srv.Backend().APIKey()}
	r, err := start(t, s, env, "--log-level", "debug") // debug: the most the log ever says
	require.NoError(t, err)
	assert.Contains(t, r.authLine(), "auth=oidc")
	_, isErr := r.call("search_companies", `{"query":"software"}`)
	require.False(t, isErr)
	forced, err := start(t, s, env, "--auth", "apikey", "--log-level", "debug")
	require.NoError(t, err)
	assert.Contains(t, forced.authLine(), "auth=apikey")
	for _, secret := range []string{env["OIDC_TOKEN"], env["APPSYNC_API_KEY"]} {
		assert.NotContains(t, r.logs.String()+forced.logs.String(), secret, "a secret reached the log")
	}
}
