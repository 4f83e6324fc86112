package app

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/graphql"
	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/graphql/query/v1backend"
	"github.com/companyintel/mcp-server/ratelimit"
	"github.com/companyintel/mcp-server/tools"
)

// Issue 26: a search answers the question in one call, and each answer is
// compared with what the backend's GraphQL API answers to the same
// question asked directly.

// direct asks the embedded backend's searchCompanies directly, over HTTP,
// and returns the ids of the page and the total.
func direct(t *testing.T, args string) ([]string, int, bool) {
	t.Helper()
	doc := `query($keyword: String, $filters: [String!], $excludeFilters: [String!], $minEmployees: Int, $sort: CompanySort, $exactCount: Boolean, $limit: Int) {
  searchCompanies(keyword: $keyword, filters: $filters, excludeFilters: $excludeFilters, minEmployees: $minEmployees, sort: $sort, exactCount: $exactCount, limit: $limit) {
    items { id } total totalIsLowerBound } }`
	body, err := json.Marshal(map[string]any{"query": doc, "variables": json.RawMessage(args)})
	require.NoError(t, err)
	req, err := http.NewRequest(http.MethodPost, backend(t).URL(), bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("x-test-user", "direct")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var out struct {
		Data struct {
			SearchCompanies struct {
				Items []struct {
					ID string `json:"id"`
				} `json:"items"`
				Total             int  `json:"total"`
				TotalIsLowerBound bool `json:"totalIsLowerBound"`
			} `json:"searchCompanies"`
		} `json:"data"`
		Errors []any `json:"errors"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
	require.Empty(t, out.Errors)
	var ids []string
	for _, c := range out.Data.SearchCompanies.Items {
		ids = append(ids, c.ID)
	}
	return ids, out.Data.SearchCompanies.Total, out.Data.SearchCompanies.TotalIsLowerBound
}

// ids returns the ids of a search answer's companies.
func ids(sc map[string]any) []string {
	var out []string
	for _, c := range list(sc["companies"]) {
		out = append(out, obj(c)["id"].(string))
	}
	return out
}

func strs(v any) []string {
	var out []string
	for _, s := range list(v) {
		out = append(out, s.(string))
	}
	return out
}

func TestTheNLargestOfAKindInACountryIsOneCall(t *testing.T) {
	s := asUser(t, "alice")
	sc := s.ok("search_companies", `{"country":"US","categories":["Software"],"sort":"employees_desc","limit":5,"fields":["employee_count"]}`)
	want, total, _ := direct(t, `{"filters":["countries;United States","categories;Software"],"sort":"EMPLOYEES_DESC","limit":5}`)
	require.Len(t, want, 5)
	assert.Equal(t, want, ids(sc))
	assert.Equal(t, float64(total), sc["total"])
	var last float64 = 1 << 30
	for _, c := range list(sc["companies"]) {
		n := obj(c)["employee_count"].(float64)
		assert.LessOrEqual(t, n, last, "largest first")
		last = n
	}
	assert.Equal(t, []string{"countries;United States", "categories;Software", "sort;employees_desc"}, strs(sc["applied_filters"]))
	assert.Nil(t, sc["not_applied"])
}

func TestSeveralCountriesAreOneCall(t *testing.T) {
	s := asUser(t, "alice")
	sc := s.ok("search_companies", `{"country":"DE,FR,Italy","limit":50,"ids_only":true}`)
	want, total, _ := direct(t, `{"filters":["countries;Germany","countries;France","countries;Italy"],"limit":50}`)
	assert.Equal(t, want, ids(sc))
	assert.Equal(t, float64(total), sc["total"])
	assert.Equal(t, []string{"countries;Germany", "countries;France", "countries;Italy"}, strs(sc["applied_filters"]))
	assert.Contains(t, sc["note"], `Country "DE" was read as Germany.`)
}

func TestExceptACountryIsOneCall(t *testing.T) {
	s := asUser(t, "alice")
	sc := s.ok("search_companies", `{"query":"software","exclude_countries":"US","exclude_categories":["fintech"],"limit":30,"fields":["country_code","categories"]}`)
	want, total, _ := direct(t, `{"keyword":"software","excludeFilters":["countries;United States","categories;Fintech"],"limit":30}`)
	require.NotEmpty(t, want)
	assert.Equal(t, want, ids(sc))
	assert.Equal(t, float64(total), sc["total"])
	for _, c := range list(sc["companies"]) {
		assert.NotEqual(t, "US", obj(c)["country_code"])
		assert.NotContains(t, obj(c)["categories"], "Fintech")
	}
	assert.Equal(t, []string{"keyword;software", "not countries;United States", "not categories;Fintech"}, strs(sc["applied_filters"]))
}

func TestAppliedFiltersNameTheBoundsApplied(t *testing.T) {
	sc := asUser(t, "alice").ok("search_companies", `{"country":"GB","min_employees":50,"max_employees":1000,"founded_after":2010,"limit":1}`)
	assert.Equal(t, []string{"countries;United Kingdom", "employees;50..1000", "founded;2010.."}, strs(sc["applied_filters"]))
}

// A total past the backend's counting is a lower bound, in a field and in
// words, with the way to the exact figure; the exact figure is one call
// more, and agrees with the backend's own exact count.
func TestALowerBoundSaysSoAndTheExactCountIsOneCallMore(t *testing.T) {
	s := asUser(t, "alice")
	// A bound makes the backend count matches one by one, up to 1,000.
	args := `{"min_employees":1,"limit":5}`
	sc := s.ok("search_companies", args)
	_, capped, lower := direct(t, `{"minEmployees":1,"limit":5}`)
	require.True(t, lower, "the test needs a search past the backend's counting")
	assert.Equal(t, true, sc["total_is_lower_bound"])
	assert.Equal(t, float64(capped), sc["total"])
	assert.Contains(t, sc["note"], fmt.Sprintf("at least %d companies", capped))
	assert.Contains(t, sc["note"], "count_only: true")

	exact := s.ok("search_companies", `{"min_employees":1,"count_only":true}`)
	_, want, lower := direct(t, `{"minEmployees":1,"exactCount":true,"limit":1}`)
	require.False(t, lower)
	assert.Greater(t, want, capped)
	assert.Equal(t, float64(want), exact["total"])
	assert.Equal(t, false, exact["total_is_lower_bound"])
	assert.Empty(t, list(exact["companies"]))
	assert.Contains(t, exact["note"], fmt.Sprintf("Exactly %d companies match", want))
	assert.Contains(t, strs(exact["applied_filters"]), "count;exact")
}

// A twenty-company answer asking for two fields costs at most a third of
// the bytes of the same answer with whole summaries (both renderings).
func TestATwoFieldProjectionIsAThirdOfTheSummary(t *testing.T) {
	s := asUser(t, "alice")
	size := func(args string) int {
		res := s.rpc("tools/call", fmt.Sprintf(`{"name":"search_companies","arguments":%s}`, args))
		require.NotEqual(t, true, res["isError"])
		b, err := json.Marshal(res)
		require.NoError(t, err)
		return len(b)
	}
	full := size(`{"country":"US","limit":20}`)
	two := size(`{"country":"US","limit":20,"fields":["city","employee_count"]}`)
	t.Logf("20 companies: %d bytes whole, %d bytes with two fields (%.2f)", full, two, float64(two)/float64(full))
	assert.LessOrEqual(t, 3*two, full)

	sc := s.ok("search_companies", `{"country":"US","limit":20,"fields":["city","employee_count"]}`)
	for _, c := range list(sc["companies"]) {
		keys := []string{}
		for k := range obj(c) {
			keys = append(keys, k)
		}
		assert.ElementsMatch(t, []string{"id", "city", "employee_count"}, keys)
	}
}

// Against a backend on the original schema, each exclusion, the order and
// the exact count are named in not_applied, and the answer says what to do;
// nothing is dropped unsaid.
func TestOriginalSchemaBackendReportsEachExtensionNotApplied(t *testing.T) {
	v1, err := v1backend.Start(backend(t).URL())
	require.NoError(t, err)
	t.Cleanup(v1.Close)
	client := instantRetries(graphql.NewClient(v1.URL(), &http.Client{Transport: headers{map[string]string{"x-test-user": "v1"}, http.DefaultTransport}}, 0))
	srv, _ := NewMCPServer(Parts{
		Reader:         query.NewReader(client),
		Limiter:        ratelimit.New(nil),
		Runtime:        tools.Runtime{Logger: slog.New(slog.DiscardHandler)},
		Version:        "test",
		ValidateOutput: true,
	})
	s := &session{t: t, s: srv, caller: tools.Caller{ID: "it", AuthMethod: "oidc"}}
	for _, tc := range []struct{ args, want string }{
		{`{"query":"software","sort":"employees_desc"}`, "sort;employees_desc"},
		{`{"query":"software","exclude_countries":"DE"}`, "not countries;Germany"},
		{`{"query":"software","exclude_categories":["Fintech"]}`, "not categories;Fintech"},
		{`{"query":"software","count_only":true}`, "count;exact"},
	} {
		sc := s.ok("search_companies", tc.args)
		assert.Equal(t, []string{tc.want}, strs(sc["not_applied"]), tc.args)
		assert.NotContains(t, strs(sc["applied_filters"]), tc.want, tc.args)
		assert.Contains(t, sc["note"], "Not applied", tc.args)
	}
}

// readResource reads a resource as the session's caller; a refusal is
// returned as the JSON-RPC error's message.
func (s *session) readResource(uri string) (map[string]any, string) {
	s.t.Helper()
	msg := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"_meta":%s,"uri":%q}}`, modernMeta, uri)
	resp := s.s.HandleMessage(tools.WithCaller(context.Background(), s.caller), json.RawMessage(msg))
	b, err := json.Marshal(resp)
	require.NoError(s.t, err)
	var out struct {
		Result map[string]any `json:"result"`
		Error  *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	require.NoError(s.t, json.Unmarshal(b, &out))
	if out.Error != nil {
		return nil, out.Error.Message
	}
	return obj(list(out.Result["contents"])[0]), ""
}

// An export of a search of more than 1,000 companies is one tool call and
// one resource read, and the file holds every company the backend lists
// for that search, each once, in its order.
func TestAnExportIsOneCallAndOneReadWithEveryRowOnce(t *testing.T) {
	s := asUser(t, "alice")
	res := s.rpc("tools/call", `{"name":"search_companies","arguments":{"min_employees":1,"fields":["name","city","employee_count"],"export":true}}`)
	require.NotEqual(t, true, res["isError"], "%v", res)
	var links []string
	for _, c := range list(res["content"]) {
		if obj(c)["type"] == "resource_link" {
			links = append(links, obj(c)["uri"].(string))
		}
	}
	require.Len(t, links, 2, "a CSV and a JSON-lines link: %v", res["content"])
	sc := obj(res["structuredContent"])
	total := int(sc["total"].(float64))
	require.Greater(t, total, 1000)
	assert.Equal(t, false, sc["total_is_lower_bound"], "an export is counted exactly")
	assert.Contains(t, sc["note"], links[0])

	// The truth: every page of the same search asked of the backend directly.
	r := query.NewReader(graphql.NewClient(backend(t).URL(), &http.Client{Transport: headers{map[string]string{"x-test-user": "alice"}, http.DefaultTransport}}, 0))
	var want []string
	var next *string
	for {
		limit := 100
		page, err := r.SearchCompanies(context.Background(), nil, []string{}, query.Bounds{MinEmployees: tools.Ptr(1)}, &limit, next)
		require.NoError(t, err)
		for _, c := range page.Items {
			want = append(want, c.Id)
		}
		if page.NextToken == nil {
			break
		}
		next = page.NextToken
	}
	require.Len(t, want, total)

	content, refused := s.readResource(links[0])
	require.Empty(t, refused)
	assert.Equal(t, "text/csv", content["mimeType"])
	rows, err := csv.NewReader(strings.NewReader(content["text"].(string))).ReadAll()
	require.NoError(t, err)
	assert.Equal(t, []string{"id", "name", "city", "employee_count"}, rows[0])
	var got []string
	for _, row := range rows[1:] {
		got = append(got, row[0])
	}
	assert.Equal(t, want, got, "every row once, in the search's order")
	t.Logf("%d rows, %d bytes of CSV", len(got), len(content["text"].(string)))

	content, refused = s.readResource(links[1])
	require.Empty(t, refused)
	lines := strings.Split(strings.TrimSuffix(content["text"].(string), "\n"), "\n")
	require.Len(t, lines, total)
	var first map[string]any
	require.NoError(t, json.Unmarshal([]byte(lines[0]), &first))
	assert.Equal(t, want[0], first["id"])
	assert.Contains(t, first, "employee_count")

	// Someone else's read, and an altered link, are refused before any
	// backend call.
	other := *s
	other.caller = tools.Caller{ID: "someone-else", AuthMethod: "oidc"}
	_, refused = other.readResource(links[0])
	assert.Contains(t, refused, "made for another caller")
	altered := links[0][:len(links[0])-10] + "AAAAAA.csv"
	_, refused = s.readResource(altered)
	assert.Contains(t, refused, "altered")
}
