package app

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/graphql/mutation/mutationtest"
	"github.com/companyintel/mcp-server/graphql/query/querytest"
	"github.com/companyintel/mcp-server/internal/config"
	"github.com/companyintel/mcp-server/ratelimit"
	"github.com/companyintel/mcp-server/tools"
	"github.com/companyintel/mcp-server/tools/feedback"
	"github.com/companyintel/mcp-server/tools/read"
	"github.com/companyintel/mcp-server/tools/write"
)

// modernMeta is the per-request _meta of protocol 2026-07-28, which needs no
// initialize handshake.
const modernMeta = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"test","version":"1"}}`

var update = flag.Bool("update", false, "rewrite testdata/toolsnaps from the current catalogue")

// testServer builds the server as a client sees it, over mocks that fail on
// any backend call.
func testServer(t *testing.T, m config.Mutations, hide bool) (*server.MCPServer, Counts) {
	t.Helper()
	return NewMCPServer(Parts{
		Reader:       &querytest.Reader{},
		Writer:       &mutationtest.Writer{},
		Mutations:    m,
		HideDisabled: hide,
		Limiter:      ratelimit.New(defaultLimits()),
		Runtime:      tools.Runtime{Logger: discardLogger()},
		Version:      "test",
	})
}

// listTools sends tools/list through the server's message handler, exactly
// as a client's request arrives.
func listTools(t *testing.T, s *server.MCPServer) []map[string]any {
	t.Helper()
	resp := s.HandleMessage(context.Background(), json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":`+modernMeta+`}}`))
	b, err := json.Marshal(resp)
	require.NoError(t, err)
	var out struct {
		Result struct {
			Tools []map[string]any `json:"tools"`
		} `json:"result"`
		Error any `json:"error"`
	}
	require.NoError(t, json.Unmarshal(b, &out))
	require.Nil(t, out.Error, "tools/list failed: %s", b)
	return out.Result.Tools
}

func TestCatalogueMatchesSnapshots(t *testing.T) {
	s, counts := testServer(t, config.Mutations{}, false)
	assert.Equal(t, Counts{Tools: 10, Resources: 5, Prompts: 2}, counts)
	for _, tool := range listTools(t, s) {
		name := tool["name"].(string)
		t.Run(name, func(t *testing.T) {
			got, err := json.MarshalIndent(tool, "", "  ") // map keys marshal sorted
			require.NoError(t, err)
			got = append(got, '\n')
			path := filepath.Join("testdata", "toolsnaps", name+".json")
			if *update {
				require.NoError(t, os.WriteFile(path, got, 0o644))
				return
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "no snapshot for %s: run go test ./app -run TestCatalogue -update and review the diff", name)
			assert.Equal(t, string(want), string(got), "%s changed: review, then go test ./app -run TestCatalogue -update", name)
		})
	}
}

func TestEveryToolStatesItsContract(t *testing.T) {
	s, _ := testServer(t, config.Mutations{}, false)
	for _, tool := range listTools(t, s) {
		name := tool["name"].(string)
		t.Run(name, func(t *testing.T) {
			ann := tool["annotations"].(map[string]any)
			for _, hint := range []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"} {
				assert.Contains(t, ann, hint)
			}
			// Only a removal takes away what the user had put somewhere;
			// every other write only adds.
			assert.Equal(t, name == "remove_from_collection", ann["destructiveHint"], "destructiveHint")
			assert.Equal(t, !slices.Contains(writeTools(), name), ann["readOnlyHint"])

			assert.GreaterOrEqual(t, len(tool["description"].(string)), 80, "descriptions are production text")
			in := tool["inputSchema"].(map[string]any)
			assert.Equal(t, false, in["additionalProperties"])
			for prop, p := range in["properties"].(map[string]any) {
				assert.NotEmpty(t, p.(map[string]any)["description"], "argument %s has no description", prop)
			}
			out, ok := tool["outputSchema"].(map[string]any)
			require.True(t, ok, "no outputSchema")
			assert.NotEmpty(t, out["properties"])
		})
	}
}

