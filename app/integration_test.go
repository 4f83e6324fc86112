package app

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/appsynclocal"
	"github.com/companyintel/mcp-server/appsynclocal/dataset"
	"github.com/companyintel/mcp-server/graphql"
	"github.com/companyintel/mcp-server/graphql/mutation"
	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/internal/country"
	"github.com/companyintel/mcp-server/ratelimit"
	"github.com/companyintel/mcp-server/tools"
)

// These tests run every tool against the embedded backend over real HTTP:
// the generated client, the backend's auth, its errors and its faults.

var (
	backendOnce sync.Once
	backendSrv  *appsynclocal.Server
	backendErr  error
	backendDir  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if backendSrv != nil {
		backendSrv.Close()
	}
	if backendDir != "" {
		os.RemoveAll(backendDir)
	}
	os.Exit(code)
}

// backend starts one small backend for the package: 2,000 companies, email
// jobs that complete at once, and a header naming the user in place of an
// OIDC token (the auth tests exercise real tokens).
func backend(t *testing.T) *appsynclocal.Server {
	t.Helper()
	backendOnce.Do(func() {
		backendDir, backendErr = os.MkdirTemp("", "app-integration-")
		if backendErr != nil {
			return
		}
		backendSrv, backendErr = appsynclocal.Start(appsynclocal.Config{
			DataDir:        backendDir,
			Companies:      2000,
			Authenticators: []appsynclocal.Authenticator{appsynclocal.StaticAuthenticator{}},
		}, "127.0.0.1:0")
	})
	require.NoError(t, backendErr)
	return backendSrv
}

// headers adds fixed headers to each request.
type headers struct {
	h    map[string]string
	base http.RoundTripper
}

func (t headers) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range t.h {
		r.Header.Set(k, v)
	}
	return t.base.RoundTrip(r)
}

// session is an MCP server wired to the backend as one user.
type session struct {
	t      *testing.T
	s      *server.MCPServer
	caller tools.Caller
}

func newSession(t *testing.T, hdrs map[string]string, timeout time.Duration) *session {
	return newBoundedSession(t, hdrs, timeout, 0)
}

// newBoundedSession is newSession with an answer bound (0: the default).
func newBoundedSession(t *testing.T, hdrs map[string]string, timeout time.Duration, answerBound int) *session {
	srv := backend(t)
	client := instantRetries(graphql.NewClient(srv.URL(), &http.Client{Transport: headers{hdrs, http.DefaultTransport}}, timeout))
	all, err := parseMutations("true")
	require.NoError(t, err)
	s, _ := NewMCPServer(Parts{
		Reader:         query.NewReader(client),
		Writer:         mutation.NewWriter(client),
		Mutations:      all,
		Limiter:        ratelimit.New(nil),
		Runtime:        tools.Runtime{Logger: slog.New(slog.DiscardHandler), AnswerBound: answerBound},
		Version:        "test",
		ValidateOutput: true,
	})
	return &session{t: t, s: s, caller: tools.Caller{ID: "it", AuthMethod: "oidc"}}
}

func asUser(t *testing.T, user string) *session {
	return newSession(t, map[string]string{"x-test-user": user}, 0)
}

