package e2e

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/appsynclocal"
	"github.com/companyintel/mcp-server/appsynclocal/authn"
	"github.com/companyintel/mcp-server/ratelimit/redistest"
)

// Writes a person confirms (issue 25), driven by real clients: the official
// TypeScript SDK's client on stdio answering elicitation/create, and the
// official Go SDK's client on 2026-07-28 over HTTP across two replicas.
// The server reaches the backend through a recording proxy, so a test sees
// every GraphQL mutation that arrives.

// recordedBackend is the embedded backend started in this process behind a
// proxy that records each GraphQL operation's name, with an OIDC issuer
// whose token the server acts with (collections belong to a user).
type recordedBackend struct {
	URL   string
	token string
	iss   string
	mu    sync.Mutex
	ops   []string
}

func startRecordedBackend(t *testing.T) *recordedBackend {
	t.Helper()
	iss, err := authn.StartIssuer("127.0.0.1:0", authn.IssuerConfig{})
	require.NoError(t, err)
	t.Cleanup(func() { iss.Close() })
	token, err := iss.Mint("e2e-confirmer", time.Hour)
	require.NoError(t, err)
	srv, err := appsynclocal.Start(appsynclocal.Config{DataDir: t.TempDir(), Companies: 300,
		Authenticators: []appsynclocal.Authenticator{iss.Authenticator()}}, "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { srv.Close() })
	target, err := url.Parse(srv.URL())
	require.NoError(t, err)
	rb := &recordedBackend{token: token, iss: iss.URL()}
	proxy := &httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) {
		pr.Out.URL.Scheme, pr.Out.URL.Host, pr.Out.Host = target.Scheme, target.Host, target.Host
	}}
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var req struct {
			OperationName string `json:"operationName"`
		}
		_ = json.Unmarshal(body, &req)
		// Start-up's questions about the schema (which extensions the
		// backend has) change nothing and are not counted.
		if !strings.HasPrefix(req.OperationName, "SchemaExtensions") {
			rb.mu.Lock()
			rb.ops = append(rb.ops, req.OperationName)
			rb.mu.Unlock()
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)
	rb.URL = front.URL + target.Path
	return rb
}

// Mutations returns the GraphQL mutations that reached the backend.
func (rb *recordedBackend) Mutations() []string {
	rb.mu.Lock()
	defer rb.mu.Unlock()
	return slices.DeleteFunc(slices.Clone(rb.ops), func(op string) bool {
		return op != "CreateCollection" && op != "AddToCollection" && op != "RequestEmailDiscovery"
	})
}

// serverArgs point the binary at the recorded backend with writes on.
func (rb *recordedBackend) serverArgs(flags ...string) []string {
	return append([]string{"--endpoint", rb.URL, "--allow-mutations"}, flags...)
}

// env is the server's environment beside childEnv: its OIDC identity.
func (rb *recordedBackend) env() []string {
	return []string{"OIDC_ISSUER=" + rb.iss, "OIDC_AUDIENCE=" + authn.DefaultAudience, "OIDC_TOKEN=" + rb.token}
}

// tsClient returns node and the TypeScript client's script
// (e2e/tsclient). Without them the test is skipped on a developer's
// machine but fails in CI (CI set), where it is required.
func tsClient(t *testing.T) (node, script string) {
	t.Helper()
	dir, err := filepath.Abs("tsclient")
	require.NoError(t, err)
	script = filepath.Join(dir, "confirm.mjs")
	_, sdkErr := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json"))
	node, nodeErr := exec.LookPath("node")
	if sdkErr == nil && nodeErr == nil {
		return node, script
	}
	msg := "the TypeScript MCP SDK client is not installed: run `npm ci --prefix e2e/tsclient` from the repository root (node >= 20 on PATH)"
	if os.Getenv("CI") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return "", ""
}

// tsStep is one tool call of the TypeScript client's plan and what came of it.
type tsStep struct {
	Tool      string         `json:"tool"`
	Arguments map[string]any `json:"arguments,omitempty"`
	Answer    string         `json:"answer,omitempty"`
	Asked     *string        `json:"asked"`
	Result    struct {
		IsError           bool           `json:"isError"`
		StructuredContent map[string]any `json:"structuredContent"`
		Content           []struct {
			Text string `json:"text"`
		} `json:"content"`
	} `json:"result"`
}

