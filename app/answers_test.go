package app

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pageAll follows next_cursor from args and returns the ids of every page in
// order, and how many pages were cut by the answer bound.
func pageAll(t *testing.T, s *session, tool, args, records string) (ids []string, total, cut int) {
	t.Helper()
	var a map[string]any
	require.NoError(t, json.Unmarshal([]byte(args), &a))
	for page := 0; ; page++ {
		require.Less(t, page, 200, "paging does not end")
		b, _ := json.Marshal(a)
		sc := s.ok(tool, string(b))
		total = int(sc["total"].(float64))
		for _, r := range list(sc[records]) {
			if c := obj(obj(r)["company"]); c != nil {
				r = c
			}
			ids = append(ids, obj(r)["id"].(string))
		}
		if sc["truncated"] == true {
			cut++
			assert.Contains(t, sc["note"], "answer size bound")
			assert.NotEmpty(t, sc["next_cursor"], "a cut page of a paged tool has a cursor to the rest")
		}
		next, _ := sc["next_cursor"].(string)
		if next == "" {
			return ids, total, cut
		}
		a["cursor"] = next
	}
}

func assertOnceEach(t *testing.T, ids []string, total int) {
	t.Helper()
	seen := map[string]bool{}
	for _, id := range ids {
		assert.False(t, seen[id], "%s visited twice", id)
		seen[id] = true
	}
	assert.Len(t, ids, total, "following cursors visits total companies")
}

// A limit=100 search cut by a small answer bound, followed cursor by cursor
// over real HTTP to the embedded backend, visits the same companies in the
// same order as the unbounded listing: none skipped, none repeated.
func TestBoundedSearchPagesVisitEveryCompanyOnce(t *testing.T) {
	const args = `{"country":"DE","limit":100}`
	bounded := newBoundedSession(t, map[string]string{"x-test-user": "alice"}, 0, 4096)
	ids, total, cut := pageAll(t, bounded, "search_companies", args, "companies")
	require.Greater(t, total, 100, "the test needs more than one backend page")
	assert.Greater(t, cut, 1, "the bound cut pages")
	assertOnceEach(t, ids, total)

	ref, refTotal, refCut := pageAll(t, asUser(t, "alice"), "search_companies", `{"country":"DE","limit":100,"ids_only":true}`, "companies")
	assert.Zero(t, refCut, "a hundred ids and names fit the default bound")
	assert.Equal(t, refTotal, total)
	assert.Equal(t, ref, ids, "the same companies in the same order as whole backend pages")
}

func TestBoundedCollectionPagesVisitEveryItemOnce(t *testing.T) {
	s := newBoundedSession(t, map[string]string{"x-test-user": "bounded-items"}, 0, 3000)
	sc := s.ok("search_companies", `{"country":"US","limit":50,"ids_only":true}`)
	var want []string
	for _, c := range list(sc["companies"]) {
		want = append(want, obj(c)["id"].(string))
	}
	col := obj(s.ok("create_collection", `{"name":"Bounded paging"}`)["collection"])["id"].(string)
	b, _ := json.Marshal(map[string]any{"collection_id": col, "company_ids": want})
	s.ok("add_to_collection", string(b))

	ids, total, cut := pageAll(t, s, "get_collection_items", fmt.Sprintf(`{"collection_id":%q,"limit":100}`, col), "items")
	assert.Greater(t, cut, 0, "the bound cut pages")
	assertOnceEach(t, ids, total)
	assert.ElementsMatch(t, want, ids)
}

func TestAnAlteredCursorIsRefusedOnTheCursorArgument(t *testing.T) {
	s := newBoundedSession(t, map[string]string{"x-test-user": "alice"}, 0, 4096)
	sc := s.ok("search_companies", `{"country":"DE","limit":100}`)
	next := sc["next_cursor"].(string)
	altered := next[:len(next)-2] + map[bool]string{true: "AA", false: "BB"}[!strings.HasSuffix(next, "AA")]
	e := s.fails("search_companies", fmt.Sprintf(`{"country":"DE","limit":100,"cursor":%q}`, altered), "invalid_arguments")
	assert.Contains(t, fmt.Sprint(e), "cursor")
	assert.NotContains(t, fmt.Sprint(e), "nextToken")
}

func TestStatusStatesTheAnswerBound(t *testing.T) {
	s := newBoundedSession(t, map[string]string{"x-test-user": "alice"}, 0, 5000)
	res := s.rpc("resources/read", fmt.Sprintf(`{"uri":%q}`, StatusURI))
	text := obj(list(res["contents"])[0])["text"].(string)
	var st Status
	require.NoError(t, json.Unmarshal([]byte(text), &st))
	assert.True(t, strings.HasPrefix(st.Limits["answer_bytes"], "5000: structuredContent JSON plus the text content"), st.Limits["answer_bytes"])
}

func TestBoundedCollectionListsVisitEveryCollectionOnce(t *testing.T) {
	s := newBoundedSession(t, map[string]string{"x-test-user": "bounded-lists"}, 0, 2048)
	for i := range 12 {
		s.ok("create_collection", fmt.Sprintf(`{"name":"List %02d","description":%q}`, i, strings.Repeat("prospects to call back ", 8)))
	}
	ids, total, cut := pageAll(t, s, "list_collections", `{"limit":100}`, "collections")
	assert.Equal(t, 12, total)
	assert.Greater(t, cut, 0, "the bound cut pages")
	assertOnceEach(t, ids, total)
}
