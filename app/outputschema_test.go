package app

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"
)

// validateAgainstOutputSchema checks structured content against the tool's
// outputSchema as a strict client does: the official TypeScript SDK
// validates structuredContent even on isError results, and drops a result
// that does not match.
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

func TestErrorResultsMatchTheOutputSchema(t *testing.T) {
	s := asUser(t, "frank")
	apiKey := newSession(t, map[string]string{"x-api-key": backend(t).Backend().APIKey()}, 0)
	tests := []struct {
		s          *session
		tool, args string
	}{
		{s, "get_company", `{}`},
		{s, "get_company", `{"id":"cmp_999999"}`},
		{s, "search_companies", `{"country":"Atlantis"}`},
		{apiKey, "list_collections", `{}`},
		{apiKey, "create_collection", `{"name":"x"}`},
		{s, "add_to_collection", `{"collection_id":"col_nope","company_ids":["cmp_000001"]}`},
	}
	for _, tt := range tests {
		t.Run(tt.tool+tt.args, func(t *testing.T) {
			sc, isErr := tt.s.call(tt.tool, tt.args)
			require.True(t, isErr)
			validateAgainstOutputSchema(t, tt.s, tt.tool, sc)
		})
	}
	// And a success, for contrast: the anyOf keeps the success fields required.
	validateAgainstOutputSchema(t, s, "search_companies", s.ok("search_companies", `{"query":"software","limit":2}`))
}
