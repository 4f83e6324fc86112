package write

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/graphql"
	"github.com/companyintel/mcp-server/graphql/mutation"
	"github.com/companyintel/mcp-server/graphql/mutation/mutationtest"
	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/graphql/query/querytest"
	"github.com/companyintel/mcp-server/tools"
	"github.com/companyintel/mcp-server/tools/tooltest"
)

func TestRemoveFromCollectionSendsDistinctIDsInOrder(t *testing.T) {
	w := &mutationtest.Writer{}
	var col mutation.Collection
	col.Id, col.Name, col.ItemCount = "col_1", "Prospects", 4
	w.On("RemoveFromCollection", mock.Anything, "col_1", []string{"cmp_2", "cmp_1", "cmp_9"}).
		Return(&mutation.RemoveFromCollectionResult{Collection: col, Removed: []string{"cmp_2", "cmp_1"}, NotPresent: []string{"cmp_9"}}, nil).Once()

	res, logs := tooltest.Call(t, NewRemoveFromCollection(Deps{Writer: w, Allowed: allowAll}),
		`{"collection_id":"col_1","company_ids":["cmp_2","cmp_1","cmp_2","cmp_9"]}`)

	require.False(t, res.IsError, tooltest.Text(t, res))
	w.AssertExpectations(t)
	sc := tooltest.Structured(t, res)
	assert.Equal(t, []any{"cmp_2", "cmp_1"}, sc["removed"])
	assert.Equal(t, []any{"cmp_9"}, sc["not_present"])
	assert.Equal(t, []any{"cmp_2"}, sc["duplicates_dropped"])
	assert.Contains(t, sc["note"], "Removed 2, not present 1; the collection now holds 4 companies.")
	assert.Contains(t, logs, `"written":{"company_ids":["cmp_2","cmp_1"],"company_count":2,"collection_ids":["col_1"]`, "the audit record names what was removed as written")
}

func TestRemoveFromCollectionRefusesMoreThanFiftyDistinctIDs(t *testing.T) {
	w := &mutationtest.Writer{} // no expectations: any mutation fails the test
	ids := make([]string, 51)
	for i := range ids {
		ids[i] = "cmp_" + strings.Repeat("x", i+1)
	}
	b, err := json.Marshal(map[string]any{"collection_id": "col_1", "company_ids": ids})
	require.NoError(t, err)
	res, _ := tooltest.Call(t, NewRemoveFromCollection(Deps{Writer: w, Allowed: allowAll}), string(b))
	assert.Equal(t, "invalid_arguments", tooltest.ErrorCode(t, res))
	assert.Contains(t, tooltest.Text(t, res), "remove_from_collection failed [invalid_arguments]")
	assert.Contains(t, tooltest.Text(t, res), "at most 50 distinct ids per call, got 51")
	assert.Empty(t, w.Calls)
}

// The exact GraphQL request the tool sends, through the real Writer and
// Client over HTTP to a backend that records it.
func TestRemoveFromCollectionSendsTheseVariables(t *testing.T) {
	var sent struct {
		Query         string         `json:"query"`
		OperationName string         `json:"operationName"`
		Variables     map[string]any `json:"variables"`
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		require.NoError(t, json.Unmarshal(body, &sent))
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"data":{"removeFromCollection":{"collection":{"id":"col_1","name":"Prospects","description":null,"itemCount":1,`+
			`"createdAt":"2026-11-01T00:00:00Z","updatedAt":"2026-11-02T00:00:00Z"},"removed":["cmp_1"],"notPresent":["cmp_7"]}}}`)
	}))
	defer srv.Close()
	c := graphql.NewClient(srv.URL, srv.Client(), 0)
	c.SetRetry(graphql.NoRetry)

	res, _ := tooltest.Call(t, NewRemoveFromCollection(Deps{Writer: mutation.NewWriter(c), Allowed: allowAll}),
		`{"collection_id":"col_1","company_ids":["cmp_1","cmp_7","cmp_1"]}`)

	require.False(t, res.IsError, tooltest.Text(t, res))
	assert.Equal(t, "RemoveFromCollection", sent.OperationName)
	assert.Equal(t, map[string]any{"collectionId": "col_1", "companyIds": []any{"cmp_1", "cmp_7"}}, sent.Variables)
	assert.Contains(t, sent.Query, "removeFromCollection(collectionId: $collectionId, companyIds: $companyIds)")
	sc := tooltest.Structured(t, res)
	assert.Equal(t, []any{"cmp_1"}, sc["removed"])
	assert.Equal(t, []any{"cmp_7"}, sc["not_present"])
	assert.EqualValues(t, 1, sc["collection"].(map[string]any)["item_count"])
}

// A backend on the original schema refuses the document in AppSync's words;
// the tool says that this API cannot remove, keeps the backend's words, and
// does not invite a retry.
func TestRemoveFromCollectionOnAnOriginalSchemaBackendSaysItCannot(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"data":null,"errors":[{"message":"Validation error of type FieldUndefined: Field 'removeFromCollection' in type 'Mutation' is undefined @ 'removeFromCollection'","locations":[{"line":1,"column":50}]}]}`)
	}))
	defer srv.Close()
	c := graphql.NewClient(srv.URL, srv.Client(), 0)
	c.SetRetry(graphql.NoRetry)

	res, _ := tooltest.Call(t, NewRemoveFromCollection(Deps{Writer: mutation.NewWriter(c), Allowed: allowAll}), `{"collection_id":"col_1","company_ids":["cmp_1"]}`)

	require.True(t, res.IsError)
	assert.Equal(t, "backend_error", tooltest.ErrorCode(t, res))
	text := tooltest.Text(t, res)
	assert.Contains(t, text, "remove_from_collection failed [backend_error]: this data API cannot remove companies from a collection")
	assert.Contains(t, text, "Field 'removeFromCollection' in type 'Mutation' is undefined", "the backend's own words")
	assert.Contains(t, text, "Nothing was removed; tell the user")
	assert.Equal(t, false, tooltest.ErrorDetails(t, res)["retryable"])
}

