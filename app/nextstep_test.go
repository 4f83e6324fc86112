package app

import (
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/appsynclocal"
	"github.com/companyintel/mcp-server/graphql"
	"github.com/companyintel/mcp-server/graphql/mutation"
	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/ratelimit"
	"github.com/companyintel/mcp-server/tools"
)

// refusal calls a tool that must fail with class, and returns the text the
// model reads and the details a program reads.
func (s *session) refusal(tool, args, class string) (string, map[string]any) {
	s.t.Helper()
	res := s.rpc("tools/call", fmt.Sprintf(`{"name":%q,"arguments":%s}`, tool, args))
	require.Equal(s.t, true, res["isError"], "%s %s succeeded: %v", tool, args, res["structuredContent"])
	text := obj(list(res["content"])[0])["text"].(string)
	e := errorMeta(res)
	require.Equal(s.t, class, e["code"], text)
	require.True(s.t, strings.HasPrefix(text, tool+" failed ["+class+"]: "), text)
	for _, goSpeak := range []string{"struct", "*tools.", "graphql.Error", "map[", "goroutine", "nil pointer"} {
		assert.NotContains(s.t, text, goSpeak, "no Go in what the model reads")
	}
	return text, e
}

// limitedSession is a session as alice with every write on and
// request_email_discovery limited to one call an hour.
func limitedSession(t *testing.T, writes string) *session {
	client := instantRetries(graphql.NewClient(backend(t).URL(),
		&http.Client{Transport: headers{map[string]string{"x-test-user": "nextstep-" + t.Name()}, http.DefaultTransport}}, 0))
	muts, err := parseMutations(writes)
	require.NoError(t, err)
	srv, _ := NewMCPServer(Parts{
		Reader: query.NewReader(client), Writer: mutation.NewWriter(client), Mutations: muts,
		Limiter: ratelimit.New(map[string]ratelimit.Limit{"request_email_discovery": {Count: 1, Period: time.Hour}}),
		Runtime: tools.Runtime{Logger: slog.New(slog.DiscardHandler)}, Version: "test", ValidateOutput: true,
	})
	return &session{t: t, s: srv, caller: tools.Caller{ID: "nextstep-" + t.Name(), AuthMethod: "oidc"}}
}