func TestDisabledWriteToolsAreListedOrHidden(t *testing.T) {
	names := func(ts []map[string]any) (out []string) {
		for _, tool := range ts {
			out = append(out, tool["name"].(string))
		}
		return out
	}
	s, counts := testServer(t, config.Mutations{}, true)
	assert.Equal(t, 6, counts.Tools)
	assert.NotContains(t, names(listTools(t, s)), "create_collection")

	only, err := parseMutations("create_collection")
	require.NoError(t, err)
	s, counts = testServer(t, only, true)
	assert.Equal(t, 7, counts.Tools)
	assert.Contains(t, names(listTools(t, s)), "create_collection")

	s, _ = testServer(t, config.Mutations{}, false)
	for _, tool := range listTools(t, s) {
		if slices.Contains(writeTools(), tool["name"].(string)) {
			assert.Contains(t, tool["description"], "DISABLED (--allow-mutations off).")
		}
	}
}

func TestHiddenToolIsAnUnknownTool(t *testing.T) {
	s, _ := testServer(t, config.Mutations{}, true)
	msg := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"create_collection","arguments":{"name":"x"},"_meta":` + modernMeta + `}}`
	b, err := json.Marshal(s.HandleMessage(context.Background(), json.RawMessage(msg)))
	require.NoError(t, err)
	var resp struct {
		Error struct {
			Code int `json:"code"`
		} `json:"error"`
	}
	require.NoError(t, json.Unmarshal(b, &resp))
	assert.Equal(t, mcp.INVALID_PARAMS, resp.Error.Code, "%s", b)
}

func TestParseConfigFlagsOverEnvironment(t *testing.T) {
	env := map[string]string{"APPSYNC_ENDPOINT": "https://env.example/graphql", "ALLOW_MUTATIONS": "true", "RATE_LIMITS": "ai_search=2/m"}
	var usage bytes.Buffer
	c, err := ParseConfig([]string{"--endpoint", "https://flag.example/graphql", "--allow-mutations=create_collection", "--rate-limit", "search_companies=100/m"},
		func(k string) string { return env[k] }, &usage)
	require.NoError(t, err)
	assert.Equal(t, "https://flag.example/graphql", c.Endpoint)
	assert.Equal(t, []string{"create_collection"}, c.Mutations.Enabled())
	assert.Equal(t, []string{"ai_search=2/m", "search_companies=100/m"}, c.RateLimits)

	_, err = ParseConfig([]string{"--allow-mutations"}, func(string) string { return "" }, &usage)
	require.Error(t, err, "no endpoint and no --embedded")
	c, err = ParseConfig([]string{"--embedded", "--allow-mutations"}, func(string) string { return "" }, &usage)
	require.NoError(t, err)
	assert.True(t, c.Mutations.Any())
	_, err = ParseConfig([]string{"--embedded", "--auth", "kerberos"}, func(string) string { return "" }, &usage)
	require.ErrorContains(t, err, "kerberos")
}

func TestTextLogLineStartsAtLevel(t *testing.T) {
	var b bytes.Buffer
	l, err := config.NewLogger(&b, "text", "info")
	require.NoError(t, err)
	l.Info("starting mcp-server", "version", "dev", "transport", "stdio", "auth", "oidc", "mutations", false, "tools", 9, "resources", 2, "prompts", 2)
	assert.Equal(t, "level=INFO msg=\"starting mcp-server\" version=dev transport=stdio auth=oidc mutations=false tools=9 resources=2 prompts=2\n", b.String())

	b.Reset()
	l, err = config.NewLogger(&b, "json", "info")
	require.NoError(t, err)
	l.Info("x")
	assert.Contains(t, b.String(), `"time":`)
	_, err = config.NewLogger(&b, "yaml", "info")
	assert.Error(t, err)
}

// ToolNames is read from the tools' facts; the tools built carry the same facts,
// in the same order.
func TestToolNamesAreTheCatalogue(t *testing.T) {
	var built []string
	for _, tool := range append(read.Tools(nil, nil), write.Tools(write.Deps{})...) {
		built = append(built, tool.Name())
	}
	built = append(built, feedback.New(feedback.Deps{}).Name()) // opt-in, last
	assert.Equal(t, built, ToolNames())
}

// catalogueBudget is the most the catalogue may cost a model's context
// (DESIGN.md, "Agent contract"): what a host gives the model of each listed
// tool — its name, description and input schema — as compact JSON, in every
// mode. Titles, annotations, output schemas and _meta are for the host and
// the person; the whole tools/list is measured beside it and reported.
const catalogueBudget = 10_000

// modelBytes is what a model reads of a tools/list result: each tool's
// name, description and inputSchema, as one compact JSON array.
func modelBytes(t *testing.T, tools []map[string]any) int {
	t.Helper()
	read := make([]map[string]any, len(tools))
	for i, tl := range tools {
		read[i] = map[string]any{"name": tl["name"], "description": tl["description"], "inputSchema": tl["inputSchema"]}
	}
	b, err := json.Marshal(read)
	require.NoError(t, err)
	return len(b)
}

// TestCatalogueFitsItsBudget measures, as a client receives tools/list
// under 2026-07-28 with the default configuration (all ten tools listed,
// writes off and saying so, the default rate limits stated), what a model
// reads (≤ catalogueBudget) and the whole answer, and checks every tool
// carries its title for the person.
func TestCatalogueFitsItsBudget(t *testing.T) {
	s, counts := testServer(t, config.Mutations{}, false)
	require.Equal(t, 10, counts.Tools)
	resp := s.HandleMessage(context.Background(), json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":`+modernMeta+`}}`))
	b, err := json.Marshal(resp)
	require.NoError(t, err)
	var out struct {
		Result json.RawMessage `json:"result"`
	}
	require.NoError(t, json.Unmarshal(b, &out))
	var compact bytes.Buffer
	require.NoError(t, json.Compact(&compact, out.Result))
	tools := listTools(t, s)
	for _, tl := range tools {
		assert.NotEmpty(t, tl["title"], "%s has no title", tl["name"])
		assert.Equal(t, tl["title"], tl["annotations"].(map[string]any)["title"], "%s: the annotation's title is the title", tl["name"])
	}
	read := modelBytes(t, tools)
	t.Logf("tools/list: a model reads %d bytes (name, description, inputSchema); the whole result is %d bytes", read, compact.Len())
	assert.LessOrEqual(t, read, catalogueBudget, "the catalogue outgrew its budget: shorten descriptions or input schemas")
}