// A dry run reads the collection and sorts the ids; it writes nothing, and
// its preview names the companies.
func TestRemoveFromCollectionDryRunReadsOnly(t *testing.T) {
	w := &mutationtest.Writer{} // no expectations: any mutation fails the test
	r := &querytest.Reader{}
	page := &query.CollectionItemPage{Total: 2}
	page.Collection.Id, page.Collection.Name, page.Collection.ItemCount = "col_1", "Prospects", 2
	for _, c := range [][2]string{{"cmp_1", "Acme"}, {"cmp_2", "Globex"}} {
		var it query.CollectionItem
		it.Company.Id, it.Company.Name = c[0], c[1]
		page.Items = append(page.Items, it)
	}
	r.On("GetCollectionItems", mock.Anything, "col_1", mock.Anything, (*string)(nil)).Return(page, nil).Once()

	res, logs := tooltest.Call(t, NewRemoveFromCollection(Deps{Writer: w, Lookup: r, Allowed: allowAll}),
		`{"collection_id":"col_1","company_ids":["cmp_2","cmp_404"],"dry_run":true}`)

	require.False(t, res.IsError, tooltest.Text(t, res))
	assert.Empty(t, w.Calls)
	sc := tooltest.Structured(t, res)
	assert.Equal(t, []any{"cmp_2"}, sc["removed"])
	assert.Equal(t, []any{"cmp_404"}, sc["not_present"])
	assert.Contains(t, sc["note"], "Dry run: nothing was written.")
	assert.Contains(t, sc["note"], "the collection would then hold 1 companies")
	assert.NotContains(t, logs, `"written"`)

	r.On("GetCollectionItems", mock.Anything, "col_1", mock.Anything, (*string)(nil)).Return(page, nil).Once()
	out, err := dryRemoveFromCollection(t.Context(), Deps{Lookup: r}, "col_1", []string{"cmp_2", "cmp_404"}, nil)
	require.NoError(t, err)
	assert.Equal(t, "Remove 1 company from your collection \"Prospects\" (now 2 companies):\n  - \"Globex\" (cmp_2)\n"+
		"Not in it, so nothing to remove: cmp_404.\nAdding a company again later puts it at the end of the collection.", out.Preview())
}

func TestRemoveFromCollectionRecordsWhatChanged(t *testing.T) {
	col := tools.Collection{ID: "col_1"}
	assert.Equal(t, tools.Touched{Written: tools.IDs{Collections: []string{"col_1"}, Companies: []string{"cmp_2"}}},
		removeFromCollectionOutput{Collection: col, Removed: []string{"cmp_2"}, NotPresent: []string{"cmp_1"}}.Touched())
	assert.Equal(t, tools.Touched{Read: tools.IDs{Collections: []string{"col_1"}}},
		removeFromCollectionOutput{Collection: col, Removed: []string{}, NotPresent: []string{"cmp_1"}}.Touched(), "nothing removed")
	assert.Equal(t, tools.Touched{Read: tools.IDs{Collections: []string{"col_1"}, Companies: []string{"cmp_2"}}},
		removeFromCollectionOutput{Collection: col, Removed: []string{"cmp_2"}, DryRun: true}.Touched(), "a dry run")
}
