package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/appsynclocal"
	"github.com/companyintel/mcp-server/appsynclocal/authn"
	"github.com/companyintel/mcp-server/tools"
)

// These tests run the whole server (app.Run with --http) over real HTTP, in
// front of the embedded backend reached through a recording proxy, and
// speak to it with mcp-go's own Streamable HTTP client or with raw requests.

// recorder is a reverse proxy to the backend that notes the operation name
// and Authorization header of every request it forwards.
type recorder struct {
	URL  string
	mu   sync.Mutex
	ops  []string
	auth []string
	// arrived receives each operation's name as its request reaches the
	// recorder, so a test can wait for one instead of polling Ops; a name
	// that finds the buffer full is dropped (Ops still has it).
	arrived chan string
}

func newRecorder(t *testing.T, backend string) *recorder {
	t.Helper()
	target, err := url.Parse(backend)
	require.NoError(t, err)
	rec := &recorder{arrived: make(chan string, 64)}
	proxy := &httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) {
		pr.Out.URL.Scheme, pr.Out.URL.Host, pr.Out.Host = target.Scheme, target.Host, target.Host
	}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var req struct {
			OperationName string `json:"operationName"`
		}
		_ = json.Unmarshal(body, &req)
		rec.mu.Lock()
		rec.ops = append(rec.ops, req.OperationName)
		rec.auth = append(rec.auth, r.Header.Get("Authorization"))
		rec.mu.Unlock()
		select {
		case rec.arrived <- req.OperationName:
		default:
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	rec.URL = srv.URL + target.Path
	return rec
}

// Ops returns the operations forwarded so far, leaving out readiness pings
// and start-up's questions about the schema (extensions.go), which change
// nothing.
func (r *recorder) Ops() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.DeleteFunc(slices.Clone(r.ops), func(op string) bool { return op == "Ping" || strings.HasPrefix(op, "SchemaExtensions") })
}

// Auth returns every Authorization header forwarded so far.
func (r *recorder) Auth() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.auth)
}

// httpServer is a server started by app.Run in HTTP mode.
type httpServer struct {
	base    string // http://addr
	logs    *syncBuffer
	stopped chan struct{} // closed when Run returns
	err     error         // what Run returned, once stopped
	stop    context.CancelFunc
}

var addrField = regexp.MustCompile(`starting mcp-server.* addr=(\S+)`)

// startHTTP runs the server with args on a free loopback port; it returns
// the error Run returned if start-up failed.
func startHTTP(t *testing.T, env map[string]string, args ...string) (*httpServer, error) {
	t.Helper()
	cfg, err := ParseConfig(append([]string{"--http", "127.0.0.1:0"}, args...), func(k string) string { return env[k] }, io.Discard)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	h := &httpServer{logs: &syncBuffer{}, stopped: make(chan struct{}), stop: cancel}
	go func() {
		h.err = Run(ctx, cfg, Stdio{Err: h.logs}, func(k string) string { return env[k] })
		close(h.stopped)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-h.stopped:
		case <-time.After(15 * time.Second):
			t.Errorf("server did not stop")
		}
	})
	select {
	case <-h.logs.started(): // slog writes the whole line in one Write
	case <-h.stopped:
		return nil, h.err
	case <-time.After(10 * time.Second):
		t.Fatalf("no start-up line: %s", h.logs.String())
	}
	m := addrField.FindStringSubmatch(h.logs.String())
	require.NotNil(t, m, "no addr on the start-up line: %s", h.logs.String())
	h.base = "http://" + m[1]
	return h, nil
}

// serviceEnv gives the server its own OIDC identity at the auth stack.
func serviceEnv(t *testing.T, s *authStack, user string) map[string]string {
	return map[string]string{"OIDC_ISSUER": s.iss.URL(), "OIDC_AUDIENCE": authn.DefaultAudience, "OIDC_TOKEN": s.mint(t, user)}
}

// revisions are the protocol revisions served over HTTP.
var revisions = []string{"2025-11-25", "2026-07-28"}

// connect opens an mcp-go Streamable HTTP client speaking rev.
func connectMCP(t *testing.T, endpoint, rev string, headers map[string]string) *client.Client {
	t.Helper()
	c, err := client.NewStreamableHttpClient(endpoint, transport.WithHTTPHeaders(headers))
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, c.Start(ctx))
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = rev
	init.Params.ClientInfo = mcp.Implementation{Name: "http-test", Version: "1"}
	res, err := c.Initialize(ctx, init)
	require.NoError(t, err)
	require.Equal(t, rev, res.ProtocolVersion)
	return c
}

// callTool runs a tool and returns its structured content and isError; for
// a failure, its _meta error details as "error".
func callTool(t *testing.T, c *client.Client, tool string, args map[string]any) (map[string]any, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	res, err := c.CallTool(ctx, req)
	require.NoError(t, err)
	if res.IsError {
		require.Nil(t, res.StructuredContent, "a failed result carries structuredContent")
		require.NotNil(t, res.Meta, "a failed result has no _meta")
		return map[string]any{"error": obj(res.Meta.AdditionalFields[tools.ErrorMetaKey])}, true
	}
	sc, _ := res.StructuredContent.(map[string]any)
	return sc, res.IsError
}