// Every tool's failures, met over real HTTP against the embedded backend,
// name the tool and the class, keep the backend's words, and say what to
// do next.
func TestEveryToolsErrorsSayTheNextStep(t *testing.T) {
	s := limitedSession(t, "true")
	eleven := `["a","b","c","d","e","f","g","h","i","j","k"]`
	ids := make([]string, 51)
	for i := range ids {
		ids[i] = fmt.Sprintf("%q", fmt.Sprintf("cmp_%06d", i+1))
	}
	tests := []struct {
		tool, args, class string
		want              []string
	}{
		{"search_companies", `{"categories":["AI"]}`, "invalid_arguments", []string{`unknown category "AI"`, `did you mean "AI & Machine Learning"`, "companies://filters"}},
		{"search_companies", `{"country":"Atlantis"}`, "invalid_arguments", []string{`unknown country "Atlantis"`, "companies://filters"}},
		{"search_companies", `{"query":"x","limit":500}`, "invalid_arguments", []string{"limit: expected an integer from 1 to 100, got 500"}},
		{"search_companies", `{"query":"x","categories":` + eleven + `}`, "invalid_arguments", []string{"at most 10 categories per call, got 11"}},
		{"search_companies", `{"min_employees":500,"max_employees":50}`, "invalid_arguments", []string{"give a min no larger than the max"}},
		{"get_company", `{"id":"cmp_999999"}`, "not_found", []string{`"cmp_999999"`, "find ids with search_companies or ai_search"}},
		{"get_companies_batch", `{"ids":[` + strings.Join(ids, ",") + `]}`, "invalid_arguments", []string{"at most 50 distinct ids per call, got 51", "split them"}},
		{"ai_search", `{"query":"` + strings.Repeat("x", 501) + `"}`, "invalid_arguments", []string{"at most 500 characters"}},
		{"list_collections", `{"limit":0}`, "invalid_arguments", []string{"from 1 to 100"}},
		{"get_collection_items", `{"collection_id":"col_nope"}`, "not_found", []string{`collection "col_nope" not found`, "list_collections lists your collections"}},
		{"create_collection", `{"name":""}`, "invalid_arguments", []string{"name: expected a non-empty string of at most 100 characters"}},
		{"add_to_collection", `{"collection_id":"col_nope","company_ids":["cmp_000001"]}`, "not_found", []string{`collection "col_nope" not found`, "list_collections lists your collections"}},
		{"add_to_collection", `{"collection_id":"col_nope","company_ids":["cmp_000001"],"dry_run":true}`, "not_found", []string{`collection "col_nope" not found`, "list_collections"}},
		{"remove_from_collection", `{"collection_id":"col_nope","company_ids":["cmp_000001"]}`, "not_found", []string{`collection "col_nope" not found`, "list_collections lists your collections"}},
		{"remove_from_collection", `{"collection_id":"col_nope","company_ids":["cmp_000001"],"dry_run":true}`, "not_found", []string{`collection "col_nope" not found`, "list_collections"}},
		{"request_email_discovery", `{"company_id":"cmp_000001","roles":` + eleven + `}`, "invalid_arguments", []string{"at most 10 roles per call, got 11"}},
		{"request_email_discovery", `{"company_id":"cmp_999999"}`, "not_found", []string{`company "cmp_999999" not found`, "find company ids with search_companies"}},
	}
	covered := map[string]bool{}
	for _, tt := range tests {
		text, e := s.refusal(tt.tool, tt.args, tt.class)
		for _, w := range tt.want {
			assert.Contains(t, text, w, "%s %s", tt.tool, tt.args)
		}
		assert.Equal(t, tt.tool, e["tool"])
		covered[tt.tool] = true
	}
	assert.Len(t, covered, len(catalogueFacts(false)), "every tool")

	// The unknown company spent no token: with one call an hour, the call
	// with the right id still goes through.
	job := s.ok("request_email_discovery", `{"company_id":"cmp_000001","roles":["CEO"]}`)
	assert.NotEmpty(t, obj(job["job"])["id"])
	s.refusal("request_email_discovery", `{"company_id":"cmp_000002"}`, "rate_limited")
}

// With writes off, each write tool says it is the server's setting, how the
// user changes it, and not to retry.
func TestDisabledWritesTellTheUserHowToEnableThem(t *testing.T) {
	s := limitedSession(t, "create_collection")
	for tool, args := range map[string]string{
		"add_to_collection":       `{"collection_id":"col_1","company_ids":["cmp_000001"]}`,
		"request_email_discovery": `{"company_id":"cmp_000001"}`,
		"remove_from_collection":  `{"collection_id":"col_1","company_ids":["cmp_000001"]}`,
	} {
		text, e := s.refusal(tool, args, "mutations_disabled")
		assert.Equal(t, false, e["retryable"])
		assert.Contains(t, text, "--allow-mutations="+tool)
		assert.Contains(t, text, "ALLOW_MUTATIONS")
		assert.Contains(t, text, "Tell the user; retrying will not help")
	}
}