// runTSClient runs the plan and returns each step's outcome and the
// server's stderr.
func runTSClient(t *testing.T, rb *recordedBackend, args []string, elicitation bool, steps []tsStep) ([]tsStep, string) {
	t.Helper()
	node, script := tsClient(t)
	env := map[string]string{}
	for _, kv := range append(childEnv(), rb.env()...) {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	plan, err := json.Marshal(map[string]any{"command": serverBin, "args": args, "env": env, "elicitation": elicitation, "steps": steps})
	require.NoError(t, err)
	cmd := exec.CommandContext(testContext(t), node, script, string(plan))
	cmd.Env = childEnv()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "the TypeScript client failed:\n%s", stderr.String())
	var out []tsStep
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &out), stdout.String())
	require.Len(t, out, len(steps))
	return out, stderr.String()
}

func TestTypeScriptClientConfirmsWritesOnStdio(t *testing.T) {
	rb := startRecordedBackend(t)
	out, logs := runTSClient(t, rb, rb.serverArgs("--confirm-writes=required"), true, []tsStep{
		{Tool: "create_collection", Arguments: map[string]any{"name": "TS accepted"}, Answer: "accept"},
		{Tool: "create_collection", Arguments: map[string]any{"name": "TS declined"}, Answer: "decline"},
		{Tool: "request_email_discovery", Arguments: map[string]any{"company_id": "$company", "roles": []string{"CTO"}}, Answer: "cancel"},
	})

	accepted := out[0]
	require.NotNil(t, accepted.Asked, "the user was asked")
	assert.Contains(t, *accepted.Asked, `Create a new, empty collection named "TS accepted".`)
	require.False(t, accepted.Result.IsError, "%+v", accepted.Result)
	assert.Equal(t, true, accepted.Result.StructuredContent["created"])

	declined := out[1]
	require.NotNil(t, declined.Asked)
	assert.True(t, declined.Result.IsError)
	assert.Contains(t, declined.Result.Content[0].Text, "create_collection failed [declined]: the user declined this write")

	cancelled := out[2]
	require.NotNil(t, cancelled.Asked)
	assert.Contains(t, *cancelled.Asked, "Start an email-discovery job at ")
	assert.Contains(t, *cancelled.Asked, "Cost: one of your 10 per hour calls; 10 left now.")
	assert.Contains(t, cancelled.Result.Content[0].Text, "request_email_discovery failed [declined]: the user dismissed the confirmation")

	assert.Equal(t, []string{"CreateCollection"}, rb.Mutations(), "accept wrote once; decline and cancel wrote nothing")
	assert.Regexp(t, `tool=create_collection .*outcome=ok .*confirmed=user preview_sha256=[0-9a-f]{64}`, logs)
	assert.Regexp(t, `tool=create_collection .*outcome=declined .*confirmed=declined answer=decline`, logs)
	assert.Regexp(t, `tool=request_email_discovery .*outcome=declined .*confirmed=declined answer=cancel`, logs)
}

func TestTypeScriptClientWithoutElicitation(t *testing.T) {
	t.Run("required refuses before any backend call", func(t *testing.T) {
		rb := startRecordedBackend(t)
		out, _ := runTSClient(t, rb, rb.serverArgs("--confirm-writes=required"), false, []tsStep{
			{Tool: "create_collection", Arguments: map[string]any{"name": "TS unasked"}},
		})
		assert.Nil(t, out[0].Asked)
		assert.True(t, out[0].Result.IsError)
		assert.Contains(t, out[0].Result.Content[0].Text, "create_collection failed [confirmation_required]: this server writes only what a person confirms")
		rb.mu.Lock()
		defer rb.mu.Unlock()
		assert.Empty(t, rb.ops, "no backend call at all")
	})
	t.Run("ask writes and records not asked", func(t *testing.T) {
		rb := startRecordedBackend(t)
		out, logs := runTSClient(t, rb, rb.serverArgs("--confirm-writes=ask"), false, []tsStep{
			{Tool: "create_collection", Arguments: map[string]any{"name": "TS unasked"}},
		})
		assert.False(t, out[0].Result.IsError)
		assert.Equal(t, []string{"CreateCollection"}, rb.Mutations())
		assert.Regexp(t, `tool=create_collection .*outcome=ok .*confirmed="not asked"`, logs)
	})
}

// alternating sends each request to the next of several replicas in turn,
// as a load balancer may: a 2026-07-28 call and its retry never reach the
// same one.
type alternating struct {
	mu       sync.Mutex
	replicas []*url.URL
	next     int
}

