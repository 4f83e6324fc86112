package read

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/graphql/query/querytest"
	"github.com/companyintel/mcp-server/tools"
	"github.com/companyintel/mcp-server/tools/tooltest"
)

func company(id, name, country string) query.Company {
	var c query.Company
	c.Id, c.Name, c.Country, c.Domain = id, name, country, strings.ToLower(name)+".example"
	c.UpdatedAt = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	return c
}

// listed is cs as a list operation answers them: the summary fields alone.
func listed(cs ...query.Company) []query.CompanySummary {
	out := make([]query.CompanySummary, len(cs))
	for i, c := range cs {
		out[i] = query.CompanySummary{Id: c.Id, Name: c.Name, Domain: c.Domain, Description: c.Description, CountryCode: c.CountryCode,
			City: c.City, Categories: c.Categories, EmployeeCount: c.EmployeeCount, FoundedYear: c.FoundedYear}
	}
	return out
}

func ptr[T any](v T) *T { return &v }

// nilString matches an absent optional argument exactly.
var (
	nilString = (*string)(nil)
)

func TestSearchCompaniesSendsNormalisedFilters(t *testing.T) {
	tests := []struct {
		name        string
		args        string
		wantKeyword *string
		wantFilters []string
		wantBounds  query.Bounds
		wantLimit   *int
		wantToken   *string
		wantNote    string
	}{
		{
			name:        "alpha-2 country becomes the facet, limit defaults to 20",
			args:        `{"country":"US"}`,
			wantKeyword: nilString,
			wantFilters: []string{"countries;United States"},
			wantLimit:   ptr(20),
			wantToken:   nilString,
			wantNote:    `Country "US" was read as United States.`,
		},
		{
			name:        "alias, categories, limit as a string and a cursor",
			args:        `{"query":"robotics","country":"uk","categories":["Software","Logistics"],"limit":"5","cursor":"tok-2"}`,
			wantKeyword: ptr("robotics"),
			wantFilters: []string{"countries;United Kingdom", "categories;Software", "categories;Logistics"},
			wantLimit:   ptr(5),
			wantToken:   ptr("tok-2"),
		},
		{
			name:        "employee and founding bounds alone are a search, sent as given",
			args:        `{"min_employees":50,"max_employees":"500","founded_after":2010,"founded_before":2010}`,
			wantKeyword: nilString,
			wantFilters: []string{},
			wantBounds:  query.Bounds{MinEmployees: ptr(50), MaxEmployees: ptr(500), FoundedAfter: ptr(2010), FoundedBefore: ptr(2010)},
			wantLimit:   ptr(20),
			wantToken:   nilString,
		},
		{
			name:        "one bound with a query; min_employees 0 with a max is sent as the max alone, which selects the same companies",
			args:        `{"query":"robotics","country":"DE","min_employees":0,"max_employees":200}`,
			wantKeyword: ptr("robotics"),
			wantFilters: []string{"countries;Germany"},
			wantBounds:  query.Bounds{MaxEmployees: ptr(200)},
			wantLimit:   ptr(20),
			wantToken:   nilString,
		},
		{
			name:        "bounds past any company are sent as the ceilings, which select the same companies",
			args:        `{"min_employees":2147483647,"founded_before":9999}`,
			wantKeyword: nilString,
			wantFilters: []string{},
			wantBounds:  query.Bounds{MinEmployees: ptr(10_000_000), FoundedBefore: ptr(2100)},
			wantLimit:   ptr(20),
			wantToken:   nilString,
		},
		{
			name:        "query alone sends an empty filter list",
			args:        `{"query":"  solar  "}`,
			wantKeyword: ptr("solar"),
			wantFilters: []string{},
			wantLimit:   ptr(20),
			wantToken:   nilString,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &querytest.Reader{}
			r.On("SearchCompanies", mock.Anything, tt.wantKeyword, tt.wantFilters, tt.wantBounds, tt.wantLimit, tt.wantToken).
				Return(&query.CompanyPage{Items: listed(company("cmp_1", "Acme", "United States")), Total: 41, NextToken: ptr("next")}, nil).Once()

			res, _ := tooltest.Call(t, NewSearchCompanies(r, nil), tt.args)

			require.False(t, res.IsError, tooltest.Text(t, res))
			r.AssertExpectations(t)
			sc := tooltest.Structured(t, res)
			assert.EqualValues(t, 41, sc["total"])
			at, err := tools.ParseCursor(sc["next_cursor"].(string))
			require.NoError(t, err)
			assert.Equal(t, tools.Position{Token: ptr("next")}, at, "next_cursor wraps the backend's token")
			assert.Contains(t, sc["note"], "cursor")
			if tt.wantNote != "" {
				assert.Contains(t, sc["note"], tt.wantNote)
			}
		})
	}
}

