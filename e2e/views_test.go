package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// viewsTimeout bounds one transport's browser run: two servers, two
// Chromium starts and a dozen views, on a loaded CI machine.
const viewsTimeout = 4 * time.Minute

// viewsServer is a running server, an MCP client connected to it, and its
// stderr (the audit records).
type viewsServer struct {
	c    *client.Client
	logs *logBuffer
}

// TestViewsInABrowserHost renders the three MCP Apps views in headless
// Chromium with a small host page that uses AppBridge from the pinned
// @modelcontextprotocol/ext-apps (e2e/views), against the built server over
// stdio and over HTTP. The host reads each view through MCP, calls the tool
// and hands its real result to the view; the driver checks the rows in the
// view's DOM (waiting for them, never sleeping), presses "Show more", "Add"
// and a row's "Remove", and fails on any console error or any network
// request. The server's audit records must show the calls the views made
// through the host; with writes off, the collection's add and remove are
// refused by the gate and the view says so in plain words, as it does when
// the person declines the removal the server asks them to confirm (stdio).
// Hostile names and descriptions render as text.
// Screenshots go to $VIEWS_SCREENSHOTS, or a temporary directory.
func TestViewsInABrowserHost(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	require.NoError(t, err, "the views are tested in Debian's chromium (apt-get install chromium)")
	nodeBin, err := exec.LookPath("node")
	require.NoError(t, err, "the test host runs on Node.js")
	_, err = os.Stat(filepath.Join("views", "node_modules", "puppeteer-core"))
	require.NoError(t, err, "install the test host with: npm ci --prefix e2e/views")
	out := os.Getenv("VIEWS_SCREENSHOTS")
	if out == "" {
		out = t.TempDir()
	}
	out, err = filepath.Abs(out)
	require.NoError(t, err)

	transports := []struct {
		name  string
		start func(t *testing.T, ctx context.Context, flags ...string) viewsServer
	}{
		{"stdio", func(t *testing.T, ctx context.Context, flags ...string) viewsServer {
			s := startSession(t, ctx, revisions[0], flags...)
			return viewsServer{c: s.Client, logs: s.stderr}
		}},
		{"http", func(t *testing.T, ctx context.Context, flags ...string) viewsServer {
			base, logs := startHTTPProcess(t, flags...)
			return viewsServer{c: httpSession(t, ctx, base+"/mcp"), logs: logs}
		}},
	}
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), viewsTimeout)
			defer cancel()
			dir := filepath.Join(out, tr.name)
			require.NoError(t, os.MkdirAll(dir, 0o755))

			// Writes on: the data the views show is made here, through the
			// same server.
			w := tr.start(t, ctx, "--allow-mutations")
			companies := structuredOf(t, callOK(t, ctx, w.c, "search_companies", map[string]any{"country": "DE", "limit": 4}))["companies"].([]any)
			require.Len(t, companies, 4)
			ids := make([]string, 4)
			for i, c := range companies {
				ids[i] = c.(map[string]any)["id"].(string)
			}
			callOK(t, ctx, w.c, "request_email_discovery", map[string]any{"company_id": ids[0], "roles": []string{"CEO", "Head of Sales"}})
			name := fmt.Sprintf(`<img src=x onerror="document.title='pwned'"> Berlin prospects (%s)`, tr.name)
			col := structuredOf(t, callOK(t, ctx, w.c, "create_collection", map[string]any{"name": name, "description": "<script>document.title='pwned'</script> Robotics firms to call in January."}))
			colID := col["collection"].(map[string]any)["id"].(string)
			callOK(t, ctx, w.c, "add_to_collection", map[string]any{"collection_id": colID, "company_ids": ids[:3]})

			report := driveViews(t, ctx, nodeBin, chromium, dir, w.c, map[string]any{"mode": "writes", "company": ids[0], "collection": colID, "add": ids[3], "remove": ids[1]})
			t.Logf("views: %s", report)

			// The server's own record of what the views did through the host.
			var more, added bool
			for _, r := range toolCalls(textRecords(t, w.logs), "search_companies") {
				more = more || (r["outcome"] == "ok" && strings.Contains(r["args"], "cursor"))
			}
			assert.True(t, more, "the search view's Show more reached search_companies with a cursor")
			for _, r := range toolCalls(textRecords(t, w.logs), "add_to_collection") {
				added = added || (r["outcome"] == "ok" && strings.Contains(r["written"]+r["touched"]+fmt.Sprint(r), ids[3]))
			}
			assert.True(t, added, "the collection view's Add reached add_to_collection for %s", ids[3])
			var removed bool
			for _, r := range toolCalls(textRecords(t, w.logs), "remove_from_collection") {
				removed = removed || (r["outcome"] == "ok" && strings.Contains(r["written.company_ids"], ids[1]))
			}
			assert.True(t, removed, "the collection view's Remove reached remove_from_collection for %s, and its record names it as written", ids[1])
			items := structuredOf(t, callOK(t, ctx, w.c, "get_collection_items", map[string]any{"collection_id": colID}))["items"].([]any)
			var inCollection []string
			for _, it := range items {
				inCollection = append(inCollection, it.(map[string]any)["company"].(map[string]any)["id"].(string))
			}
			assert.Equal(t, []string{ids[0], ids[2], ids[3]}, inCollection, "the view's add and remove are in the collection")

			// Writes off: the same collection, and the gate refuses the view's add.
			r := tr.start(t, ctx)
			driveViews(t, ctx, nodeBin, chromium, dir, r.c, map[string]any{"mode": "readonly", "collection": colID, "add": ids[3], "remove": ids[0]})
			for _, tool := range []string{"add_to_collection", "remove_from_collection"} {
				refused := false
				for _, rec := range toolCalls(textRecords(t, r.logs), tool) {
					refused = refused || rec["outcome"] == "mutations_disabled"
				}
				assert.True(t, refused, "the view's %s was refused by the mutation gate, and recorded", tool)
			}

			// Writes on, each confirmed by the person, who declines (stdio,
			// where the client answers elicitation/create): the view's
			// remove is refused in plain words and nothing is removed.
			if tr.name == "stdio" {
				rev := revisions[0]
				rev.options = append(slices.Clone(rev.options),
					client.WithClientCapabilities(mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapability{}}),
					client.WithElicitationHandler(declining{}))
				d := startSession(t, ctx, rev, "--allow-mutations", "--confirm-writes", "required")
				driveViews(t, ctx, nodeBin, chromium, dir, d.Client, map[string]any{"mode": "declined", "collection": colID, "remove": ids[0]})
				declined := false
				for _, rec := range toolCalls(textRecords(t, d.stderr), "remove_from_collection") {
					declined = declined || (rec["outcome"] == "declined" && rec["confirmed"] == "declined")
				}
				assert.True(t, declined, "the view's remove was asked about, declined, and recorded so")
				items := structuredOf(t, callOK(t, ctx, w.c, "get_collection_items", map[string]any{"collection_id": colID}))["items"].([]any)
				assert.Len(t, items, 3, "the declined removal removed nothing")
			}

			for _, f := range []string{"search-light.png", "profile-dark.png", "collection-light.png", "collection-narrow-dark.png", "collection-refused.png", "collection-remove-refused.png", "hostile-narrow-dark.png", "search-narrow-dark.png"} {
				st, err := os.Stat(filepath.Join(dir, f))
				if assert.NoError(t, err, "screenshot %s", f) {
					assert.Greater(t, st.Size(), int64(1000), "screenshot %s", f)
				}
			}
		})
	}
}