// post sends one raw JSON-RPC message to /mcp.
func post(t *testing.T, base, body string, hdr map[string]string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		if strings.EqualFold(k, "Host") {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func readBody(t *testing.T, resp *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return string(b)
}

// modernCall is a 2026-07-28 tools/call as one raw message.
func modernCall(tool, args string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":%s,"name":%q,"arguments":%s}}`, modernMeta, tool, args)
}

// modernHeaders are the headers 2026-07-28 requires beside the body's _meta.
func modernHeaders(method, name string, extra ...string) map[string]string {
	h := map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method}
	if name != "" {
		h["Mcp-Name"] = name
	}
	for i := 0; i+1 < len(extra); i += 2 {
		h[extra[i]] = extra[i+1]
	}
	return h
}

func TestHTTPLocalModeServesBothRevisions(t *testing.T) {
	s := newAuthStack(t)
	rec := newRecorder(t, s.srv.URL())
	srv, err := startHTTP(t, serviceEnv(t, s, "dora"), "--endpoint", rec.URL)
	require.NoError(t, err)
	assert.Contains(t, srv.logs.String(), "transport=http auth=oidc mutations=false tools=10")
	assert.Contains(t, srv.logs.String(), "mode=local")
	for _, rev := range revisions {
		t.Run(rev, func(t *testing.T) {
			c := connectMCP(t, srv.base+"/mcp", rev, nil)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			list, err := c.ListTools(ctx, mcp.ListToolsRequest{})
			require.NoError(t, err)
			assert.Len(t, list.Tools, 10)
			got, isErr := callTool(t, c, "search_companies", map[string]any{"query": "software", "limit": 2})
			require.False(t, isErr, "%v", got)
			assert.NotEmpty(t, got["companies"])
			got, isErr = callTool(t, c, "list_collections", map[string]any{})
			require.False(t, isErr, "the local user is the server's own identity: %v", got)
		})
	}
}

func TestHTTPIsStatelessAcrossRequests(t *testing.T) {
	s := newAuthStack(t)
	srv, err := startHTTP(t, serviceEnv(t, s, "dora"), "--endpoint", s.srv.URL())
	require.NoError(t, err)
	resp := post(t, srv.base, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, readBody(t, resp))
	assert.Empty(t, resp.Header.Get("Mcp-Session-Id"), "no session id is minted")
	// A request without any session id, as another replica would see it.
	resp = post(t, srv.base, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, map[string]string{"MCP-Protocol-Version": "2025-11-25"})
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, readBody(t, resp), `"get_company"`)
	req, err := http.NewRequest(http.MethodGet, srv.base+"/mcp", nil)
	require.NoError(t, err)
	req.Header.Set("Accept", "text/event-stream")
	get, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	get.Body.Close()
	assert.Equal(t, http.StatusMethodNotAllowed, get.StatusCode, "no standalone stream without sessions")
}

func TestHTTPMutationGateSendsNothingToTheBackend(t *testing.T) {
	s := newAuthStack(t)
	rec := newRecorder(t, s.srv.URL())
	srv, err := startHTTP(t, serviceEnv(t, s, "dora"), "--endpoint", rec.URL)
	require.NoError(t, err)
	for _, rev := range revisions {
		c := connectMCP(t, srv.base+"/mcp", rev, nil)
		for tool, args := range map[string]map[string]any{
			"create_collection":       {"name": "x"},
			"add_to_collection":       {"collection_id": "col_1", "company_ids": []string{"cmp_000001"}},
			"request_email_discovery": {"company_id": "cmp_000001"},
			"remove_from_collection":  {"collection_id": "col_1", "company_ids": []string{"cmp_000001"}},
		} {
			got, isErr := callTool(t, c, tool, args)
			require.True(t, isErr, "%s over %s", tool, rev)
			assert.Equal(t, "mutations_disabled", got["error"].(map[string]any)["code"], "%s over %s", tool, rev)
		}
	}
	assert.Empty(t, rec.Ops(), "no request reached the backend")
}