// TestCatalogueHashIsRecorded fails when the catalogue changes without its
// recorded hash being updated on purpose (with the snapshots: go test ./app
// -run TestCatalogue -update), so a contract change is always a reviewed diff.
func TestCatalogueHashIsRecorded(t *testing.T) {
	got := map[string]string{}
	for _, feedback := range []bool{false, true} {
		for _, ext := range []bool{false, true} {
			h, err := catalogueHash(feedback, ext)
			require.NoError(t, err)
			got[catalogueKey(feedback, ext)] = h
		}
	}
	def, err := CatalogueHash()
	require.NoError(t, err)
	require.Equal(t, got["default"], def)
	path := filepath.Join("testdata", "catalog.sha256")
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(def+"\n"), 0o644))
		var lines strings.Builder
		for _, k := range []string{"default", "feedback", "original", "original+feedback"} {
			fmt.Fprintf(&lines, "\t%q: %q,\n", k, got[k])
		}
		src, err := format.Source(fmt.Appendf(nil, `// Code generated by go test ./app -run TestCatalogue -update; DO NOT EDIT.

package app

// The SHA-256 of each catalogue (catalogueKey), recorded when the
// catalogue last changed on purpose. TestCatalogueHashIsRecorded fails
// when they no longer match the code.
var recordedCatalogueHashes = map[string]string{
%s}
`, lines.String()))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile("catalogue_hash.go", src, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, strings.TrimSpace(string(want)), def, "the catalogue changed: review, then go test ./app -run TestCatalogue -update")
	assert.Equal(t, got, recordedCatalogueHashes, "catalogue_hash.go is stale: go test ./app -run TestCatalogue -update")

	for _, c := range []struct {
		ext   bool
		tools int
	}{{true, 10}, {false, 9}} {
		out, err := catalogueJSON(false, c.ext)
		require.NoError(t, err)
		var doc struct {
			Tools []map[string]any `json:"tools"`
		}
		require.NoError(t, json.Unmarshal(out, &doc))
		assert.Len(t, doc.Tools, c.tools)
		assert.NotContains(t, string(out), `\u0026`, "canonical JSON does not escape HTML")
	}
}