// declining is the person at the keyboard who declines every write.
type declining struct{}

func (declining) Elicit(context.Context, mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionDecline}}, nil
}

// driveViews runs e2e/views/drive.mjs against c: the page's MCP requests
// come to a loopback handler here and go to the server through c. It returns
// the driver's report; a failed check fails the test with the driver's
// reason.
func driveViews(t *testing.T, ctx context.Context, nodeBin, chromium, dir string, c *client.Client, scenario map[string]any) string {
	t.Helper()
	rpc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		res, err := forward(r.Context(), c, req.Method, req.Params)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(res)
	}))
	defer rpc.Close()

	sc, err := json.Marshal(scenario)
	require.NoError(t, err)
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, nodeBin, filepath.Join("views", "drive.mjs"))
	cmd.Env = append(os.Environ(), "RPC_URL="+rpc.URL, "CHROMIUM="+chromium, "OUT_DIR="+dir, "SCENARIO="+string(sc))
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "the views driver (%s): %s\nreport: %s", scenario["mode"], stderr.String(), stdout.String())
	return strings.TrimSpace(stdout.String())
}

// forward sends one request of the page to the server, the way a host
// proxies a view's requests.
func forward(ctx context.Context, c *client.Client, method string, params json.RawMessage) (any, error) {
	switch method {
	case "tools/list":
		return c.ListTools(ctx, mcp.ListToolsRequest{})
	case "resources/read":
		var p mcp.ReadResourceParams
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, err
		}
		return c.ReadResource(ctx, mcp.ReadResourceRequest{Params: p})
	case "tools/call":
		var p struct {
			Name      string         `json:"name"`
			Arguments map[string]any `json:"arguments"`
		}
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, err
		}
		return c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: p.Name, Arguments: p.Arguments}})
	}
	return nil, fmt.Errorf("the test host forwards no %s", method)
}

// httpSession connects mcp-go's Streamable HTTP client to a server in local
// mode (loopback, no OAuth) under 2026-07-28.
func httpSession(t *testing.T, ctx context.Context, mcpURL string) *client.Client {
	t.Helper()
	tr, err := transport.NewStreamableHTTP(mcpURL)
	require.NoError(t, err)
	c := client.NewClient(tr)
	t.Cleanup(func() { _ = c.Close() })
	require.NoError(t, c.Start(ctx))
	_, err = c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{
		ClientInfo: mcp.Implementation{Name: "mcp-server-e2e", Version: "1.0.0"},
	}})
	require.NoError(t, err)
	return c
}

// callOK runs a tool and requires a successful result.
func callOK(t *testing.T, ctx context.Context, c *client.Client, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: tool, Arguments: args}})
	require.NoError(t, err, tool)
	require.False(t, res.IsError, "%s: %s", tool, describe(res))
	return res
}

// structuredOf decodes a result's structured content.
func structuredOf(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	return m
}
