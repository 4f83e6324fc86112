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

// A data API on the original schema cannot bound a search by employees or
// founding year: the call is refused as invalid_arguments naming each bound
// given, saying it is the API's limit and how to go on, and not retryable.
func TestSearchCompaniesRefusesBoundsTheDataAPICannotApply(t *testing.T) {
	r := &querytest.Reader{}
	r.On("SearchCompanies", mock.Anything, ptr("robotics"), []string{}, query.Bounds{MaxEmployees: ptr(200), FoundedBefore: ptr(2000)}, ptr(20), nilString).
		Return(&query.CompanyPage{}, query.ErrBoundsUnsupported).Once()
	res, logs := tooltest.Call(t, NewSearchCompanies(r, nil), `{"query":"robotics","max_employees":200,"founded_before":2000}`)

	require.True(t, res.IsError)
	assert.Equal(t, "invalid_arguments", tooltest.ErrorCode(t, res))
	text := tooltest.Text(t, res)
	assert.Contains(t, text, "this data API does not support employee-count or founding-year filters")
	assert.Contains(t, text, "not a mistake in the call")
	assert.Contains(t, text, "drop max_employees, founded_before")
	assert.Contains(t, text, "ai_search")
	details := tooltest.ErrorDetails(t, res)
	assert.Equal(t, false, details["retryable"])
	var fields []string
	for _, f := range details["fields"].([]any) {
		fields = append(fields, f.(map[string]any)["field"].(string))
	}
	assert.Equal(t, []string{"max_employees", "founded_before"}, fields)
	assert.Contains(t, logs, `"outcome":"invalid_arguments"`)
	r.AssertExpectations(t)
}

// noBoundsReader is a Reader that knows its backend's search takes no bounds.
type noBoundsReader struct{ *querytest.Reader }

func (noBoundsReader) SearchBoundsUnsupported() bool { return true }

// When the backend's search takes no bounds, ai_search's paging note does not
// send the caller into that refusal: it leaves the bounds out of the call and
// says to apply them to the results.
func TestAiSearchPagingNoteLeavesOutBoundsTheSearchCannotTake(t *testing.T) {
	r := &querytest.Reader{}
	r.On("AiSearch", mock.Anything, "software startups under 50 employees", ptr(10)).
		Return(&query.AiSearchResult{
			Items:          listed(company("cmp_1", "Soft", "Germany")),
			AppliedFilters: []string{"categories;Software"},
			MaxEmployees:   ptr(49),
			Total:          30,
		}, nil).Twice()

	res, _ := tooltest.Call(t, NewAiSearch(noBoundsReader{r}), `{"query":"software startups under 50 employees"}`)
	require.False(t, res.IsError, tooltest.Text(t, res))
	note := tooltest.Structured(t, res)["note"].(string)
	assert.Contains(t, note, `call search_companies with {"categories":["Software"],"limit":10} and follow next_cursor.`)
	assert.Contains(t, note, `Keep only the companies whose employee_count and founded_year fit {"max_employees":49}`)

	res, _ = tooltest.Call(t, NewAiSearch(r), `{"query":"software startups under 50 employees"}`)
	require.False(t, res.IsError, tooltest.Text(t, res))
	assert.Contains(t, tooltest.Structured(t, res)["note"], `{"categories":["Software"],"max_employees":49,"limit":10}`, "a backend with bounds keeps them in the call")
	r.AssertExpectations(t)
}