func TestHTTPGuardsAndCaps(t *testing.T) {
	s := newAuthStack(t)
	srv, err := startHTTP(t, serviceEnv(t, s, "dora"), "--endpoint", s.srv.URL(), "--allowed-origins", "https://ide.example.com")
	require.NoError(t, err)
	list := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":` + modernMeta + `}}`
	tests := []struct {
		name   string
		body   string
		hdr    map[string]string
		status int
		says   string
	}{
		{"loopback host", list, modernHeaders("tools/list", ""), http.StatusOK, `"tools"`},
		{"foreign host (DNS rebinding)", list, modernHeaders("tools/list", "", "Host", "evil.example:8080"), http.StatusForbidden, "Host"},
		{"a Host whose port is not a number", list, modernHeaders("tools/list", "", "Host", "127.0.0.1:evil"), http.StatusForbidden, "Host"},
		{"a Host with an empty port", list, modernHeaders("tools/list", "", "Host", "localhost:"), http.StatusForbidden, "Host"},
		{"a Host without a port", list, modernHeaders("tools/list", "", "Host", "localhost"), http.StatusOK, `"tools"`},
		{"foreign origin", list, modernHeaders("tools/list", "", "Origin", "https://evil.example"), http.StatusForbidden, "Origin"},
		{"allowed origin", list, modernHeaders("tools/list", "", "Origin", "https://ide.example.com"), http.StatusOK, `"tools"`},
		{"loopback origin", list, modernHeaders("tools/list", "", "Origin", "http://localhost:6274"), http.StatusOK, `"tools"`},
		{"body over the cap", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_company","arguments":{"id":"` + strings.Repeat("x", 2<<20) + `"}}}`, modernHeaders("tools/call", "get_company"), http.StatusRequestEntityTooLarge, "too large"},
		{"a batch", `[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]`, modernHeaders("tools/list", ""), http.StatusBadRequest, "-32600"},
		{"a member spelt as Go's decoder would accept", `{"jsonrpc":"2.0","id":1,"Method":"tools/list"}`, modernHeaders("tools/list", ""), http.StatusBadRequest, `"error"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := post(t, srv.base, tt.body, tt.hdr)
			assert.Equal(t, tt.status, resp.StatusCode)
			assert.Contains(t, readBody(t, resp), tt.says)
		})
	}
	// Stateless: there is no session to end, on either revision.
	for _, rev := range []string{"2025-11-25", "2026-07-28"} {
		t.Run("DELETE under "+rev, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodDelete, srv.base+"/mcp", nil)
			require.NoError(t, err)
			req.Header.Set("MCP-Protocol-Version", rev)
			req.Header.Set("Mcp-Session-Id", "any")
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			defer resp.Body.Close()
			assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
			assert.Equal(t, http.MethodPost, resp.Header.Get("Allow"))
		})
	}
	t.Run("probes are not guarded", func(t *testing.T) {
		req, err := http.NewRequest(http.MethodGet, srv.base+"/healthz", nil)
		require.NoError(t, err)
		req.Host = "10.1.2.3:8080" // a kubelet addresses the pod by IP
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		assert.Equal(t, http.StatusOK, resp.StatusCode)
	})
}

func TestHTTPReadinessFollowsTheBackend(t *testing.T) {
	s := newAuthStack(t)
	srv, err := startHTTP(t, serviceEnv(t, s, "dora"), "--endpoint", s.srv.URL())
	require.NoError(t, err)
	readyz := func() (int, string) {
		resp, err := http.Get(srv.base + "/readyz")
		require.NoError(t, err)
		defer resp.Body.Close()
		return resp.StatusCode, readBody(t, resp)
	}
	// The first check runs at start; wait for its result, not for a time.
	deadline := time.Now().Add(10 * time.Second)
	code, body := readyz()
	for strings.Contains(body, "pending") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
		code, body = readyz()
	}
	assert.Equal(t, http.StatusOK, code, body)
	assert.JSONEq(t, `{"status":"ready","checks":{"backend":"ok"}}`, body)
}

func TestNonLoopbackHTTPWithoutOAuthDoesNotStart(t *testing.T) {
	_, err := ParseConfig([]string{"--embedded", "--http", "0.0.0.0:8080"}, func(string) string { return "" }, io.Discard)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "--oauth-issuer")
	assert.Contains(t, err.Error(), "127.0.0.1")
	_, err = ParseConfig([]string{"--embedded", "--http", ":8080"}, func(string) string { return "" }, io.Discard)
	require.Error(t, err, "an empty host binds every interface")
}

func TestHTTPStopDrainsRequestsInFlight(t *testing.T) {
	s := newAuthStack(t)
	rec := newRecorder(t, s.srv.URL())
	srv, err := startHTTP(t, serviceEnv(t, s, "dora"), "--endpoint", rec.URL)
	require.NoError(t, err)
	// Hold the next search at the backend while the stop begins.
	require.NoError(t, s.srv.Backend().Faults().Add(appsynclocal.Latency(400*time.Millisecond).For("SearchCompanies").ForNext(1)))
	answered := make(chan *http.Response, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, srv.base+"/mcp", strings.NewReader(modernCall("search_companies", `{"query":"software","limit":1}`)))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range modernHeaders("tools/call", "search_companies") {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			answered <- nil
			return
		}
		answered <- resp
	}()
	reached := time.After(10 * time.Second)
	for op := ""; op != "SearchCompanies"; { // the call has reached the backend
		select {
		case op = <-rec.arrived:
		case <-reached:
			t.Fatal("the call never reached the backend")
		}
	}
	srv.stop()
	resp := <-answered
	require.NotNil(t, resp, "the request in flight got its answer")
	defer resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, readBody(t, resp), `"companies"`)
	select {
	case <-srv.stopped:
		assert.NoError(t, srv.err, "a drained stop is a clean exit")
	case <-time.After(15 * time.Second):
		t.Fatal("server did not stop")
	}
}
