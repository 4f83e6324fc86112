package store

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/appsynclocal/dataset"
)

// tierOf returns, for every company matching the words anywhere, the first
// relevance tier whose fields hold them, testing each generated company's
// words field by field (the straightforward plan, naive_test.go).
func tierOf(t *testing.T, s *Store, terms []string, anyWord bool) map[int]int {
	t.Helper()
	tiers := map[int]int{}
	indexed := make([]string, len(terms))
	for i, w := range terms {
		indexed[i] = termOf(w)
	}
	for i, c := range newNaiveData(s.gen).cs {
		if tier := c.tier(indexed, anyWord); tier >= 0 {
			tiers[i] = tier
		}
	}
	return tiers
}

// expectedRanked lists the ids a keyword search must return, in order: the
// companies matching the words and keep (the generator's truth for filters),
// by tier, then by id.
func expectedRanked(t *testing.T, s *Store, q SearchQuery, keep func(dataset.Company) bool) []string {
	t.Helper()
	tiers := tierOf(t, s, Terms(q.Keyword), q.AnyWord)
	var nums []int
	for n := range tiers {
		if keep(s.gen.Company(n)) {
			nums = append(nums, n)
		}
	}
	slices.SortFunc(nums, func(a, b int) int {
		if tiers[a] != tiers[b] {
			return tiers[a] - tiers[b]
		}
		return a - b
	})
	ids := make([]string, len(nums))
	for i, n := range nums {
		ids[i] = s.gen.ID(n)
	}
	return ids
}

func TestKeywordPagesVisitEveryMatchOnceByTierThenID(t *testing.T) {
	s, _ := openTest(t, Options{})
	inCategory := func(c dataset.Company, k int) bool { return slices.Contains(c.Categories, k) }
	_, robotics, ok := dataset.CategoryByName("Robotics")
	require.True(t, ok)
	_, logistics, ok := dataset.CategoryByName("Logistics")
	require.True(t, ok)
	for name, tc := range map[string]struct {
		q    SearchQuery
		keep func(dataset.Company) bool
	}{
		"common word": {
			SearchQuery{Keyword: "software", Limit: 7},
			func(dataset.Company) bool { return true },
		},
		"word and facets": {
			SearchQuery{Keyword: "robots", Facets: Facets{Countries: []string{"US", "DE"}, Categories: []int{robotics, logistics}}, Limit: 2},
			func(c dataset.Company) bool {
				return (c.CountryCode == "US" || c.CountryCode == "DE") && (inCategory(c, robotics) || inCategory(c, logistics))
			},
		},
		"any word with bounds": {
			SearchQuery{Keyword: "warehouse fintech", AnyWord: true, Facets: Facets{Countries: []string{"GB", "US"}},
				MinEmployees: 20, MaxEmployees: 5000, FoundedFrom: 1990, Limit: 5},
			func(c dataset.Company) bool {
				return (c.CountryCode == "GB" || c.CountryCode == "US") &&
					c.Employees >= 20 && c.Employees <= 5000 && c.Founded >= 1990
			},
		},
	} {
		t.Run(name, func(t *testing.T) {
			want := expectedRanked(t, s, tc.q, tc.keep)
			require.Greater(t, len(want), 2*tc.q.Limit, "the query spans several pages")
			ids, total := allPages(t, s, tc.q)
			assert.Equal(t, want, ids)
			assert.Equal(t, len(want), total)
		})
	}
}

func TestKeywordTiersPutNameMatchesFirst(t *testing.T) {
	s, _ := openTest(t, Options{})
	var names []string
	q := SearchQuery{Keyword: "robotics", Limit: 30}
	for {
		p := mustSearch(t, s, q)
		for _, c := range p.Items {
			names = append(names, strings.ToLower(c.Name))
		}
		if p.NextToken == "" {
			break
		}
		q.NextToken = p.NextToken
	}
	inName := 0
	for inName < len(names) && strings.Contains(names[inName], "robot") {
		inName++
	}
	require.Positive(t, inName)
	require.Less(t, inName, len(names), "some matches are not in the name")
	for _, name := range names[inName:] {
		assert.NotContains(t, name, "robot", "a name match comes before every other match")
	}
}

func TestTotalIsALowerBoundPastTheCountingLimit(t *testing.T) {
	s, _ := openTest(t, Options{})
	s.maxCounted = 50
	for name, q := range map[string]SearchQuery{
		"keyword":     {Keyword: "software", Limit: 40},
		"with bounds": {MinEmployees: 10, Limit: 40},
	} {
		t.Run(name, func(t *testing.T) {
			first := mustSearch(t, s, q)
			assert.Equal(t, 50, first.Total)
			assert.True(t, first.TotalIsLowerBound)
			ids, _ := allPages(t, s, q)
			assert.Greater(t, len(ids), 50, "paging goes past the count")
			assert.Len(t, uniq(ids), len(ids), "no company twice")
		})
	}

	// Counts below the limit are exact, and facet-only counts always are.
	p := mustSearch(t, s, SearchQuery{Keyword: "robotics", Facets: Facets{Countries: []string{"FR"}}, Limit: 5})
	assert.Less(t, p.Total, 50)
	assert.False(t, p.TotalIsLowerBound)
	p = mustSearch(t, s, SearchQuery{Facets: Facets{Countries: []string{"US"}}, Limit: 5})
	assert.Greater(t, p.Total, 50)
	assert.False(t, p.TotalIsLowerBound)
	assert.Len(t, expected(t, s, func(c dataset.Company) bool { return c.CountryCode == "US" }), p.Total)
}

func uniq(ids []string) map[string]bool {
	m := map[string]bool{}
	for _, id := range ids {
		m[id] = true
	}
	return m
}
