package app

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/graphql/mutation/mutationtest"
	"github.com/companyintel/mcp-server/graphql/query/querytest"
	"github.com/companyintel/mcp-server/internal/config"
	"github.com/companyintel/mcp-server/ratelimit"
	"github.com/companyintel/mcp-server/tools"
	"github.com/companyintel/mcp-server/tools/feedback"
)

// TestCatalogueWithFeedbackTool: --feedback-tool adds report_missing_capability
// last, with its contract pinned by a snapshot like the others (go test ./app
// -run TestCatalogue -update rewrites it), read-only and closed-world since it
// reaches nothing outside the server. The others are unchanged by it; `catalog
// --feedback-tool` prints the eleven-tool catalogue, whose hash is not the
// default one, and the start-up line and status resource name the hash of
// the catalogue served.
func TestCatalogueWithFeedbackTool(t *testing.T) {
	s, counts := NewMCPServer(Parts{
		Reader: &querytest.Reader{}, Writer: &mutationtest.Writer{}, FeedbackTool: true,
		Limiter: ratelimit.New(defaultLimits()), Runtime: tools.Runtime{Logger: discardLogger()}, Version: "test",
	})
	assert.Equal(t, Counts{Tools: 11, Resources: 5, Prompts: 2}, counts)
	listed := listTools(t, s)
	require.Len(t, listed, 11)
	var tool map[string]any
	var others []map[string]any
	for _, l := range listed {
		if l["name"] == feedback.Name {
			tool = l
		} else {
			others = append(others, l)
		}
	}
	require.NotNil(t, tool, "%s is not listed", feedback.Name)

	got, err := json.MarshalIndent(tool, "", "  ")
	require.NoError(t, err)
	got = append(got, '\n')
	path := filepath.Join("testdata", "toolsnaps", feedback.Name+".json")
	if *update {
		require.NoError(t, os.WriteFile(path, got, 0o644))
	} else {
		want, err := os.ReadFile(path)
		require.NoError(t, err, "no snapshot: run go test ./app -run TestCatalogue -update and review the diff")
		assert.Equal(t, string(want), string(got), "%s changed: review, then go test ./app -run TestCatalogue -update", feedback.Name)
	}
	ann := tool["annotations"].(map[string]any)
	assert.Equal(t, map[string]any{"title": "Report a missing capability", "readOnlyHint": true, "destructiveHint": false, "idempotentHint": false, "openWorldHint": false}, ann)
	assert.Contains(t, tool["description"], "only when no tool")
	assert.Contains(t, tool["description"], "fixes nothing by itself")
	assert.Contains(t, tool["description"], "Rate limit: 20 calls per hour per caller", "limited like every tool, by default")
	def, _ := testServer(t, config.Mutations{}, false)
	assert.Equal(t, listTools(t, def), others, "the other tools are the same with the feedback tool")

	with, err := CatalogueJSON(true)
	require.NoError(t, err)
	var doc struct {
		Tools []map[string]any `json:"tools"`
	}
	require.NoError(t, json.Unmarshal(with, &doc))
	require.Len(t, doc.Tools, 11)
	assert.Equal(t, feedback.Name, doc.Tools[10]["name"])
	defHash, err := CatalogueHash()
	require.NoError(t, err)
	withHash, err := catalogueHash(true, true)
	require.NoError(t, err)
	assert.NotEqual(t, defHash, withHash)
	assert.Equal(t, withHash[:12], catalogueID(true, true))
	assert.Equal(t, defHash[:12], catalogueID(false, true))
}

// Over HTTP with --feedback-tool: the start-up line says tools=11, a report
// is answered, recorded and counted in /metrics, the backend receives
// nothing, and the tool's rate limit refuses like any other's.
func TestFeedbackToolOverHTTPRecordsCountsAndSendsNothing(t *testing.T) {
	s := newAuthStack(t)
	rec := newRecorder(t, s.srv.URL())
	srv, err := startHTTP(t, serviceEnv(t, s, "dora"), "--endpoint", rec.URL, "--feedback-tool", "--rate-limit", "report_missing_capability=1/h")
	require.NoError(t, err)
	assert.Contains(t, srv.logs.String(), "transport=http auth=oidc mutations=false tools=11")
	c := connectMCP(t, srv.base+"/mcp", "2026-07-28", nil)

	args := map[string]any{"wanted": "revenue by year", "tried": []string{"get_company"}, "context": "rank prospects"}
	got, isErr := callTool(t, c, feedback.Name, args)
	require.False(t, isErr, "%v", got)
	assert.Equal(t, true, got["recorded"])
	got, isErr = callTool(t, c, feedback.Name, args)
	require.True(t, isErr)
	assert.Equal(t, "rate_limited", got["error"].(map[string]any)["code"])
	assert.Empty(t, rec.Ops(), "a report reached the backend")

	logs := srv.logs.String()
	assert.Contains(t, logs, `msg="missing capability" tool=report_missing_capability caller=`)
	assert.Contains(t, logs, `wanted="revenue by year" tried=get_company context="rank prospects"`)

	resp, err := http.Get(srv.base + "/metrics")
	require.NoError(t, err)
	defer resp.Body.Close()
	page := readBody(t, resp)
	assert.Contains(t, page, "companyintel_missing_capability_reports_total 1", "one report counted; the refused call is not one")
	assert.Contains(t, page, `companyintel_tool_calls_total{gen_ai_tool_name="report_missing_capability",outcome="ok"} 1`)
	assert.Contains(t, page, `companyintel_rate_limit_refusals_total{gen_ai_tool_name="report_missing_capability"} 1`)
}
