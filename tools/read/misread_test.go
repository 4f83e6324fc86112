package read

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/graphql/query/querytest"
	"github.com/companyintel/mcp-server/tools/tooltest"
)

// What agents misread (issue 35, item 7): each refusal and note fits the
// call that met it.

func TestSearchCompaniesRefusalWithoutASelectionGivesTheReasonOfTheCall(t *testing.T) {
	tests := []struct {
		name, args, says string
		arbitrary        bool
	}{
		{"a count", `{"count_only":true}`, "count_only counts the companies a query or filter selects", false},
		{"an order", `{"sort":"employees_desc","limit":5}`, "sort orders the companies a query or filter selects", false},
		{"an export", `{"export":true}`, "an export is of the companies a query or filter selects", false},
		{"a page", `{"limit":5}`, "a page would be arbitrary companies", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &querytest.Reader{} // no expectation: a search would panic
			res, _ := tooltest.Call(t, NewSearchCompanies(r, nil), tt.args)

			require.True(t, res.IsError)
			assert.Equal(t, "invalid_arguments", tooltest.ErrorCode(t, res))
			text := tooltest.Text(t, res)
			assert.Contains(t, text, tt.says)
			assert.Contains(t, text, "give a query or at least one filter")
			if !tt.arbitrary {
				assert.NotContains(t, text, "arbitrary", "a count, an order or an export is not a page of arbitrary companies")
			}
			r.AssertNotCalled(t, "SearchCompanies")
		})
	}
}

func TestSearchCompaniesZeroLowerBoundIsAFilter(t *testing.T) {
	r := &querytest.Reader{}
	// The backend takes bounds of 1 and more: "at least 0 employees" is every
	// company whose head count is known, sent as the maximum's ceiling.
	r.On("SearchCompanies", mock.Anything, nilString, []string{}, query.Bounds{MaxEmployees: ptr(maxEmployees)}, ptr(20), nilString).
		Return(&query.CompanyPage{Items: listed(company("cmp_1", "Payly", "Germany")), Total: 1}, nil).Once()

	res, _ := tooltest.Call(t, NewSearchCompanies(r, testVocabulary()), `{"min_employees":0}`)

	require.False(t, res.IsError, "min_employees 0 is a filter: %s", tooltest.Text(t, res))
	r.AssertExpectations(t)
	assert.Equal(t, []any{"employees;0.."}, tooltest.Structured(t, res)["applied_filters"])
}

func TestSearchCompaniesZeroLowerBoundWithAMaximumIsShownAsGiven(t *testing.T) {
	r := &querytest.Reader{}
	r.On("SearchCompanies", mock.Anything, ptr("robots"), []string{}, query.Bounds{MaxEmployees: ptr(50)}, ptr(20), nilString).
		Return(&query.CompanyPage{Items: []query.CompanySummary{}, Total: 0}, nil).Once()

	res, _ := tooltest.Call(t, NewSearchCompanies(r, testVocabulary()), `{"query":"robots","min_employees":0,"max_employees":50}`)

	require.False(t, res.IsError, tooltest.Text(t, res))
	r.AssertExpectations(t)
	assert.Equal(t, []any{"keyword;robots", "employees;0..50"}, tooltest.Structured(t, res)["applied_filters"])
}

func TestSearchCompaniesSaysOtherCountriesWereSearchedOnlyWhenTheyWere(t *testing.T) {
	t.Run("only a country without companies, with a category", func(t *testing.T) {
		r := &querytest.Reader{} // no expectation: nothing is searched
		res, _ := tooltest.Call(t, NewSearchCompanies(r, testVocabulary()), `{"country":"Fiji","categories":["Software"]}`)

		require.False(t, res.IsError, tooltest.Text(t, res))
		note := tooltest.Structured(t, res)["note"].(string)
		assert.NotContains(t, note, "other countries", "no other country was asked for")
		assert.Contains(t, note, "Nothing was searched.")
		r.AssertNotCalled(t, "SearchCompanies")
	})
	t.Run("with a country that has companies", func(t *testing.T) {
		r := &querytest.Reader{}
		r.On("SearchCompanies", mock.Anything, nilString, []string{"countries;Germany"}, query.Bounds{}, ptr(20), nilString).
			Return(&query.CompanyPage{Items: listed(company("cmp_1", "Payly", "Germany")), Total: 1}, nil).Once()
		res, _ := tooltest.Call(t, NewSearchCompanies(r, testVocabulary()), `{"country":"Fiji,DE"}`)

		require.False(t, res.IsError, tooltest.Text(t, res))
		r.AssertExpectations(t)
		assert.Contains(t, tooltest.Structured(t, res)["note"], "The other countries were searched.")
	})
}

func TestContactsSayNoPersonsNameIsKnown(t *testing.T) {
	c := company("cmp_000007", "Acme", "Germany")
	c.Contacts = []query.Contact{{Email: "j.smith@acme.example", Role: "CTO", Confidence: 0.9}}
	r := &querytest.Reader{}
	r.On("GetCompany", mock.Anything, "cmp_000007").Return(&c, nil).Once()
	r.On("GetCompanies", mock.Anything, []string{"cmp_000007"}).Return([]*query.Company{&c}, nil).Once()

	res, _ := tooltest.Call(t, NewGetCompany(r), `{"id":"cmp_000007"}`)
	require.False(t, res.IsError, tooltest.Text(t, res))
	sc := tooltest.Structured(t, res)
	contact := sc["company"].(map[string]any)["contacts"].([]any)[0].(map[string]any)
	assert.Equal(t, false, contact["name_known"], "the field is there, and false: the data has no name")
	assert.Contains(t, sc["note"], "do not infer a name from the address")
	assert.Contains(t, tooltest.Text(t, res), "| name unknown", "the contact's line says it too")

	res, _ = tooltest.Call(t, NewGetCompaniesBatch(r), `{"ids":["cmp_000007"]}`)
	require.False(t, res.IsError, tooltest.Text(t, res))
	assert.Contains(t, tooltest.Structured(t, res)["note"], "Contacts have no person's name")
	r.AssertExpectations(t)
}

func TestGetCollectionItemsTakesSearchesProjection(t *testing.T) {
	r := &querytest.Reader{}
	page := &query.CollectionItemPage{Total: 1}
	page.Collection.Id, page.Collection.Name = "col_1", "Prospects"
	page.Items = []query.CollectionItem{{Company: listed(company("cmp_1", "Payly", "Germany"))[0]}}
	r.On("GetCollectionItems", mock.Anything, "col_1", ptr(20), nilString).Return(page, nil).Twice()

	res, _ := tooltest.Call(t, NewGetCollectionItems(r), `{"collection_id":"col_1","ids_only":true}`)
	require.False(t, res.IsError, tooltest.Text(t, res))
	c := tooltest.Structured(t, res)["items"].([]any)[0].(map[string]any)["company"].(map[string]any)
	assert.Equal(t, "cmp_1", c["id"])
	assert.Nil(t, c["domain"], "ids_only: id and name only")

	res, _ = tooltest.Call(t, NewGetCollectionItems(r), `{"collection_id":"col_1","fields":["domain"]}`)
	require.False(t, res.IsError, tooltest.Text(t, res))
	c = tooltest.Structured(t, res)["items"].([]any)[0].(map[string]any)["company"].(map[string]any)
	assert.Equal(t, "payly.example", c["domain"])
	assert.Nil(t, c["name"], "only the fields asked for beside id")
	r.AssertExpectations(t)
}
