package read

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/graphql/query/querytest"
	"github.com/companyintel/mcp-server/tools/tooltest"
)

// fixedVocabulary is a filter vocabulary that answers what it holds.
type fixedVocabulary struct {
	v   *query.Vocabulary
	err error
}

func (f fixedVocabulary) FilterVocabulary(context.Context) (*query.Vocabulary, error) {
	return f.v, f.err
}

func testVocabulary() fixedVocabulary {
	v := &query.Vocabulary{
		Countries: []query.CountryFacet{{Value: "United States", Code: ptr("US"), Count: 600}, {Value: "Germany", Code: ptr("DE"), Count: 200}},
	}
	for _, c := range []string{"Software", "Fintech", "E-commerce", "AI & Machine Learning", "Robotics", "Legal Tech", "HR Tech"} {
		v.Categories = append(v.Categories, query.CategoryFacet{Value: c, Count: 100})
	}
	return fixedVocabulary{v: v}
}

func TestSearchCompaniesRefusesAnUnknownCategoryWithCloseMatchesBeforeAnyBackendCall(t *testing.T) {
	tests := []struct {
		category string
		want     []any
	}{
		{"AI", []any{"AI & Machine Learning"}},
		{"Robotic", []any{"Robotics"}},
		{"ecommerce", []any{"E-commerce"}},
		{"Fintec", []any{"Fintech"}},
	}
	for _, tt := range tests {
		t.Run(tt.category, func(t *testing.T) {
			r := &querytest.Reader{} // no expectation: a search would panic
			res, _ := tooltest.Call(t, NewSearchCompanies(r, testVocabulary()), `{"query":"x","categories":["Software",`+quote(tt.category)+`]}`)

			require.True(t, res.IsError)
			assert.Equal(t, "invalid_arguments", tooltest.ErrorCode(t, res))
			text := tooltest.Text(t, res)
			assert.Contains(t, text, `unknown category "`+tt.category+`"`)
			assert.Contains(t, text, "companies://filters", "the next step names the vocabulary")
			fields := tooltest.ErrorDetails(t, res)["fields"].([]any)
			require.Len(t, fields, 1, "Software is known")
			assert.Equal(t, tt.want, fields[0].(map[string]any)["did_you_mean"])
			r.AssertNotCalled(t, "SearchCompanies")
		})
	}
}

func TestSearchCompaniesCorrectsACategoryThatDiffersOnlyInCaseAndSaysSo(t *testing.T) {
	r := &querytest.Reader{}
	r.On("SearchCompanies", mock.Anything, nilString, []string{"categories;Fintech", "categories;HR Tech"}, query.Bounds{}, ptr(20), nilString).
		Return(&query.CompanyPage{Items: listed(company("cmp_1", "Payly", "Germany")), Total: 1}, nil).Once()

	res, _ := tooltest.Call(t, NewSearchCompanies(r, testVocabulary()), `{"categories":["fintech","HR Tech"]}`)

	require.False(t, res.IsError, tooltest.Text(t, res))
	r.AssertExpectations(t)
	sc := tooltest.Structured(t, res)
	assert.Equal(t, []any{"categories;Fintech", "categories;HR Tech"}, sc["applied_filters"])
	assert.Contains(t, sc["note"], `Category "fintech" was read as Fintech.`)
	assert.NotContains(t, sc["note"], "HR Tech was read")
}

func TestSearchCompaniesPassesCategoriesThroughWhenTheVocabularyCannotBeRead(t *testing.T) {
	r := &querytest.Reader{}
	r.On("SearchCompanies", mock.Anything, nilString, []string{"categories;AI"}, query.Bounds{}, ptr(20), nilString).
		Return(&query.CompanyPage{Items: []query.CompanySummary{}, Total: 0}, nil).Once()

	res, _ := tooltest.Call(t, NewSearchCompanies(r, fixedVocabulary{err: errors.New("backend down")}), `{"categories":["AI"]}`)

	require.False(t, res.IsError, tooltest.Text(t, res))
	r.AssertExpectations(t)
	assert.Contains(t, tooltest.Structured(t, res)["note"], "not checked against companies://filters")
}

func TestSearchCompaniesAnswersARealCountryWithoutCompaniesWithAnEmptyPage(t *testing.T) {
	r := &querytest.Reader{} // no expectation: the backend would refuse it as unknown
	res, _ := tooltest.Call(t, NewSearchCompanies(r, testVocabulary()), `{"country":"Fiji","categories":["Software"]}`)

	require.False(t, res.IsError, "a real country is not an invalid argument: %s", tooltest.Text(t, res))
	sc := tooltest.Structured(t, res)
	assert.Equal(t, []any{}, sc["companies"])
	assert.EqualValues(t, 0, sc["total"])
	assert.Equal(t, []any{"countries;Fiji", "categories;Software"}, sc["applied_filters"])
	note := sc["note"].(string)
	assert.Contains(t, note, "No company in the data is in Fiji")
	assert.Contains(t, note, "covers 2 countries, the most common United States (600), Germany (200)")
	assert.Contains(t, note, "companies://filters")
	r.AssertNotCalled(t, "SearchCompanies")
}

func TestSearchCompaniesEmptyCombinationSaysWhatEachFilterHolds(t *testing.T) {
	r := &querytest.Reader{}
	r.On("SearchCompanies", mock.Anything, ptr("zeppelin"), []string{"countries;Germany", "categories;Robotics"}, query.Bounds{}, ptr(20), nilString).
		Return(&query.CompanyPage{Items: []query.CompanySummary{}, Total: 0}, nil).Once()

	res, _ := tooltest.Call(t, NewSearchCompanies(r, testVocabulary()), `{"query":"zeppelin","country":"DE","categories":["Robotics"]}`)

	require.False(t, res.IsError, tooltest.Text(t, res))
	assert.Contains(t, tooltest.Structured(t, res)["note"], "Companies in the data: Germany 200, Robotics 100; none match all the arguments together.")
	r.AssertExpectations(t)
}

func quote(s string) string { return `"` + s + `"` }
