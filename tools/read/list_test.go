package read

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/graphql/query/querytest"
	"github.com/companyintel/mcp-server/tools"
	"github.com/companyintel/mcp-server/tools/tooltest"
)

// page is a backend page of n companies from cmp_<from>, each with a long
// description.
func page(from, n int) []query.Company {
	out := make([]query.Company, n)
	for i := range out {
		out[i] = company(fmt.Sprintf("cmp_%06d", from+i), fmt.Sprintf("Company %d & Sons", from+i), "Germany")
		out[i].CountryCode = "DE"
		out[i].Description = ptr(strings.Repeat("Makes things for other companies. ", 20))
	}
	return out
}

func TestASearchPastTheBoundIsCutAndItsCursorContinuesAtTheFirstCompanyNotShown(t *testing.T) {
	r := &querytest.Reader{}
	items := page(1, 100)
	r.On("SearchCompanies", mock.Anything, ptr("x"), []string{}, query.Bounds{}, ptr(100), nilString).
		Return(&query.CompanyPage{Items: listed(items...), Total: 250, NextToken: ptr("tok2")}, nil).Once()
	rt := &tools.Runtime{Logger: slog.New(slog.DiscardHandler), AnswerBound: 6000}
	res := tooltest.CallWith(t, rt, NewSearchCompanies(r, nil), `{"query":"x","limit":100}`)
	require.False(t, res.IsError, tooltest.Text(t, res))
	sc := tooltest.Structured(t, res)
	shown := len(sc["companies"].([]any))
	require.Greater(t, shown, 0)
	require.Less(t, shown, 100)
	assert.Equal(t, true, sc["truncated"])
	assert.Contains(t, sc["note"], fmt.Sprintf("Showing %d of 250 companies, cut at a whole company to stay within the 6000-byte answer size bound", shown))
	text := tooltest.Text(t, res)
	for _, c := range sc["companies"].([]any) {
		assert.Contains(t, text, c.(map[string]any)["id"], "the text names every company returned")
	}
	assert.Contains(t, text, "Company 1 & Sons", "no HTML escaping in the text")

	// The cursor asks for the same backend page and skips what was shown.
	r.On("SearchCompanies", mock.Anything, ptr("x"), []string{}, query.Bounds{}, ptr(100), nilString).
		Return(&query.CompanyPage{Items: listed(items...), Total: 250, NextToken: ptr("tok2")}, nil).Once()
	res = tooltest.CallWith(t, rt, NewSearchCompanies(r, nil), fmt.Sprintf(`{"query":"x","limit":100,"cursor":%q}`, sc["next_cursor"]))
	require.False(t, res.IsError, tooltest.Text(t, res))
	next := tooltest.Structured(t, res)
	assert.Equal(t, fmt.Sprintf("cmp_%06d", shown+1), next["companies"].([]any)[0].(map[string]any)["id"], "the first company not shown")
	r.AssertExpectations(t)
}

func TestIDsOnlyIsIDAndName(t *testing.T) {
	r := &querytest.Reader{}
	r.On("SearchCompanies", mock.Anything, ptr("x"), []string{}, query.Bounds{}, ptr(100), nilString).
		Return(&query.CompanyPage{Items: listed(page(1, 100)...), Total: 100}, nil).Once()
	res, _ := tooltest.Call(t, NewSearchCompanies(r, nil), `{"query":"x","limit":100,"ids_only":true}`)
	require.False(t, res.IsError, tooltest.Text(t, res))
	sc := tooltest.Structured(t, res)
	require.Len(t, sc["companies"], 100, "a hundred ids and names fit the default bound")
	assert.Equal(t, map[string]any{"id": "cmp_000001", "name": "Company 1 & Sons"}, sc["companies"].([]any)[0])
	assert.Nil(t, sc["truncated"])
	assert.Contains(t, tooltest.Text(t, res), "\ncmp_000001 | Company 1 & Sons\n")
}

func TestABatchPastTheBoundNamesTheIDsLeftOut(t *testing.T) {
	r := &querytest.Reader{}
	items := page(1, 50)
	ids := make([]string, len(items))
	found := make([]*query.Company, len(items))
	for i := range items {
		ids[i], found[i] = items[i].Id, &items[i]
	}
	r.On("GetCompanies", mock.Anything, ids).Return(found, nil).Once()
	b, _ := json.Marshal(map[string]any{"ids": ids})
	res := tooltest.CallWith(t, &tools.Runtime{Logger: slog.New(slog.DiscardHandler), AnswerBound: 8000}, NewGetCompaniesBatch(r), string(b))
	require.False(t, res.IsError, tooltest.Text(t, res))
	sc := tooltest.Structured(t, res)
	shown := len(sc["companies"].([]any))
	require.Less(t, shown, 50)
	assert.Equal(t, true, sc["truncated"])
	assert.Contains(t, sc["note"], "call again with the ids left out: "+strings.Join(ids[shown:], ", ")+".")
}
