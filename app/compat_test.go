package app

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/appsynclocal/authn"
	"github.com/companyintel/mcp-server/graphql/query/v1backend"
)

// The server is tested by others against AppSync deployments that may serve
// the API's original schema, without the optional extensions this server
// asks for. This test runs the whole server (app.Run, over stdio pipes)
// against such an endpoint: every document is validated against the
// original schema, refused in AppSync's words when it does not fit, and
// otherwise answered by the embedded backend over real HTTP.
func TestEveryToolWorksAgainstTheOriginalSchema(t *testing.T) {
	s := newAuthStack(t)
	v1, err := v1backend.Start(s.srv.URL())
	require.NoError(t, err)
	t.Cleanup(v1.Close)
	r, err := startAt(t, v1.URL(), map[string]string{"OIDC_ISSUER": s.iss.URL(), "OIDC_AUDIENCE": authn.DefaultAudience, "OIDC_TOKEN": s.mint(t, "alice")})
	require.NoError(t, err)
	ok := func(tool, args string) map[string]any {
		t.Helper()
		sc, isErr := r.call(tool, args)
		require.False(t, isErr, "%s %s failed: %v", tool, args, sc["error"])
		return sc
	}

	// The filters resource, without referenceDate.
	r.id++
	r.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"resources/read","params":{"uri":"companies://filters"}}`, r.id))
	res, _ := r.read()["result"].(map[string]any)
	require.NotNil(t, res, "companies://filters was not served")
	var voc vocabulary
	require.NoError(t, json.Unmarshal([]byte(obj(list(res["contents"])[0])["text"].(string)), &voc))
	require.NotEmpty(t, voc.Countries)
	require.NotEmpty(t, voc.Categories)

	// The status resource: no reference date from a backend without one.
	r.id++
	r.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"resources/read","params":{"uri":"companies://server/status"}}`, r.id))
	res, _ = r.read()["result"].(map[string]any)
	require.NotNil(t, res, "companies://server/status was not served")
	var st Status
	require.NoError(t, json.Unmarshal([]byte(obj(list(res["contents"])[0])["text"].(string)), &st))
	assert.Len(t, st.Tools, 10)
	assert.Nil(t, st.Data, "no reference date is invented")

	// search_companies, with the country and the category checked against
	// the vocabulary, then a second page.
	found := ok("search_companies", fmt.Sprintf(`{"country":%q,"categories":[%q],"limit":2}`, voc.Countries[0].Code, voc.Categories[0].Name))
	assert.NotContains(t, found["note"], "at least", "a total the backend gave as it is")
	page := ok("search_companies", `{"query":"software","limit":2}`)
	companies := list(page["companies"])
	require.Len(t, companies, 2)
	cursor, _ := page["next_cursor"].(string)
	require.NotEmpty(t, cursor)
	ok("search_companies", fmt.Sprintf(`{"query":"software","limit":2,"cursor":%q}`, cursor))
	a, b := obj(companies[0])["id"].(string), obj(companies[1])["id"].(string)

	// A search with bounds is refused, plainly, and never run without them.
	searchesBefore := v1.Count("SearchCompanies") + v1.Count("SearchCompaniesBase")
	refused, isErr := r.call("search_companies", `{"query":"software","min_employees":50,"founded_after":2010}`)
	require.True(t, isErr, "bounds were dropped silently: %v", refused)
	e := obj(refused["error"])
	assert.Equal(t, "invalid_arguments", e["code"])
	assert.Contains(t, e["message"], "does not support employee-count or founding-year filters")
	assert.Contains(t, e["message"], "min_employees, founded_after")
	assert.Equal(t, false, e["retryable"])
	assert.Equal(t, searchesBefore, v1.Count("SearchCompanies")+v1.Count("SearchCompaniesBase"), "the refusal cost no request")

	ok("get_company", fmt.Sprintf(`{"id":%q}`, a))
	batch := ok("get_companies_batch", fmt.Sprintf(`{"ids":[%q,%q]}`, a, b))
	assert.Len(t, list(batch["companies"]), 2)
	ai := ok("ai_search", `{"query":"software companies in Germany","limit":3}`)
	assert.Equal(t, []any{}, ai["not_applied"], "an old backend reports nothing unapplied")
	// After the refused bounded search, ai_search's paging note leaves the
	// size bound out of the search_companies call it suggests.
	startups := ok("ai_search", `{"query":"fintech startups","limit":2}`)
	require.NotNil(t, obj(startups["interpreted"])["max_employees"], "%v", startups["interpreted"])
	assert.Contains(t, startups["note"], `call search_companies with {"categories":["Fintech"],"limit":2} and follow next_cursor.`)
	assert.Contains(t, startups["note"], `fit {"max_employees":49}: this data API's search_companies takes no such bounds`)

	made := ok("create_collection", `{"name":"Old schema list"}`)
	colID := obj(made["collection"])["id"].(string)
	ok("add_to_collection", fmt.Sprintf(`{"collection_id":%q,"company_ids":[%q,%q]}`, colID, a, b))
	assert.EqualValues(t, 1, ok("list_collections", `{}`)["total"])
	items := ok("get_collection_items", fmt.Sprintf(`{"collection_id":%q}`, colID))
	assert.EqualValues(t, 2, items["total"])
	ok("request_email_discovery", fmt.Sprintf(`{"company_id":%q}`, a))

	// removeFromCollection is an extension: the original schema has no
	// removal, so the tool says this API cannot remove, in the backend's
	// words, without inviting a retry, and the collection keeps both.
	gone, isErr := r.call("remove_from_collection", fmt.Sprintf(`{"collection_id":%q,"company_ids":[%q]}`, colID, a))
	require.True(t, isErr, "a removal the backend cannot do was reported done: %v", gone)
	e = obj(gone["error"])
	assert.Equal(t, "backend_error", e["code"])
	assert.Contains(t, e["message"], "this data API cannot remove companies from a collection")
	assert.Contains(t, e["message"], "FieldUndefined", "the backend's own words")
	assert.Equal(t, false, e["retryable"])
	assert.Equal(t, 1, v1.Count("RemoveFromCollection"), "tried once, not retried: %v", v1.Operations())
	assert.EqualValues(t, 2, ok("get_collection_items", fmt.Sprintf(`{"collection_id":%q}`, colID))["total"], "nothing was removed")

	// Each extended operation was tried once; every later call sent only
	// the base one.
	for _, op := range []string{"SearchCompanies", "AiSearch", "FilterVocabulary"} {
		assert.Equal(t, 1, v1.Count(op), "%s: the extended document after the first refusal: %v", op, v1.Operations())
	}
	assert.Equal(t, 3, v1.Count("SearchCompaniesBase"), "%v", v1.Operations())
	assert.Equal(t, 2, v1.Count("AiSearchBase"))
	assert.GreaterOrEqual(t, v1.Count("FilterVocabularyBase"), 1)
	// The operator is told once per operation, in the start-up log's stream.
	for _, op := range []string{"SearchCompanies", "AiSearch", "FilterVocabulary"} {
		assert.Equal(t, 1, strings.Count(r.logs.String(), "operation="+op+" fallback="+op+"Base"), "%s", r.logs.String())
	}
}
