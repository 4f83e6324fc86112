package read

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/companyintel/mcp-server/graphql"
	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/tools"
	"github.com/companyintel/mcp-server/tools/tooltest"
)

// These tests capture the exact GraphQL request each tool sends, through the
// real Reader and Client over HTTP to a backend that records it and answers
// from a script: a list tool asks only for what its summaries show, a
// profile tool for the whole profile.

// sentRequest is one GraphQL request as it arrived.
type sentRequest struct {
	Query         string         `json:"query"`
	OperationName string         `json:"operationName"`
	Variables     map[string]any `json:"variables"`
}

// recorder is the backend: it records each request and answers it with the
// data scripted for its operation.
type recorder struct {
	mu   sync.Mutex
	sent []sentRequest
}

func (rec *recorder) reader(t *testing.T, data map[string]string) query.Reader {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req sentRequest
		if err := json.Unmarshal(body, &req); err != nil {
			http.Error(w, "not JSON", http.StatusBadRequest)
			return
		}
		rec.mu.Lock()
		rec.sent = append(rec.sent, req)
		rec.mu.Unlock()
		d, ok := data[req.OperationName]
		if !ok {
			http.Error(w, "no answer scripted for "+req.OperationName, http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"data":`+d+`}`)
	}))
	t.Cleanup(srv.Close)
	c := graphql.NewClient(srv.URL, srv.Client(), 0)
	c.SetRetry(graphql.NoRetry)
	return query.NewReader(c)
}

// only returns the one request sent.
func (rec *recorder) only(t *testing.T) sentRequest {
	t.Helper()
	rec.mu.Lock()
	defer rec.mu.Unlock()
	require.Len(t, rec.sent, 1)
	return rec.sent[0]
}

// selected returns the names of the fields doc's operation selects at path
// (field names from the root), fragments spread in, sorted.
func selected(t *testing.T, doc string, path ...string) []string {
	t.Helper()
	d, err := parser.ParseQuery(&ast.Source{Input: doc})
	require.NoError(t, err)
	require.Len(t, d.Operations, 1)
	var fields func(ast.SelectionSet) []*ast.Field
	fields = func(set ast.SelectionSet) []*ast.Field {
		var out []*ast.Field
		for _, s := range set {
			switch s := s.(type) {
			case *ast.Field:
				out = append(out, s)
			case *ast.FragmentSpread:
				f := d.Fragments.ForName(s.Name)
				require.NotNil(t, f, "fragment %s is not in the document", s.Name)
				out = append(out, fields(f.SelectionSet)...)
			case *ast.InlineFragment:
				out = append(out, fields(s.SelectionSet)...)
			}
		}
		return out
	}
	set := d.Operations[0].SelectionSet
	for _, name := range path {
		i := slices.IndexFunc(fields(set), func(f *ast.Field) bool { return f.Name == name })
		require.GreaterOrEqual(t, i, 0, "the document selects no %s", name)
		set = fields(set)[i].SelectionSet
	}
	var names []string
	for _, f := range fields(set) {
		names = append(names, f.Name)
	}
	slices.Sort(names)
	return names
}

// summaryFields is every company field a list answer shows (tools.Summary
// and its text line, which adds the description); listing more would make
// the backend send, and us decode, what no answer uses.
var summaryFields = []string{"categories", "city", "countryCode", "description", "domain", "employeeCount", "foundedYear", "id", "name"}

// profileOnly are the fields of a profile that no summary shows.
var profileOnly = []string{"contacts", "country", "updatedAt", "website"}

const listedCompany = `{"id":"cmp_1","name":"Acme","domain":"acme.example","description":"Robots.","countryCode":"US","city":"Austin",` +
	`"categories":["Robotics"],"employeeCount":40,"foundedYear":2015}`

func TestListToolsSelectOnlyTheSummaryFields(t *testing.T) {
	tests := []struct {
		tool     func(query.Reader) tools.Tool
		args     string
		op       string
		data     string
		path     []string
		wantVars map[string]any
	}{
		{
			tool: func(r query.Reader) tools.Tool { return NewSearchCompanies(r, nil) },
			args: `{"query":"robots","limit":5}`,
			op:   "SearchCompanies",
			data: `{"searchCompanies":{"items":[` + listedCompany + `],"nextToken":null,"total":1,"totalIsLowerBound":false}}`,
			path: []string{"searchCompanies", "items"},
			wantVars: map[string]any{"keyword": "robots", "filters": []any{}, "excludeFilters": nil, "minEmployees": nil, "maxEmployees": nil,
				"foundedAfter": nil, "foundedBefore": nil, "sort": nil, "exactCount": nil, "limit": float64(5), "nextToken": nil},
		},
		{
			tool: NewAiSearch,
			args: `{"query":"robot makers in Texas"}`,
			op:   "AiSearch",
			data: `{"aiSearch":{"items":[` + listedCompany + `],"interpretation":"Robot makers.","appliedFilters":[],"keywords":"robot",` +
				`"minEmployees":null,"maxEmployees":null,"foundedAfter":null,"foundedBefore":null,"notApplied":[],"total":1,"totalIsLowerBound":false}}`,
			path:     []string{"aiSearch", "items"},
			wantVars: map[string]any{"query": "robot makers in Texas", "limit": float64(10)},
		},
		{
			tool: NewGetCollectionItems,
			args: `{"collection_id":"col_1"}`,
			op:   "GetCollectionItems",
			data: `{"getCollectionItems":{"collection":{"id":"col_1","name":"Texas","description":null,"itemCount":1,` +
				`"createdAt":"2026-11-01T00:00:00Z","updatedAt":"2026-11-01T00:00:00Z"},` +
				`"items":[{"company":` + listedCompany + `,"addedAt":"2026-11-02T00:00:00Z"}],"nextToken":null,"total":1}}`,
			path:     []string{"getCollectionItems", "items", "company"},
			wantVars: map[string]any{"collectionId": "col_1", "limit": float64(20), "nextToken": nil},
		},
	}
	for _, tt := range tests {
		t.Run(tt.op, func(t *testing.T) {
			rec := &recorder{}
			res, _ := tooltest.Call(t, tt.tool(rec.reader(t, map[string]string{tt.op: tt.data})), tt.args)
			require.False(t, res.IsError, tooltest.Text(t, res))
			assert.Contains(t, tooltest.Text(t, res), "cmp_1 | Acme | acme.example | Austin, US | Robotics | 40 employees | founded 2015 | \"Robots.\"")

			sent := rec.only(t)
			assert.Equal(t, tt.op, sent.OperationName)
			assert.Equal(t, tt.wantVars, sent.Variables)
			got := selected(t, sent.Query, tt.path...)
			assert.Equal(t, summaryFields, got)
			for _, f := range profileOnly {
				assert.NotContains(t, got, f)
			}
		})
	}
}

func TestGetCompanySelectsTheWholeProfile(t *testing.T) {
	rec := &recorder{}
	r := rec.reader(t, map[string]string{"GetCompany": `{"getCompany":{"id":"cmp_1","name":"Acme","domain":"acme.example",` +
		`"website":"https://www.acme.example","description":"Robots.","country":"United States","countryCode":"US","city":"Austin",` +
		`"categories":["Robotics"],"employeeCount":40,"foundedYear":2015,"updatedAt":"2026-11-01T00:00:00Z",` +
		`"contacts":[{"email":"cto@acme.example","role":"CTO","confidence":0.9,"discoveredAt":"2026-11-01T00:00:00Z"}]}}`})
	res, _ := tooltest.Call(t, NewGetCompany(r), `{"id":"cmp_1"}`)
	require.False(t, res.IsError, tooltest.Text(t, res))
	assert.Contains(t, tooltest.Text(t, res), "cto@acme.example")

	sent := rec.only(t)
	assert.Equal(t, map[string]any{"id": "cmp_1"}, sent.Variables)
	got := selected(t, sent.Query, "getCompany")
	for _, f := range append(slices.Clone(summaryFields), profileOnly...) {
		assert.Contains(t, got, f)
	}
	assert.Equal(t, []string{"confidence", "discoveredAt", "email", "role"}, selected(t, sent.Query, "getCompany", "contacts"))
}

// The summary a list tool builds from the fields it selects is the one the
// whole profile gives: nothing it shows came from a field no longer asked for.
func TestASummaryFromTheListFieldsIsTheProfilesSummary(t *testing.T) {
	c := company("cmp_1", "Acme", "United States")
	c.Website, c.Description, c.CountryCode, c.City = ptr("https://acme.example/home"), ptr("Robots.\nFor warehouses."), "US", ptr("Austin")
	c.Categories, c.EmployeeCount, c.FoundedYear = []string{"Robotics", "Logistics"}, ptr(40), ptr(2015)
	c.Contacts = []query.Contact{{Email: "cto@acme.example", Role: "CTO", Confidence: 0.9}}
	for _, d := range []tools.Detail{tools.DetailSummary, tools.DetailIDs} {
		want := tools.SummaryOf(companyFrom(&c), d)
		got := summaryFrom(&listed(c)[0], d)
		assert.Equal(t, want, got, d)
		assert.Equal(t, want.Line(), got.Line(), d)
	}
}