// ai_search returns what it understood as fields, says what it could not
// express, and its paging note repeats every constraint as the
// search_companies call that continues it; that call finds what ai_search
// counted (the story: a note that dropped the size bounds).
func TestAiSearchInterpretationIsStructuredAndItsPagingNoteLosesNothing(t *testing.T) {
	s := asUser(t, "alice")
	sc := s.ok("ai_search", `{"query":"software companies in Germany with 20 to 500 employees founded after 2005 not in France","limit":2}`)
	in := obj(sc["interpreted"])
	assert.Equal(t, []any{"Germany"}, in["countries"])
	assert.Equal(t, []any{"Software"}, in["categories"])
	assert.EqualValues(t, 20, in["min_employees"])
	assert.EqualValues(t, 500, in["max_employees"])
	assert.EqualValues(t, 2006, in["founded_after"], "the founding year, from the backend")
	assert.Equal(t, []any{}, sc["not_applied"], "in Germany is not in France")
	note := sc["note"].(string)
	require.Greater(t, sc["total"], float64(2), "more than one page")
	const call = `call search_companies with `
	require.Contains(t, note, call)
	args := note[strings.Index(note, call)+len(call):]
	args = args[:strings.Index(args, " and follow next_cursor")]
	assert.Equal(t, `{"country":"Germany","categories":["Software"],"min_employees":20,"max_employees":500,"founded_after":2006,"limit":2}`, args)
	again := s.ok("search_companies", args)
	assert.Equal(t, sc["total"], again["total"], "the repeated search finds what ai_search counted")

	city := s.ok("ai_search", `{"query":"robotics companies in Berlin"}`)
	assert.Contains(t, city["not_applied"], `city "Berlin" (a keyword)`)
	assert.Contains(t, city["interpretation"], "Not applied: a city filter for Berlin")
	assert.Equal(t, "berlin", obj(city["interpreted"])["keywords"], "still searched, as a keyword")
}

// get_company always lists contacts: empty, with the way to get them, until
// email discovery has found some.
func TestGetCompanyAlwaysListsContacts(t *testing.T) {
	s := asUser(t, "contacts-"+t.Name())
	id := "cmp_000777"
	sc := s.ok("get_company", fmt.Sprintf(`{"id":%q}`, id))
	if len(list(obj(sc["company"])["contacts"])) == 0 {
		assert.Equal(t, []any{}, obj(sc["company"])["contacts"], "present and empty, not absent")
		assert.Contains(t, sc["note"], "request_email_discovery")
		s.ok("request_email_discovery", fmt.Sprintf(`{"company_id":%q,"roles":["CEO"]}`, id))
		sc = s.ok("get_company", fmt.Sprintf(`{"id":%q}`, id))
	}
	assert.NotEmpty(t, list(obj(sc["company"])["contacts"]), "the embedded backend completes jobs at once")
	assert.NotContains(t, fmt.Sprint(sc["note"]), "No contacts yet")
}

// research_company tells the model what to do when no company has the name
// asked for: say so and offer the near misses, never a silent substitute.
func TestResearchPromptCoversANameWithoutAnExactMatch(t *testing.T) {
	res := asUser(t, "alice").rpc("prompts/get", `{"name":"research_company","arguments":{"company":"Acme Robotcs"}}`)
	text := obj(obj(list(res["messages"])[0])["content"])["text"].(string)
	assert.Contains(t, text, "matches it exactly")
	assert.Contains(t, text, "If none does, say so, list the closest matches")
	assert.Contains(t, text, "never research a different company without saying so")
}

// A vocabulary the backend cannot serve does not block a search: the
// categories go to the backend as given, it judges them, and the answer
// says they were not checked.
func TestASearchIsNotBlockedWhenTheVocabularyCannotBeRead(t *testing.T) {
	faults := backend(t).Backend().Faults()
	require.NoError(t, faults.Add(appsynclocal.HTTPError(500).For("FilterVocabulary").ForNext(1)))
	s := asUser(t, "alice")
	sc := s.ok("search_companies", `{"categories":["Fintech"],"limit":2}`)
	assert.NotEmpty(t, list(sc["companies"]))
	assert.Contains(t, sc["note"], "not checked against companies://filters")
	// Unchecked, a near miss reaches the backend, which refuses it in its
	// own words, with the way to the values it accepts.
	text, _ := s.refusal("search_companies", `{"categories":["Fintec"]}`, "invalid_arguments")
	assert.Contains(t, text, `"categories;Fintec"`, "the backend's words")
	assert.Contains(t, text, "companies://filters lists the countries and categories")
	assert.Empty(t, faults.List(), "the fault was met once, and the failed read remembered, not retried per search")
}