func TestSearchCompaniesRefusesBeforeAnyBackendCall(t *testing.T) {
	tests := []struct {
		name, args, field, mention string
	}{
		{"no query and no filter", `{}`, "query", "at least one filter"},
		{"blank query", `{"query":"   "}`, "query", "at least one filter"},
		{"unknown country lists close matches", `{"country":"Germny"}`, "country", "Germany (DE)"},
		{"limit above the maximum", `{"query":"x","limit":500}`, "limit", "from 1 to 100"},
		{"limit below the minimum", `{"query":"x","limit":0}`, "limit", "from 1 to 100"},
		{"limit with a fraction", `{"query":"x","limit":2.5}`, "limit", "an integer"},
		{"limit not a number", `{"query":"x","limit":"many"}`, "limit", "an integer"},
		{"categories not a list of strings", `{"categories":{"a":1}}`, "categories", "a list"},
		{"unknown argument names the valid ones", `{"q":"x"}`, "q", "valid arguments are"},
		{"min_employees above max_employees", `{"min_employees":500,"max_employees":50}`, "min_employees", "min_employees 500 is above max_employees 50"},
		{"founded_after later than founded_before", `{"founded_after":2020,"founded_before":2010}`, "founded_after", "founded_after 2020 is later than founded_before 2010"},
		{"negative min_employees", `{"min_employees":-1}`, "min_employees", "at least 0"},
		{"max_employees of zero", `{"max_employees":0}`, "max_employees", "at least 1"},
		{"founding year out of range", `{"founded_after":1066}`, "founded_after", "at least 1800"},
		{"founding year with a fraction", `{"founded_before":1999.5}`, "founded_before", "an integer"},
		{"an altered cursor names the cursor argument", `{"query":"x","cursor":"c1.AAAAAAAAAAAA"}`, "cursor", "pass back the previous answer's next_cursor"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &querytest.Reader{} // any call would panic: no expectation is set
			res, logs := tooltest.Call(t, NewSearchCompanies(r, nil), tt.args)

			require.True(t, res.IsError)
			assert.Equal(t, "invalid_arguments", tooltest.ErrorCode(t, res))
			text := tooltest.Text(t, res)
			assert.Contains(t, text, "search_companies")
			assert.Contains(t, text, tt.field)
			assert.Contains(t, text, tt.mention)
			assert.NotContains(t, text, "struct", "no Go types in messages")
			r.AssertNotCalled(t, "SearchCompanies")
			assert.Contains(t, logs, `"outcome":"invalid_arguments"`)
		})
	}
}

func TestGetCompany(t *testing.T) {
	r := &querytest.Reader{}
	c := company("cmp_000007", "Acme", "Germany")
	r.On("GetCompany", mock.Anything, "cmp_000007").Return(&c, nil).Once()
	r.On("GetCompany", mock.Anything, "cmp_missing").Return(nil, nil).Once()

	res, _ := tooltest.Call(t, NewGetCompany(r), `{"id":"cmp_000007"}`)
	require.False(t, res.IsError, tooltest.Text(t, res))
	assert.Equal(t, "Acme", tooltest.Structured(t, res)["company"].(map[string]any)["name"])

	res, _ = tooltest.Call(t, NewGetCompany(r), `{"id":"cmp_missing"}`)
	require.True(t, res.IsError)
	assert.Equal(t, "not_found", tooltest.ErrorCode(t, res))
	assert.Contains(t, tooltest.Text(t, res), `"cmp_missing"`)

	res, _ = tooltest.Call(t, NewGetCompany(r), `{}`)
	require.True(t, res.IsError)
	assert.Equal(t, "invalid_arguments", tooltest.ErrorCode(t, res))
	assert.Contains(t, tooltest.Text(t, res), "id: required")
	r.AssertExpectations(t)
}