func TestListsSayHowLongTheyMayBeCached(t *testing.T) {
	s, _ := testServer(t, config.Mutations{}, false)
	for _, method := range []string{"tools/list", "prompts/list"} {
		resp := s.HandleMessage(context.Background(), json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"`+method+`","params":{"_meta":`+modernMeta+`}}`))
		b, err := json.Marshal(resp)
		require.NoError(t, err)
		var out struct {
			Result struct {
				TTLMs      *int64 `json:"ttlMs"`
				CacheScope string `json:"cacheScope"`
			} `json:"result"`
		}
		require.NoError(t, json.Unmarshal(b, &out))
		require.NotNil(t, out.Result.TTLMs, "%s: %s", method, b)
		assert.Equal(t, int64(300000), *out.Result.TTLMs, method)
		assert.Equal(t, "public", out.Result.CacheScope, method)
	}
}

// TestCatalogueFitsItsBudgetInEveryMode measures tools/list as it leaves the
// HTTP service, under both protocol revisions, with writes off and on,
// disabled writes listed and hidden: in every way a client can receive the
// catalogue, what a model reads of it stays within the budget (the whole
// answer's bytes are reported beside it).
func TestCatalogueFitsItsBudgetInEveryMode(t *testing.T) {
	s := newAuthStack(t)
	for _, mode := range []struct {
		name string
		args []string
	}{
		{"writes off, listed", nil},
		{"writes off, hidden", []string{"--hide-disabled-tools"}},
		{"writes on, listed", []string{"--allow-mutations"}},
		{"writes on, hidden", []string{"--allow-mutations", "--hide-disabled-tools"}},
	} {
		srv, err := startHTTP(t, serviceEnv(t, s, "budget"), append([]string{"--endpoint", s.srv.URL()}, mode.args...)...)
		require.NoError(t, err)
		for _, rev := range revisions {
			var body string
			if rev == "2026-07-28" {
				resp := post(t, srv.base, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":`+modernMeta+`}}`, modernHeaders("tools/list", ""))
				body = readBody(t, resp)
			} else {
				resp := post(t, srv.base, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`, map[string]string{"MCP-Protocol-Version": rev})
				body = readBody(t, resp)
			}
			body = strings.TrimSpace(strings.TrimPrefix(strings.SplitN(body, "data: ", 2)[len(strings.SplitN(body, "data: ", 2))-1], "event: message"))
			require.Contains(t, body, `"search_companies"`, "%s %s: %s", mode.name, rev, body)
			var doc struct {
				Result struct {
					Tools []map[string]any `json:"tools"`
				} `json:"result"`
			}
			require.NoError(t, json.Unmarshal([]byte(body), &doc), "%s %s", mode.name, rev)
			read := modelBytes(t, doc.Result.Tools)
			t.Logf("%s, %s: a model reads %d bytes; the whole answer is %d bytes", mode.name, rev, read, len(body))
			assert.LessOrEqual(t, read, catalogueBudget, "%s, %s: the catalogue outgrew its budget", mode.name, rev)
		}
	}
}