func (a *alternating) RoundTrip(r *http.Request) (*http.Response, error) {
	a.mu.Lock()
	to := a.replicas[a.next%len(a.replicas)]
	a.next++
	a.mu.Unlock()
	r = r.Clone(r.Context())
	r.URL.Scheme, r.URL.Host, r.Host = to.Scheme, to.Host, to.Host
	return http.DefaultTransport.RoundTrip(r)
}

// TestGoSDKClientConfirmsAcrossReplicas drives two replicas (one key, one
// Redis) with the official Go MCP SDK's client on 2026-07-28: the SDK gets
// the InputRequiredResult, asks its elicitation handler, and retries with
// the answer and the sealed requestState, and the load balancer sends the
// retry to the other replica.
func TestGoSDKClientConfirmsAcrossReplicas(t *testing.T) {
	ctx := testContext(t)
	rb := startRecordedBackend(t)
	redis := redistest.Start(t)
	env := append(rb.env(), "CONFIRM_STATE_KEY="+base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, 32)))
	args := rb.serverArgs("--confirm-writes=required", "--redis-url", redis.URL())
	baseA, logsA, _ := startHTTPProcessArgs(t, env, args...)
	baseB, logsB, _ := startHTTPProcessArgs(t, env, args...)
	ua, _ := url.Parse(baseA)
	ub, _ := url.Parse(baseB)

	var answer sdk.ElicitResult
	var asked []string
	c := sdk.NewClient(&sdk.Implementation{Name: "e2e-go-sdk", Version: "1.0.0"}, &sdk.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			asked = append(asked, req.Params.Message)
			return &answer, nil
		},
	})
	session, err := c.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: baseA + "/mcp",
		HTTPClient: &http.Client{Transport: &alternating{replicas: []*url.URL{ua, ub}}}}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = session.Close() })
	require.Equal(t, "2026-07-28", session.InitializeResult().ProtocolVersion, "the SDK speaks 2026-07-28 to the server")

	answer = sdk.ElicitResult{Action: "accept"}
	res, err := session.CallTool(ctx, &sdk.CallToolParams{Name: "create_collection", Arguments: map[string]any{"name": "Go SDK accepted"}})
	require.NoError(t, err)
	require.False(t, res.IsError, "%+v", res.Content)
	require.Len(t, asked, 1, "the person was asked once")
	assert.Contains(t, asked[0], `Create a new, empty collection named "Go SDK accepted".`)
	assert.Equal(t, true, res.StructuredContent.(map[string]any)["created"])
	assert.Equal(t, []string{"CreateCollection"}, rb.Mutations())

	answer = sdk.ElicitResult{Action: "decline"}
	res, err = session.CallTool(ctx, &sdk.CallToolParams{Name: "create_collection", Arguments: map[string]any{"name": "Go SDK declined"}})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Contains(t, res.Content[0].(*sdk.TextContent).Text, "create_collection failed [declined]")
	assert.Equal(t, []string{"CreateCollection"}, rb.Mutations(), "declined: no mutation reached the backend")

	// Each call was asked on one replica and finished on the other: the
	// question's record and the answer's carry the same preview hash. The
	// asks were logged before the retries began; an answer's record may
	// still be on its way through the copying goroutine when its reply has
	// arrived, so each is waited for on the replica that finished it.
	both := logsA.String() + logsB.String()
	asks := regexp.MustCompile(`outcome=input_required .*preview_sha256=([0-9a-f]{64})`).FindAllStringSubmatch(both, -1)
	require.Len(t, asks, 2, both)
	for _, ask := range asks {
		hash := ask[1]
		askedOnA := strings.Contains(logsA.String(), "confirmed=asked preview_sha256="+hash)
		finished := logsB
		if !askedOnA {
			finished = logsA
		}
		answered := regexp.MustCompile(`confirmed=(user|declined).* preview_sha256=` + hash)
		waitFor(t, ctx, finished, "the answer to "+hash+" on the other replica", func() bool { return answered.MatchString(finished.String()) })
	}
	both = logsA.String() + logsB.String()
	assert.Regexp(t, `tool=create_collection .*outcome=ok .*confirmed=user preview_sha256=[0-9a-f]{64}`, both)
	assert.Regexp(t, `tool=create_collection .*outcome=declined .*confirmed=declined answer=decline`, both)
}