// rpc sends one request through the server, as a client's would arrive.
func (s *session) rpc(method, params string) map[string]any {
	s.t.Helper()
	msg := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":%q,"params":%s}`, method, strings.Replace(params, "{", `{"_meta":`+modernMeta+`,`, 1))
	resp := s.s.HandleMessage(tools.WithCaller(context.Background(), s.caller), json.RawMessage(msg))
	b, err := json.Marshal(resp)
	require.NoError(s.t, err)
	var out map[string]any
	require.NoError(s.t, json.Unmarshal(b, &out))
	require.Nil(s.t, out["error"], "%s failed: %s", method, b)
	return out["result"].(map[string]any)
}

// call runs a tool and returns its structuredContent and isError. A failure
// has no structuredContent; call returns its _meta error details as "error".
func (s *session) call(tool, args string) (map[string]any, bool) {
	s.t.Helper()
	res := s.rpc("tools/call", fmt.Sprintf(`{"name":%q,"arguments":%s}`, tool, args))
	sc, _ := res["structuredContent"].(map[string]any)
	isErr, _ := res["isError"].(bool)
	if isErr {
		require.Nil(s.t, sc, "a failed result carries structuredContent")
		return map[string]any{"error": errorMeta(res)}, true
	}
	return sc, isErr
}

// errorMeta returns the error details of a failed result, as a client
// reads them from _meta.
func errorMeta(result map[string]any) map[string]any {
	return obj(obj(result["_meta"])[tools.ErrorMetaKey])
}

func (s *session) ok(tool, args string) map[string]any {
	s.t.Helper()
	sc, isErr := s.call(tool, args)
	require.False(s.t, isErr, "%s failed: %v", tool, sc["error"])
	return sc
}

func (s *session) fails(tool, args, class string) map[string]any {
	s.t.Helper()
	sc, isErr := s.call(tool, args)
	require.True(s.t, isErr, "%s succeeded: %v", tool, sc)
	e := sc["error"].(map[string]any)
	require.Equal(s.t, class, e["code"], "%v", e)
	return e
}

func list(v any) []any { l, _ := v.([]any); return l }

func obj(v any) map[string]any { m, _ := v.(map[string]any); return m }

func TestSearchByCountryCodeReturnsOnlyThatCountry(t *testing.T) {
	s := asUser(t, "alice")
	sc := s.ok("search_companies", `{"country":"US","limit":100}`)
	companies := list(sc["companies"])
	require.NotEmpty(t, companies)
	assert.Greater(t, sc["total"], float64(len(companies)), "a 2,000-company set has more than 100 US companies")
	for _, c := range companies {
		assert.Equal(t, "US", obj(c)["country_code"])
		assert.Equal(t, "US", obj(c)["country_code"])
	}
	assert.Equal(t, []any{"countries;United States"}, sc["applied_filters"])

	next := s.ok("search_companies", fmt.Sprintf(`{"country":"USA","limit":100,"cursor":%q}`, sc["next_cursor"]))
	assert.NotEqual(t, obj(companies[0])["id"], obj(list(next["companies"])[0])["id"], "the cursor moves to the next page")
}

func TestSearchByKeywordAndCategory(t *testing.T) {
	s := asUser(t, "alice")
	sc := s.ok("search_companies", `{"categories":["Software"],"limit":5}`)
	for _, c := range list(sc["companies"]) {
		assert.Contains(t, obj(c)["categories"], "Software")
	}
	e := s.fails("search_companies", `{"categories":["No Such Category"]}`, "invalid_arguments")
	assert.Contains(t, e["message"], `unknown category "No Such Category"`)
}

// Categories are checked against the vocabulary the backend serves before
// any search: a model's near miss is refused with the names it meant, a
// difference of case is corrected and said, and a real country the data has
// no company in is an empty answer that says what the data covers.
func TestSearchFiltersAreCheckedAgainstTheBackendsVocabulary(t *testing.T) {
	counter := &countingTransport{base: headers{map[string]string{"x-test-user": "alice"}, http.DefaultTransport}}
	client := instantRetries(graphql.NewClient(backend(t).URL(), &http.Client{Transport: counter}, 0))
	srv, _ := NewMCPServer(Parts{Reader: query.NewReader(client), Limiter: ratelimit.New(nil),
		Runtime: tools.Runtime{Logger: slog.New(slog.DiscardHandler)}, Version: "test", ValidateOutput: true})
	s := &session{t: t, s: srv, caller: tools.Caller{ID: "alice", AuthMethod: "oidc"}}

	e := s.fails("search_companies", `{"categories":["AI"]}`, "invalid_arguments")
	assert.Contains(t, e["message"], `did you mean "AI & Machine Learning"`)
	assert.Contains(t, e["message"], "companies://filters")
	assert.Equal(t, []any{"AI & Machine Learning"}, obj(list(e["fields"])[0])["did_you_mean"])
	e = s.fails("search_companies", `{"categories":["Robotic","Fintec"]}`, "invalid_arguments")
	require.Len(t, list(e["fields"]), 2, "every unknown category is named at once")
	assert.Equal(t, "Robotics", list(obj(list(e["fields"])[0])["did_you_mean"])[0])
	assert.Equal(t, "Fintech", list(obj(list(e["fields"])[1])["did_you_mean"])[0])
	assert.Equal(t, []string{"FilterVocabulary"}, counter.sent, "refused before any search; the vocabulary read once and cached")

	sc := s.ok("search_companies", `{"categories":["fintech"],"limit":3}`)
	assert.Equal(t, []any{"categories;Fintech"}, sc["applied_filters"])
	assert.Contains(t, sc["note"], `Category "fintech" was read as Fintech.`)
	require.NotEmpty(t, list(sc["companies"]))

	sc = s.ok("search_companies", `{"country":"Fiji"}`)
	assert.Equal(t, []any{}, sc["companies"])
	assert.EqualValues(t, 0, sc["total"])
	assert.Contains(t, sc["note"], "No company in the data is in Fiji")
	assert.Contains(t, sc["note"], "the most common United States (")
	assert.Equal(t, []string{"FilterVocabulary", "SearchCompanies"}, counter.sent, "Fiji never reached the backend")
}

// min_employees/max_employees are backend filters: every company returned is
// inside the inclusive band, and fewer match than without it.
func TestSearchEmployeeBandFilters(t *testing.T) {
	s := asUser(t, "alice")
	all := s.ok("search_companies", `{"country":"US","limit":100}`)
	band := s.ok("search_companies", `{"country":"US","min_employees":50,"max_employees":500,"limit":100}`)
	companies := list(band["companies"])
	require.NotEmpty(t, companies, "the demo data has mid-sized US companies")
	assert.Less(t, band["total"], all["total"], "the band leaves some US companies out")
	for _, c := range companies {
		assert.GreaterOrEqual(t, obj(c)["employee_count"], float64(50), "%v", obj(c)["id"])
		assert.LessOrEqual(t, obj(c)["employee_count"], float64(500), "%v", obj(c)["id"])
	}
	// Founding years are inclusive: a one-year range returns that year only.
	year := s.ok("search_companies", `{"founded_after":2015,"founded_before":2015,"limit":100}`)
	require.NotEmpty(t, list(year["companies"]))
	for _, c := range list(year["companies"]) {
		assert.EqualValues(t, 2015, obj(c)["founded_year"], "%v", obj(c)["id"])
	}
}

func TestVocabularyAgreesWithCountryNormalisation(t *testing.T) {
	s := asUser(t, "alice")
	res := s.rpc("resources/read", `{"uri":"companies://filters"}`)
	var v vocabulary
	require.NoError(t, json.Unmarshal([]byte(obj(list(res["contents"])[0])["text"].(string)), &v))
	require.NotEmpty(t, v.Countries)
	require.NotEmpty(t, v.Categories)
	for _, c := range v.Countries {
		got, ok := country.ByAlpha2(c.Code)
		if assert.True(t, ok, "backend country code %q", c.Code) {
			assert.Equal(t, c.Name, got.Name, "the tool would send countries;%s, the backend knows %s", got.Name, c.Name)
		}
	}
}

func TestGetCompanyAndBatch(t *testing.T) {
	s := asUser(t, "alice")
	first := list(s.ok("search_companies", `{"query":"software","limit":3}`)["companies"])
	require.Len(t, first, 3)
	a, b := obj(first[0])["id"].(string), obj(first[1])["id"].(string)

	sc := s.ok("get_company", fmt.Sprintf(`{"id":%q}`, a))
	assert.Equal(t, a, obj(sc["company"])["id"])
	s.fails("get_company", `{"id":"cmp_999999"}`, "not_found")

	sc = s.ok("get_companies_batch", fmt.Sprintf(`{"ids":[%q,%q,%q,"cmp_999999"]}`, b, a, b))
	got := list(sc["companies"])
	require.Len(t, got, 2)
	assert.Equal(t, b, obj(got[0])["id"], "order kept")
	assert.Equal(t, a, obj(got[1])["id"])
	assert.Equal(t, []any{b}, sc["duplicates_dropped"])
	assert.Equal(t, []any{"cmp_999999"}, sc["not_found"])
}

func TestAiSearchInterprets(t *testing.T) {
	s := asUser(t, "alice")
	sc := s.ok("ai_search", `{"query":"software companies in Germany with over 100 employees","limit":5}`)
	assert.Equal(t, []any{"Germany"}, obj(sc["interpreted"])["countries"])
	assert.NotEmpty(t, sc["interpretation"])
	for _, c := range list(sc["companies"]) {
		assert.Equal(t, "DE", obj(c)["country_code"])
		assert.GreaterOrEqual(t, obj(c)["employee_count"], float64(100))
	}
}

// An exclusion the backend cannot express is not applied, and the answer
// says so in words and in not_applied: the search runs as if it were not
// there, rather than filtering for Germany (issue 16).
func TestAiSearchExcludesANegatedCountry(t *testing.T) {
	s := asUser(t, "alice")
	sc := s.ok("ai_search", `{"query":"software companies not in Germany with over 100 employees","limit":50}`)
	in := obj(sc["interpreted"])
	assert.Equal(t, []any{"Software"}, in["categories"])
	assert.Equal(t, []any{}, in["countries"])
	assert.Equal(t, []any{"Germany"}, in["exclude_countries"])
	assert.Equal(t, []any{}, sc["not_applied"])
	assert.Contains(t, sc["interpretation"], "not based in Germany")
	require.NotEmpty(t, list(sc["companies"]))
	for _, c := range list(sc["companies"]) {
		assert.NotEqual(t, "DE", obj(c)["country_code"])
	}
	with := s.ok("search_companies", `{"categories":["Software"],"exclude_countries":"Germany","min_employees":101,"count_only":true}`)
	assert.Equal(t, with["total"], sc["total"], "the backend's own filtered count")
}

// A size word and an explicit band: the band is searched, and the answer
// names the word it overrode (issue 16).
func TestAiSearchExplicitBandOverridesASizeWord(t *testing.T) {
	s := asUser(t, "alice")
	sc := s.ok("ai_search", `{"query":"fintech startups in the US with 50 to 200 employees","limit":50}`)
	assert.EqualValues(t, 50, obj(sc["interpreted"])["min_employees"])
	assert.EqualValues(t, 200, obj(sc["interpreted"])["max_employees"])
	assert.Contains(t, sc["interpretation"], `which overrides the size word "startups"`)
	assert.Equal(t, []any{}, sc["not_applied"])
	require.NotEmpty(t, list(sc["companies"]), "the 2,000 companies have mid-sized US fintechs")
	for _, c := range list(sc["companies"]) {
		assert.Equal(t, "US", obj(c)["country_code"])
		assert.GreaterOrEqual(t, obj(c)["employee_count"], float64(50))
		assert.LessOrEqual(t, obj(c)["employee_count"], float64(200))
	}
}

func TestCollectionsLifecycle(t *testing.T) {
	s := asUser(t, "bob-"+t.Name())
	ids := list(s.ok("search_companies", `{"query":"logistics","limit":3}`)["companies"])
	require.Len(t, ids, 3)
	id0, id1 := obj(ids[0])["id"].(string), obj(ids[1])["id"].(string)

	first := s.ok("create_collection", `{"name":"Shortlist","description":"for the demo"}`)
	assert.Equal(t, true, first["created"])
	again := s.ok("create_collection", `{"name":"Shortlist"}`)
	assert.Equal(t, false, again["created"])
	assert.Contains(t, again["note"], "already existed")
	colID := obj(first["collection"])["id"].(string)
	assert.Equal(t, colID, obj(again["collection"])["id"])

	lists := s.ok("list_collections", `{}`)
	assert.EqualValues(t, 1, lists["total"], "the same name twice leaves one collection")

	add := s.ok("add_to_collection", fmt.Sprintf(`{"collection_id":%q,"company_ids":[%q,%q]}`, colID, id0, id1))
	assert.Equal(t, []any{id0, id1}, add["added"])
	add = s.ok("add_to_collection", fmt.Sprintf(`{"collection_id":%q,"company_ids":[%q,"cmp_999999",%q]}`, colID, id1, id1))
	assert.Equal(t, []any{}, add["added"])
	assert.Equal(t, []any{id1}, add["already_present"])
	assert.Equal(t, []any{"cmp_999999"}, add["not_found"])
	assert.Equal(t, []any{id1}, add["duplicates_dropped"])

	items := s.ok("get_collection_items", fmt.Sprintf(`{"collection_id":%q,"limit":1}`, colID))
	assert.EqualValues(t, 2, items["total"])
	assert.Equal(t, id0, obj(obj(list(items["items"])[0])["company"])["id"], "in the order added")
	require.NotEmpty(t, items["next_cursor"])
	items = s.ok("get_collection_items", fmt.Sprintf(`{"collection_id":%q,"limit":1,"cursor":%q}`, colID, items["next_cursor"]))
	assert.Equal(t, id1, obj(obj(list(items["items"])[0])["company"])["id"])

	// Removing is safe to repeat: the second time the id is not present.
	removed := s.ok("remove_from_collection", fmt.Sprintf(`{"collection_id":%q,"company_ids":[%q,"cmp_999999"]}`, colID, id0))
	assert.Equal(t, []any{id0}, removed["removed"])
	assert.Equal(t, []any{"cmp_999999"}, removed["not_present"])
	assert.EqualValues(t, 1, obj(removed["collection"])["item_count"])
	removed = s.ok("remove_from_collection", fmt.Sprintf(`{"collection_id":%q,"company_ids":[%q]}`, colID, id0))
	assert.Equal(t, []any{}, removed["removed"])
	assert.Equal(t, []any{id0}, removed["not_present"])
	items = s.ok("get_collection_items", fmt.Sprintf(`{"collection_id":%q}`, colID))
	assert.EqualValues(t, 1, items["total"])
	assert.Equal(t, id1, obj(obj(list(items["items"])[0])["company"])["id"])

	// Another user cannot see it.
	other := asUser(t, "mallory-"+t.Name())
	other.fails("get_collection_items", fmt.Sprintf(`{"collection_id":%q}`, colID), "not_found")
	assert.EqualValues(t, 0, other.ok("list_collections", `{}`)["total"])
}

func TestEmailDiscoveryAttachesContacts(t *testing.T) {
	s := asUser(t, "carol")
	id := obj(list(s.ok("search_companies", `{"query":"software","limit":1}`)["companies"])[0])["id"].(string)
	job := obj(s.ok("request_email_discovery", fmt.Sprintf(`{"company_id":%q,"roles":["CEO"]}`, id))["job"])
	assert.Equal(t, id, job["company_id"])
	assert.Contains(t, []any{"PENDING", "RUNNING", "COMPLETED"}, job["status"])
	s.fails("request_email_discovery", `{"company_id":"cmp_999999"}`, "not_found")
}

func TestAPIKeyReadsCompaniesButNotCollections(t *testing.T) {
	s := newSession(t, map[string]string{"x-api-key": backend(t).Backend().APIKey()}, 0)
	s.caller = tools.Caller{ID: "api-key", AuthMethod: "apikey"}
	s.ok("search_companies", `{"query":"software","limit":1}`)
	e := s.fails("list_collections", `{}`, "unauthorized")
	assert.Contains(t, e["message"], "Not Authorized to access listCollections on type Query")
	assert.Contains(t, e["message"], "OIDC or IAM")

	nobody := newSession(t, nil, 0)
	e = nobody.fails("search_companies", `{"query":"x"}`, "unauthorized")
	assert.EqualValues(t, 401, obj(e["backend"])["status"])
}

// Faults are injected per operation and for the next request only, so the
// tests that share the backend do not see them.
func TestBackendFaultsBecomeErrorClasses(t *testing.T) {
	faults := backend(t).Backend().Faults()
	tests := []struct {
		name      string
		fault     appsynclocal.Fault
		times     int // how many requests in a row meet the fault
		timeout   time.Duration
		class     string
		retryable bool
		check     func(t *testing.T, e map[string]any)
	}{
		{"latency past the deadline", appsynclocal.Latency(2 * time.Second), 1, 200 * time.Millisecond, "backend_timeout", true, nil},
		{"502 from a load balancer on every attempt", appsynclocal.HTTPError(502), 3, 0, "backend_error", true, func(t *testing.T, e map[string]any) {
			assert.EqualValues(t, 502, obj(e["backend"])["status"])
			assert.NotEmpty(t, obj(e["backend"])["body"])
			assert.Contains(t, e["message"], "after 3 attempts")
		}},
		{"throttling on every attempt", appsynclocal.Throttle(3 * time.Second), 3, 0, "rate_limited", true, func(t *testing.T, e map[string]any) {
			assert.EqualValues(t, 3, e["retry_after_s"])
		}},
		{"malformed body", appsynclocal.Malformed(), 1, 0, "backend_error", true, func(t *testing.T, e map[string]any) {
			assert.Contains(t, e["message"], "not a GraphQL response")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.NoError(t, faults.Add(tt.fault.For("SearchCompanies").ForNext(tt.times)))
			s := newSession(t, map[string]string{"x-test-user": "dave"}, tt.timeout)
			e := s.fails("search_companies", `{"query":"software"}`, tt.class)
			assert.Equal(t, tt.retryable, e["retryable"])
			if tt.check != nil {
				tt.check(t, e)
			}
		})
	}
}

func TestOneTransientFailureIsRetriedWithinTheCall(t *testing.T) {
	faults := backend(t).Backend().Faults()
	for _, f := range []appsynclocal.Fault{appsynclocal.HTTPError(502), appsynclocal.HTTPError(503), appsynclocal.Throttle(time.Second)} {
		require.NoError(t, faults.Add(f.For("SearchCompanies").ForNext(1)))
		s := newSession(t, map[string]string{"x-test-user": "dave"}, 0)
		sc := s.ok("search_companies", `{"query":"software","limit":2}`)
		assert.Len(t, list(sc["companies"]), 2, "%s", f)
	}
}

// instantRetries gives c the default retry policy without its waits: no
// test sleeps for real.
func instantRetries(c *graphql.Client) *graphql.Client {
	p := graphql.DefaultRetry
	p.Sleep = func(ctx context.Context, _ time.Duration) error { return ctx.Err() }
	c.SetRetry(p)
	return c
}

func TestPromptsAndStatus(t *testing.T) {
	s := asUser(t, "alice")
	for _, p := range []string{`{"name":"research_company","arguments":{"company":"cmp_000001"}}`,
		`{"name":"build_prospect_list","arguments":{"description":"fintech in Germany","collection_name":"DE fintech"}}`} {
		res := s.rpc("prompts/get", p)
		assert.NotEmpty(t, list(res["messages"]))
	}
	res := s.rpc("resources/read", `{"uri":"companies://server/status"}`)
	var st Status
	require.NoError(t, json.Unmarshal([]byte(obj(list(res["contents"])[0])["text"].(string)), &st))
	assert.True(t, st.Mutations.Enabled)
	assert.Len(t, st.Tools, 10)
	require.NotNil(t, st.Data, "the embedded backend states its reference date")
	assert.Equal(t, dataset.ReferenceDate.Format(time.DateOnly), st.Data.ReferenceDate)
}

// countingTransport counts the requests that reach the backend.
type countingTransport struct {
	mu   sync.Mutex
	sent []string
	base http.RoundTripper
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	body, err := r.GetBody()
	if err == nil {
		var req struct {
			OperationName string `json:"operationName"`
		}
		_ = json.NewDecoder(body).Decode(&req)
		c.mu.Lock()
		c.sent = append(c.sent, req.OperationName)
		c.mu.Unlock()
	}
	return c.base.RoundTrip(r)
}

func TestDisabledWritesNeverReachTheBackend(t *testing.T) {
	for _, hide := range []bool{false, true} {
		t.Run(fmt.Sprintf("hide=%v", hide), func(t *testing.T) {
			counter := &countingTransport{base: headers{map[string]string{"x-test-user": "gina"}, http.DefaultTransport}}
			client := instantRetries(graphql.NewClient(backend(t).URL(), &http.Client{Transport: counter}, 0))
			s, _ := NewMCPServer(Parts{
				Reader: query.NewReader(client), Writer: mutation.NewWriter(client),
				HideDisabled: hide, Limiter: ratelimit.New(defaultLimits()),
				Runtime: tools.Runtime{Logger: slog.New(slog.DiscardHandler)}, Version: "test",
			})
			sess := &session{t: t, s: s, caller: tools.Caller{ID: "gina", AuthMethod: "oidc"}}
			for tool, args := range map[string]string{
				"create_collection":       `{"name":"x"}`,
				"add_to_collection":       `{"collection_id":"col_1","company_ids":["cmp_000001"]}`,
				"request_email_discovery": `{"company_id":"cmp_000001"}`,
				"remove_from_collection":  `{"collection_id":"col_1","company_ids":["cmp_000001"]}`,
			} {
				msg := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":%s,"name":%q,"arguments":%s}}`, modernMeta, tool, args)
				b, err := json.Marshal(s.HandleMessage(tools.WithCaller(context.Background(), sess.caller), json.RawMessage(msg)))
				require.NoError(t, err)
				if hide {
					assert.Contains(t, string(b), `"code":-32602`, "a hidden tool is an unknown tool")
				} else {
					assert.Contains(t, string(b), `"code":"mutations_disabled"`)
				}
			}
			sess.ok("search_companies", `{"query":"software","limit":1}`) // the counter works
			assert.Equal(t, []string{"SearchCompanies"}, counter.sent, "only the read reached the backend")
		})
	}
}

// The size words mean one band wherever an agent meets them: the filters
// resource states each band, and ai_search reads each word, and every word
// said to mean the same, as exactly that band (issue 26, item 4).
func TestSizeWordsMeanWhatTheFiltersResourceStates(t *testing.T) {
	s := asUser(t, "alice")
	res := s.rpc("resources/read", `{"uri":"companies://filters"}`)
	var v struct {
		Sizes []struct {
			Word string   `json:"word"`
			Also []string `json:"also"`
			Min  int      `json:"min_employees"`
			Max  *int     `json:"max_employees"`
		} `json:"sizes"`
		Usage string `json:"usage"`
	}
	require.NoError(t, json.Unmarshal([]byte(obj(list(res["contents"])[0])["text"].(string)), &v))
	var words []string
	for _, b := range v.Sizes {
		words = append(words, b.Word)
	}
	assert.Equal(t, []string{"startup", "small", "mid-sized", "large"}, words)
	assert.Contains(t, v.Usage, "min_employees and max_employees")
	for _, b := range v.Sizes {
		for _, w := range []string{b.Word, b.Also[len(b.Also)-1]} {
			sc := s.ok("ai_search", fmt.Sprintf(`{"query":"%s software companies in Germany"}`, w))
			in := obj(sc["interpreted"])
			if b.Min == 0 {
				assert.Nil(t, in["min_employees"], "%q has no lower bound", w)
			} else {
				assert.EqualValues(t, b.Min, in["min_employees"], "%q", w)
			}
			if b.Max == nil {
				assert.Nil(t, in["max_employees"], "%q has no upper bound", w)
			} else {
				assert.EqualValues(t, *b.Max, in["max_employees"], "%q", w)
			}
		}
	}
}
