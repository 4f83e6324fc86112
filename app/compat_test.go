package app

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/appsynclocal/authn"
	"github.com/companyintel/mcp-server/graphql"
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
	assert.Len(t, st.Tools, 9)
	assert.NotContains(t, st.Tools, "remove_from_collection")
	assert.Equal(t, "absent", st.SchemaExtensions.State)
	assert.Equal(t, "introspection", st.SchemaExtensions.From)
	assert.Equal(t, []string{"remove_from_collection"}, st.SchemaExtensions.NotServed)
	assert.Empty(t, st.SchemaExtensions.Tools)
	assert.Contains(t, st.SchemaExtensions.Note, "remove_from_collection cannot work against it")
	assert.Nil(t, st.Data, "no reference date is invented")

	// The start-up line counts the nine and names no extension tool; the
	// catalogue is the original schema's, with its own hash.
	assert.Contains(t, r.logs.String(), " tools=9 ")
	assert.Contains(t, r.logs.String(), "extension_tools=none schema_extensions=absent catalog="+catalogueID(false, false))
	r.id++
	r.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list","params":{}}`, r.id))
	listed := list(obj(r.read()["result"])["tools"])
	assert.Len(t, listed, 9)

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
	// removal, so remove_from_collection is not served at all. Calling it
	// is an unknown tool, and nothing reaches the backend.
	r.id++
	r.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"remove_from_collection","arguments":{"collection_id":%q,"company_ids":[%q]}}}`, r.id, colID, a))
	unknown := r.read()
	require.NotNil(t, unknown["error"], "%v", unknown)
	assert.EqualValues(t, -32602, obj(unknown["error"])["code"])
	assert.Zero(t, v1.Count("RemoveFromCollection"), "no call to the extension: %v", v1.Operations())
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

// Against an AppSync on the original schema with introspection turned off,
// the server learns the same from a probe that the backend only validates:
// nine tools, and nothing of the extension is ever executed.
func TestOriginalSchemaWithoutIntrospectionIsProbed(t *testing.T) {
	s := newAuthStack(t)
	v1, err := v1backend.StartWithoutIntrospection(s.srv.URL())
	require.NoError(t, err)
	t.Cleanup(v1.Close)
	r, err := startAt(t, v1.URL(), map[string]string{"OIDC_ISSUER": s.iss.URL(), "OIDC_AUDIENCE": authn.DefaultAudience, "OIDC_TOKEN": s.mint(t, "alice")})
	require.NoError(t, err)
	assert.Contains(t, r.logs.String(), " tools=9 ")
	assert.Contains(t, r.logs.String(), "extension_tools=none schema_extensions=absent")
	assert.Equal(t, 1, v1.Count("SchemaExtensions"), "introspection asked once: %v", v1.Operations())
	assert.Equal(t, 1, v1.Count("SchemaExtensionsRemoveProbe"))
	assert.Zero(t, v1.Count("RemoveFromCollection"))
	r.id++
	r.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list","params":{}}`, r.id))
	var names []string
	for _, tl := range list(obj(r.read()["result"])["tools"]) {
		names = append(names, obj(tl)["name"].(string))
	}
	assert.Len(t, names, 9)
	assert.NotContains(t, names, "remove_from_collection")
}

// Against a backend with the extensions, reached at its URL (not
// --embedded), introspection finds them: the tenth tool is served and
// named apart in the start-up line; and the probe finds them as well when
// introspection is off, without removing anything.
func TestExtendedBackendIsLearnedAndNamed(t *testing.T) {
	s := newAuthStack(t)
	env := map[string]string{"OIDC_ISSUER": s.iss.URL(), "OIDC_AUDIENCE": authn.DefaultAudience, "OIDC_TOKEN": s.mint(t, "alice")}
	r, err := startAt(t, s.srv.URL(), env)
	require.NoError(t, err)
	assert.Contains(t, r.logs.String(), " tools=10 ")
	assert.Contains(t, r.logs.String(), "extension_tools=remove_from_collection schema_extensions=present catalog="+catalogueID(false, true))

	ext := learnExtensions(t.Context(), extensionsAuto, false, probeClient(t, s, "alice"))
	assert.Equal(t, "introspection", ext.From)
	assert.Equal(t, "present", ext.State())
	got, err := probe(t.Context(), probeClient(t, s, "alice"))
	require.NoError(t, err, "the probe is valid against the extended schema and executes nothing")
	assert.Equal(t, "present", got.State())
}

// When the backend cannot be asked in time, the server cannot tell: it
// serves the original schema's tools, and says so with the setting that
// decides; configuration decides without asking.
func TestExtensionsUnknownOrConfigured(t *testing.T) {
	dead := graphqlClientTo(t, "http://127.0.0.1:1/graphql")
	e := learnExtensions(t.Context(), extensionsAuto, false, dead)
	assert.Equal(t, "unknown", e.State())
	assert.False(t, e.serves(extRemove))
	st := e.status(false, "--schema-extensions on or off")
	assert.Equal(t, []string{"remove_from_collection"}, st.NotServed)
	assert.Contains(t, st.Note, "--schema-extensions on or off")
	assert.Contains(t, st.Note, "Could not tell")

	assert.Equal(t, "present", learnExtensions(t.Context(), extensionsOn, false, dead).State())
	assert.Equal(t, "absent", learnExtensions(t.Context(), extensionsOff, false, dead).State())
	assert.Equal(t, "embedded backend", learnExtensions(t.Context(), extensionsAuto, true, dead).From)
}

// probeClient reaches the auth stack's backend as user.
func probeClient(t *testing.T, s *authStack, user string) *graphql.Client {
	t.Helper()
	return graphql.NewClient(s.srv.URL(), &http.Client{Transport: headers{map[string]string{"Authorization": s.mint(t, user)}, http.DefaultTransport}}, 2*time.Second)
}

// graphqlClientTo reaches url without credentials, failing fast.
func graphqlClientTo(t *testing.T, url string) *graphql.Client {
	t.Helper()
	return instantRetries(graphql.NewClient(url, nil, time.Second))
}
