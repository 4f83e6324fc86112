package store

import (
	"cmp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/appsynclocal/dataset"
)

// sortedTruth is the generated companies that satisfy keep, in the order
// by, ties by id: what a sorted search must return, page after page.
func sortedTruth(t *testing.T, s *Store, keep func(dataset.Company) bool, by func(a, b dataset.Company) int) []string {
	t.Helper()
	var cs []dataset.Company
	for i := 0; i < s.gen.Len(); i++ {
		if c := s.gen.Company(i); keep(c) {
			cs = append(cs, c)
		}
	}
	slices.SortStableFunc(cs, by) // generated in id order, so ties stay by id
	ids := make([]string, len(cs))
	for i, c := range cs {
		ids[i] = c.ID
	}
	return ids
}

func TestSortedSearchesFollowTheirOrderOverEveryPage(t *testing.T) {
	s, _ := openTest(t, Options{})
	us := func(c dataset.Company) bool { return c.CountryCode == "US" }
	software := func(c dataset.Company) bool {
		text := strings.ToLower(c.Name + " " + c.Description + " " + strings.Join(c.CategoryNames(), " ") + " " + c.City)
		return strings.Contains(text, "software")
	}
	for _, tc := range []struct {
		name string
		q    SearchQuery
		keep func(dataset.Company) bool
		by   func(a, b dataset.Company) int
	}{
		{"employees desc, filter only", SearchQuery{Facets: Facets{Countries: []string{"US"}}, Sort: SortEmployeesDesc}, us,
			func(a, b dataset.Company) int { return cmp.Compare(b.Employees, a.Employees) }},
		{"employees asc, bounded", SearchQuery{Facets: Facets{Countries: []string{"US"}}, MinEmployees: 100, Sort: SortEmployeesAsc},
			func(c dataset.Company) bool { return us(c) && c.Employees >= 100 },
			func(a, b dataset.Company) int { return cmp.Compare(a.Employees, b.Employees) }},
		{"founded desc", SearchQuery{Facets: Facets{Countries: []string{"US"}}, Sort: SortFoundedDesc}, us,
			func(a, b dataset.Company) int { return cmp.Compare(b.Founded, a.Founded) }},
		{"founded asc", SearchQuery{Facets: Facets{Countries: []string{"US"}}, Sort: SortFoundedAsc}, us,
			func(a, b dataset.Company) int { return cmp.Compare(a.Founded, b.Founded) }},
		{"name", SearchQuery{Facets: Facets{Countries: []string{"US"}}, Sort: SortNameAsc}, us,
			func(a, b dataset.Company) int { return cmp.Compare(a.Name, b.Name) }},
		{"keyword by employees", SearchQuery{Keyword: "software", Sort: SortEmployeesDesc}, software,
			func(a, b dataset.Company) int { return cmp.Compare(b.Employees, a.Employees) }},
		{"keyword by name, excluding", SearchQuery{Keyword: "software", Exclude: Facets{Countries: []string{"US"}}, Sort: SortNameAsc},
			func(c dataset.Company) bool { return software(c) && !us(c) },
			func(a, b dataset.Company) int { return cmp.Compare(a.Name, b.Name) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.q.Limit, tc.q.ExactCount = 37, true
			want := sortedTruth(t, s, tc.keep, tc.by)
			require.NotEmpty(t, want)
			ids, total := allPages(t, s, tc.q)
			assert.Equal(t, want, ids)
			assert.Equal(t, len(want), total)
		})
	}
}

func TestExclusionsLeaveOutCountriesAndCategories(t *testing.T) {
	s, _ := openTest(t, Options{})
	incl, err := ParseFilters([]string{"categories;Software"})
	require.NoError(t, err)
	excl, err := ParseFilters([]string{"countries;United States", "countries;Germany", "categories;Fintech"})
	require.NoError(t, err)
	keep := func(c dataset.Company) bool {
		return slices.Contains(c.Categories, incl.Categories[0]) && c.CountryCode != "US" && c.CountryCode != "DE" &&
			!slices.Contains(c.Categories, excl.Categories[0])
	}
	want := expected(t, s, keep)
	require.NotEmpty(t, want)
	for name, q := range map[string]SearchQuery{
		"filters":         {Facets: incl, Exclude: excl, Limit: 50},
		"filters, ranged": {Facets: incl, Exclude: excl, MinEmployees: 1, Limit: 50},
	} {
		ids, total := allPages(t, s, q)
		assert.Equal(t, want, ids, name)
		assert.Equal(t, len(want), total, name)
	}
	// With a keyword the order is by relevance; the set is what counts.
	ids, total := allPages(t, s, SearchQuery{Keyword: "software", Exclude: excl, Limit: 50})
	for _, id := range ids {
		c, err := s.Company(t.Context(), id)
		require.NoError(t, err)
		assert.NotContains(t, []string{"United States", "Germany"}, c.Country)
		assert.NotContains(t, c.Categories, "Fintech")
	}
	assert.Len(t, ids, total)
}

func TestExactCountGoesPastTheCountingCap(t *testing.T) {
	s, _ := openTest(t, Options{})
	s.maxCounted = 10
	for name, q := range map[string]SearchQuery{
		"keyword": {Keyword: "software", Limit: 1},
		"ranged":  {Facets: Facets{Countries: []string{"US"}}, MinEmployees: 1, Limit: 1},
		"sorted":  {Keyword: "software", Sort: SortFoundedAsc, Limit: 1},
	} {
		capped := mustSearch(t, s, q)
		assert.True(t, capped.TotalIsLowerBound, name)
		assert.Equal(t, 10, capped.Total, name)
		q.ExactCount = true
		exact := mustSearch(t, s, q)
		assert.False(t, exact.TotalIsLowerBound, name)
		q.ExactCount, q.Limit, s.maxCounted = false, 100, testCompanies
		_, all := allPages(t, s, q)
		s.maxCounted = 10
		assert.Equal(t, all, exact.Total, name)
		assert.Greater(t, exact.Total, 10, name)
	}
}

func TestUnknownSortIsInvalid(t *testing.T) {
	s, _ := openTest(t, Options{})
	_, err := s.Search(t.Context(), SearchQuery{Keyword: "x", Sort: "size", Limit: 1})
	var inv *InvalidError
	require.ErrorAs(t, err, &inv)
}