func TestGetCompaniesBatchDedupesInOrder(t *testing.T) {
	r := &querytest.Reader{}
	a, c := company("cmp_a", "A", "France"), company("cmp_c", "C", "Spain")
	// The backend sees each id once, in the order first given.
	r.On("GetCompanies", mock.Anything, []string{"cmp_c", "cmp_a", "cmp_x"}).
		Return([]*query.Company{&c, &a, nil}, nil).Once()

	res, _ := tooltest.Call(t, NewGetCompaniesBatch(r), `{"ids":["cmp_c","cmp_a","cmp_c","cmp_x","cmp_a"]}`)

	require.False(t, res.IsError, tooltest.Text(t, res))
	r.AssertExpectations(t)
	sc := tooltest.Structured(t, res)
	assert.Equal(t, []any{"cmp_c", "cmp_a"}, sc["duplicates_dropped"])
	assert.Equal(t, []any{"cmp_x"}, sc["not_found"])
	got := sc["companies"].([]any)
	require.Len(t, got, 2)
	assert.Equal(t, "cmp_c", got[0].(map[string]any)["id"])
	assert.Equal(t, "cmp_a", got[1].(map[string]any)["id"])
	assert.Contains(t, sc["note"], "Dropped 2 duplicate")
}

func TestGetCompaniesBatchLimitCountsDistinctIDs(t *testing.T) {
	ids := make([]string, 0, 60)
	for i := range 51 {
		ids = append(ids, fmt.Sprintf("%q", fmt.Sprintf("cmp_%d", i)))
	}
	r := &querytest.Reader{}
	res, _ := tooltest.Call(t, NewGetCompaniesBatch(r), `{"ids":[`+strings.Join(ids, ",")+`]}`)
	require.True(t, res.IsError)
	assert.Contains(t, tooltest.Text(t, res), "at most 50 distinct ids")
	r.AssertNotCalled(t, "GetCompanies")

	// 50 distinct ids plus duplicates is within the limit.
	dup := append(ids[:50:50], ids[:10]...)
	r.On("GetCompanies", mock.Anything, mock.MatchedBy(func(got []string) bool { return len(got) == 50 })).
		Return([]*query.Company{}, nil).Once()
	res, _ = tooltest.Call(t, NewGetCompaniesBatch(r), `{"ids":[`+strings.Join(dup, ",")+`]}`)
	require.False(t, res.IsError, tooltest.Text(t, res))
	r.AssertExpectations(t)
}

func TestAiSearchSendsQueryAndDefaultLimit(t *testing.T) {
	r := &querytest.Reader{}
	r.On("AiSearch", mock.Anything, "fintech startups in Germany", ptr(10)).
		Return(&query.AiSearchResult{
			Items:          listed(company("cmp_1", "Payly", "Germany")),
			Interpretation: "Fintech companies in Germany with under 50 employees",
			AppliedFilters: []string{"countries;Germany", "categories;Fintech"},
			MaxEmployees:   ptr(49),
			Total:          12,
		}, nil).Once()

	res, _ := tooltest.Call(t, NewAiSearch(r), `{"query":"fintech startups in Germany"}`)

	require.False(t, res.IsError, tooltest.Text(t, res))
	r.AssertExpectations(t)
	sc := tooltest.Structured(t, res)
	assert.Equal(t, "Fintech companies in Germany with under 50 employees", sc["interpretation"])
	assert.Equal(t, map[string]any{"countries": []any{"Germany"}, "categories": []any{"Fintech"}, "max_employees": float64(49)}, sc["interpreted"])
	assert.Contains(t, sc["note"], "best 1 of 12")
}

// The paging note repeats every interpreted constraint as search_companies
// arguments: an agent once followed a note that named only the filters and
// lost the size bounds (issue 13).
func TestAiSearchPagingNoteRepeatsEveryInterpretedConstraint(t *testing.T) {
	r := &querytest.Reader{}
	r.On("AiSearch", mock.Anything, "robotics companies in Germany with 50-500 employees founded after 2010", ptr(10)).
		Return(&query.AiSearchResult{
			Items:          listed(company("cmp_1", "Robo", "Germany")),
			AppliedFilters: []string{"countries;Germany", "categories;Robotics", "categories;AI & Machine Learning"},
			Keywords:       ptr("warehouse"),
			MinEmployees:   ptr(50), MaxEmployees: ptr(500), FoundedAfter: ptr(2011),
			Total: 40,
		}, nil).Once()
	r.On("AiSearch", mock.Anything, "robotics in Germany or France", ptr(10)).
		Return(&query.AiSearchResult{
			Items:          listed(company("cmp_1", "Robo", "Germany")),
			AppliedFilters: []string{"countries;Germany", "countries;France", "categories;Robotics"},
			Total:          40,
		}, nil).Once()

	res, _ := tooltest.Call(t, NewAiSearch(r), `{"query":"robotics companies in Germany with 50-500 employees founded after 2010"}`)
	require.False(t, res.IsError, tooltest.Text(t, res))
	sc := tooltest.Structured(t, res)
	assert.Equal(t, map[string]any{"keywords": "warehouse", "countries": []any{"Germany"}, "categories": []any{"Robotics", "AI & Machine Learning"},
		"min_employees": float64(50), "max_employees": float64(500), "founded_after": float64(2011)}, sc["interpreted"])
	assert.Contains(t, sc["note"], `call search_companies with {"query":"warehouse","country":"Germany","categories":["Robotics","AI & Machine Learning"],"min_employees":50,"max_employees":500,"founded_after":2011,"limit":10} and follow next_cursor.`)

	res, _ = tooltest.Call(t, NewAiSearch(r), `{"query":"robotics in Germany or France"}`)
	require.False(t, res.IsError, tooltest.Text(t, res))
	assert.Contains(t, tooltest.Structured(t, res)["note"],
		`call search_companies with {"country":"Germany,France","categories":["Robotics"],"limit":10} and follow next_cursor.`, "search_companies takes several countries")
	r.AssertExpectations(t)
}

