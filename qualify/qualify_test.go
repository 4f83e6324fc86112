package qualify

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The suite qualifies the server as it is, against the embedded backend:
// every case passes, every ceiling of the checked-in profile holds and all
// ten tools are covered. CI runs it with the rest of go test ./....
func TestQualifiesAgainstEmbeddedBackend(t *testing.T) {
	var out strings.Builder
	r, err := Run(context.Background(), Options{Companies: 2000, DataDir: t.TempDir(), Out: &out, Commit: "test"})
	require.NoError(t, err)
	t.Log("\n" + out.String())
	assert.True(t, r.OK(), "not qualified:\n%s", out.String())
	assert.Empty(t, r.Uncovered)
	assert.Len(t, r.Tools, 10, "each of the ten tools called and measured")
	assert.Len(t, r.CatalogHash, 64)
	for _, c := range r.Cases {
		assert.Equal(t, 3, c.Runs, c.Name)
	}
	assert.Contains(t, out.String(), "catalogue sha256:"+r.CatalogHash)
	assert.Contains(t, out.String(), "commit    test")
	assert.Contains(t, out.String(), "QUALIFIED")
	assertEverySearchArgumentQualified(t, r)
}

// assertEverySearchArgumentQualified checks that each of search_companies'
// arguments beyond the original search (issue 26) has a case, and that it
// passed.
func assertEverySearchArgumentQualified(t *testing.T, r Report) {
	t.Helper()
	for _, arg := range []string{"sort", "several countries", "exclude_countries", "exclude_categories", "fields", "count_only", "export"} {
		i := slices.IndexFunc(r.Cases, func(c CaseResult) bool { return strings.HasPrefix(c.Name, "search_companies "+arg+" ") })
		if assert.GreaterOrEqual(t, i, 0, "no case qualifies search_companies' %s", arg) {
			assert.Empty(t, r.Cases[i].Failures, r.Cases[i].Name)
		}
	}
}

// A ceiling is a limit: over it, or missing, the run fails.
func TestCeilingsFailTheRun(t *testing.T) {
	ok := ToolResult{Tool: "get_company", Calls: 3, MaxLatency: 40 * time.Millisecond, MaxBytes: 900, Ceiling: Ceiling{LatencyMS: 50, Bytes: 1000}}
	assert.False(t, ok.Failed())
	slow := ok
	slow.MaxLatency = 51 * time.Millisecond
	big := ok
	big.MaxBytes = 1001
	none := ok
	none.Ceiling = Ceiling{}
	for _, tr := range []ToolResult{slow, big, none} {
		assert.True(t, tr.Failed(), "%+v", tr)
		assert.False(t, Report{Cases: []CaseResult{{Name: "c", Runs: 3}}, Tools: []ToolResult{ok, tr}}.OK())
	}
	assert.True(t, Report{Cases: []CaseResult{{Name: "c", Runs: 3}}, Tools: []ToolResult{ok}}.OK())
	assert.False(t, Report{Cases: []CaseResult{{Name: "c", Runs: 3, Failures: []string{"x"}}}, Tools: []ToolResult{ok}}.OK())
	assert.False(t, Report{Cases: []CaseResult{{Name: "c", Runs: 3}}, Tools: []ToolResult{ok}, Uncovered: []string{"ai_search"}}.OK())
}

// The checked-in profile parses and bounds every tool.
func TestProfileBoundsEveryTool(t *testing.T) {
	p := DefaultProfile()
	for _, tool := range []string{"search_companies", "get_company", "get_companies_batch", "ai_search", "list_collections",
		"get_collection_items", "create_collection", "add_to_collection", "request_email_discovery", "remove_from_collection"} {
		assert.Positive(t, p[tool].LatencyMS, tool)
		assert.Positive(t, p[tool].Bytes, tool)
	}
}

// An error's class is read from the result's _meta or from its
// structuredContent, wherever the server puts it.
func TestClassFromMetaOrStructuredContent(t *testing.T) {
	inMeta := &mcp.CallToolResult{IsError: true, Result: mcp.Result{Meta: &mcp.Meta{AdditionalFields: map[string]any{"error": map[string]any{"class": "rate_limited"}}}}}
	inContent := &mcp.CallToolResult{IsError: true, StructuredContent: map[string]any{"error": map[string]any{"code": "invalid_arguments"}}}
	assert.Equal(t, "rate_limited", call{res: inMeta}.class())
	assert.Equal(t, "invalid_arguments", call{res: inContent}.class())
	assert.Equal(t, "", call{res: &mcp.CallToolResult{StructuredContent: map[string]any{"code": "x"}}}.class(), "a success has no class")
}
