package app

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/appsynclocal"
)

// These tests inject the embedded backend's partial-data fault over real
// HTTP: a resolver fails on one field and AppSync answers the rest of the
// data with an error naming that field's path. The tool keeps what arrived.

func TestPartialDataIsKept(t *testing.T) {
	faults := backend(t).Backend().Faults()
	s := asUser(t, "erin")
	first := list(s.ok("search_companies", `{"query":"software","limit":3}`)["companies"])
	require.Len(t, first, 3)
	a, b := obj(first[0])["id"].(string), obj(first[1])["id"].(string)

	t.Run("get_company: the profile, and the field that failed named", func(t *testing.T) {
		require.NoError(t, faults.Add(appsynclocal.PartialError("Company.description").For("GetCompany").ForNext(1)))
		sc := s.ok("get_company", fmt.Sprintf(`{"id":%q}`, a))
		c := obj(sc["company"])
		assert.Equal(t, a, c["id"])
		assert.NotEmpty(t, c["name"], "the data that arrived is kept")
		assert.Nil(t, c["description"], "the failed field is empty")
		note := sc["note"].(string)
		assert.Contains(t, note, "Incomplete answer: the data API failed on getCompany.description")
		assert.Contains(t, note, "Lambda:Unhandled: The resolver for Company.description failed (injected fault).", "the backend's own words")
	})

	t.Run("search_companies: every company, one field missing on the first", func(t *testing.T) {
		require.NoError(t, faults.Add(appsynclocal.PartialError("Company.description").For("SearchCompanies").ForNext(1)))
		sc := s.ok("search_companies", `{"query":"software","limit":3}`)
		got := list(sc["companies"])
		require.Len(t, got, 3)
		assert.Equal(t, obj(first[1])["id"], obj(got[1])["id"])
		assert.Greater(t, sc["total"], float64(3))
		assert.Contains(t, sc["note"], "searchCompanies.items.0.description")
		assert.Contains(t, sc["note"], "Showing 3 of", "the paging note stays")
	})

	t.Run("get_companies_batch: the companies that resolved, the failing id named", func(t *testing.T) {
		// name is non-null, so its failure nulls the whole first company.
		require.NoError(t, faults.Add(appsynclocal.PartialError("Company.name").For("GetCompanies").ForNext(1)))
		sc := s.ok("get_companies_batch", fmt.Sprintf(`{"ids":[%q,%q,"cmp_999999"]}`, a, b))
		got := list(sc["companies"])
		require.Len(t, got, 1, "the company that resolved")
		assert.Equal(t, b, obj(got[0])["id"])
		assert.Equal(t, []any{a}, sc["failed"], "a failed id is not reported as not found")
		assert.Equal(t, []any{"cmp_999999"}, sc["not_found"])
		note := sc["note"].(string)
		assert.Contains(t, note, "Failed, retry them: "+a)
		assert.Contains(t, note, "getCompanies.0.name (Lambda:Unhandled: The resolver for Company.name failed (injected fault).)")
	})

	t.Run("nothing usable: an error with the backend's words", func(t *testing.T) {
		require.NoError(t, faults.Add(appsynclocal.PartialError("Company.name").For("GetCompanies").ForNext(1)))
		e := s.fails("get_companies_batch", fmt.Sprintf(`{"ids":[%q]}`, a), "backend_error")
		assert.Contains(t, e["message"], "The resolver for Company.name failed (injected fault).")

		require.NoError(t, faults.Add(appsynclocal.PartialError("Company.name").For("GetCompany").ForNext(1)))
		e = s.fails("get_company", fmt.Sprintf(`{"id":%q}`, a), "backend_error")
		assert.Contains(t, e["message"], "getCompany.name")
	})

	t.Run("a write whose answer is partial was done: reported, not an error", func(t *testing.T) {
		require.NoError(t, faults.Add(appsynclocal.PartialError("Collection.description").For("CreateCollection").ForNext(1)))
		sc := s.ok("create_collection", `{"name":"partial answers","description":"kept"}`)
		assert.Equal(t, true, sc["created"])
		assert.NotEmpty(t, obj(sc["collection"])["id"])
		assert.Contains(t, sc["note"], "createCollection.collection.description")
		again := s.ok("create_collection", `{"name":"partial answers"}`)
		assert.Equal(t, false, again["created"], "one collection was made")
	})

	assert.Empty(t, faults.List(), "every fault was used up")
}