func TestAiSearchPassesOnWhatWasNotApplied(t *testing.T) {
	r := &querytest.Reader{}
	r.On("AiSearch", mock.Anything, "fintech not in Germany", ptr(10)).
		Return(&query.AiSearchResult{
			Interpretation: "Companies in Fintech. Not applied: excluding Germany.",
			AppliedFilters: []string{"categories;Fintech"},
			NotApplied:     []string{"not countries;Germany"},
		}, nil).Once()
	r.On("AiSearch", mock.Anything, "fintech", ptr(10)).
		Return(&query.AiSearchResult{AppliedFilters: []string{"categories;Fintech"}}, nil).Once()

	res, _ := tooltest.Call(t, NewAiSearch(r), `{"query":"fintech not in Germany"}`)
	require.False(t, res.IsError, tooltest.Text(t, res))
	assert.Equal(t, []any{"not countries;Germany"}, tooltest.Structured(t, res)["not_applied"])
	assert.Contains(t, tooltest.Structured(t, res)["note"], "Not expressed as filters, so check the results yourself: not countries;Germany.")

	res, _ = tooltest.Call(t, NewAiSearch(r), `{"query":"fintech"}`)
	require.False(t, res.IsError, tooltest.Text(t, res))
	assert.Equal(t, []any{}, tooltest.Structured(t, res)["not_applied"], "always a list, empty when all was applied")
	r.AssertExpectations(t)
}

func TestCollectionReadsSendPagination(t *testing.T) {
	r := &querytest.Reader{}
	r.On("ListCollections", mock.Anything, ptr(20), nilString).
		Return(&query.CollectionPage{Items: []query.Collection{{}}, Total: 1}, nil).Once()
	r.On("GetCollectionItems", mock.Anything, "col_1", ptr(3), ptr("tok")).
		Return(&query.CollectionItemPage{Total: 0}, nil).Once()

	res, _ := tooltest.Call(t, NewListCollections(r), `{}`)
	require.False(t, res.IsError, tooltest.Text(t, res))
	res, _ = tooltest.Call(t, NewGetCollectionItems(r), `{"collection_id":"col_1","limit":3,"cursor":"tok"}`)
	require.False(t, res.IsError, tooltest.Text(t, res))
	r.AssertExpectations(t)
}

func TestSearchNotesSayAtLeastWhenTheTotalIsALowerBound(t *testing.T) {
	r := &querytest.Reader{}
	r.On("SearchCompanies", mock.Anything, ptr("software"), []string{}, query.Bounds{}, ptr(20), nilString).
		Return(&query.CompanyPage{Items: listed(company("cmp_1", "Acme", "United States")),
			Total: 1000, TotalIsLowerBound: true, NextToken: ptr("next")}, nil).Once()
	r.On("AiSearch", mock.Anything, "software companies", ptr(10)).
		Return(&query.AiSearchResult{Items: listed(company("cmp_1", "Acme", "United States")),
			Total: 1000, TotalIsLowerBound: true}, nil).Once()

	res, _ := tooltest.Call(t, NewSearchCompanies(r, nil), `{"query":"software"}`)
	require.False(t, res.IsError, tooltest.Text(t, res))
	assert.Contains(t, tooltest.Structured(t, res)["note"], "Showing 1 of at least 1000 companies.")

	res, _ = tooltest.Call(t, NewAiSearch(r), `{"query":"software companies"}`)
	require.False(t, res.IsError, tooltest.Text(t, res))
	assert.Contains(t, tooltest.Structured(t, res)["note"], "best 1 of at least 1000 matches")
	r.AssertExpectations(t)
}
