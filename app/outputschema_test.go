package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// validateAgainstOutputSchema checks structured content against the tool's
// outputSchema as a strict client does: the official TypeScript SDK
// validates structuredContent whenever a result has it, isError or not, and
// drops a result that does not match.
func validateAgainstOutputSchema(t *testing.T, s *session, tool string, structured map[string]any) {
	t.Helper()
	var schema []byte
	for _, tl := range listTools(t, s.s) {
		if tl["name"] == tool {
			b, err := json.Marshal(tl["outputSchema"])
			require.NoError(t, err)
			schema = b
		}
	}
	require.NotNil(t, schema, "no tool %s", tool)
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	require.NoError(t, err)
	c := jsonschema.NewCompiler()
	require.NoError(t, c.AddResource("schema.json", doc))
	compiled, err := c.Compile("schema.json")
	require.NoError(t, err)
	b, err := json.Marshal(structured)
	require.NoError(t, err)
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	require.NoError(t, err)
	require.NoError(t, compiled.Validate(inst), "%s: structuredContent does not match outputSchema: %s", tool, b)
}

// TestErrorResultsCarryNoStructuredContent checks the failures a strict
// client must accept: isError with no structuredContent (so nothing is
// validated against the success schema), the class and the rest in _meta.
func TestErrorResultsCarryNoStructuredContent(t *testing.T) {
	s := asUser(t, "frank")
	apiKey := newSession(t, map[string]string{"x-api-key": backend(t).Backend().APIKey()}, 0)
	tests := []struct {
		s                 *session
		tool, args, class string
	}{
		{s, "get_company", `{}`, "invalid_arguments"},
		{s, "get_company", `{"id":"cmp_999999"}`, "not_found"},
		{s, "search_companies", `{"country":"Atlantis"}`, "invalid_arguments"},
		{apiKey, "list_collections", `{}`, "unauthorized"},
		{apiKey, "create_collection", `{"name":"x"}`, "unauthorized"},
		{s, "add_to_collection", `{"collection_id":"col_nope","company_ids":["cmp_000001"]}`, "not_found"},
	}
	for _, tt := range tests {
		t.Run(tt.tool+tt.args, func(t *testing.T) {
			res := tt.s.rpc("tools/call", fmt.Sprintf(`{"name":%q,"arguments":%s}`, tt.tool, tt.args))
			require.Equal(t, true, res["isError"])
			require.NotContains(t, res, "structuredContent")
			e := errorMeta(res)
			assert.Equal(t, tt.class, e["code"], "%v", res)
			assert.Equal(t, tt.tool, e["tool"])
			assert.Contains(t, e, "retryable")
			text := obj(list(res["content"])[0])["text"]
			assert.Contains(t, text, tt.tool+" failed ["+tt.class+"]")
		})
	}
}

// TestSuccessesMatchTheOutputSchema validates real answers of every read
// tool against the advertised schema, as the TypeScript SDK does.
func TestSuccessesMatchTheOutputSchema(t *testing.T) {
	s := asUser(t, "frank")
	validateAgainstOutputSchema(t, s, "search_companies", s.ok("search_companies", `{"query":"software","limit":2}`))
	validateAgainstOutputSchema(t, s, "get_company", s.ok("get_company", `{"id":"cmp_000001"}`))
	validateAgainstOutputSchema(t, s, "get_companies_batch", s.ok("get_companies_batch", `{"ids":["cmp_000001","cmp_999999"]}`))
	validateAgainstOutputSchema(t, s, "ai_search", s.ok("ai_search", `{"query":"software companies in Germany"}`))
	validateAgainstOutputSchema(t, s, "list_collections", s.ok("list_collections", `{}`))
}
