package store

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/appsynclocal/dataset"
)

// expected lists, in id order, the ids of the generated companies that
// satisfy keep: the truth the database must agree with.
func expected(t *testing.T, s *Store, keep func(dataset.Company) bool) []string {
	t.Helper()
	var ids []string
	for i := 0; i < s.gen.Len(); i++ {
		if c := s.gen.Company(i); keep(c) {
			ids = append(ids, c.ID)
		}
	}
	return ids
}

// allPages follows nextToken to the end and returns every id, in order.
func allPages(t *testing.T, s *Store, q SearchQuery) ([]string, int) {
	t.Helper()
	var ids []string
	total := -1
	for page := 0; ; page++ {
		require.Less(t, page, 1000, "pagination does not end")
		p := mustSearch(t, s, q)
		if total == -1 {
			total = p.Total
		}
		require.Equal(t, total, p.Total, "total changed between pages")
		for _, c := range p.Items {
			ids = append(ids, c.ID)
		}
		if p.NextToken == "" {
			return ids, total
		}
		require.Len(t, p.Items, q.Limit, "a page before the last is full")
		q.NextToken = p.NextToken
	}
}

func TestListWithoutKeywordOrFiltersIsEveryCompanyInIDOrder(t *testing.T) {
	s, _ := openTest(t, Options{})
	ids, total := allPages(t, s, SearchQuery{Limit: 100})
	assert.Equal(t, testCompanies, total)
	assert.Equal(t, expected(t, s, func(dataset.Company) bool { return true }), ids)
}

func TestFiltersOrWithinAKindAndAcrossKinds(t *testing.T) {
	s, _ := openTest(t, Options{})
	f, err := ParseFilters([]string{"countries;Germany", "countries;france", "categories;Software", "categories;Fintech"})
	require.NoError(t, err)
	want := expected(t, s, func(c dataset.Company) bool {
		inCountry := c.CountryCode == "DE" || c.CountryCode == "FR"
		inCategory := slices.Contains(c.Categories, 0) || slices.Contains(c.Categories, 1)
		return inCountry && inCategory
	})
	require.NotEmpty(t, want)
	ids, total := allPages(t, s, SearchQuery{Facets: f, Limit: 7})
	assert.Equal(t, want, ids)
	assert.Equal(t, len(want), total)
}

func TestEmployeeAndFoundedBounds(t *testing.T) {
	s, _ := openTest(t, Options{})
	q := SearchQuery{Facets: Facets{Countries: []string{"US"}}, MinEmployees: 50, MaxEmployees: 1000, FoundedFrom: 2000, Limit: 50}
	want := expected(t, s, func(c dataset.Company) bool {
		return c.CountryCode == "US" && c.Employees >= 50 && c.Employees <= 1000 && c.Founded >= 2000
	})
	ids, total := allPages(t, s, q)
	assert.Equal(t, want, ids)
	assert.Equal(t, len(want), total)
}

func TestKeywordSearchRanksAndPagesEveryMatchOnce(t *testing.T) {
	s, _ := openTest(t, Options{})
	q := SearchQuery{Keyword: "robotics", Limit: 10}
	first := mustSearch(t, s, q)
	require.NotEmpty(t, first.Items)
	assert.Contains(t, first.Items[0].Name, "Robotics", "a name match outranks a description match")

	ids, total := allPages(t, s, q)
	assert.Len(t, ids, total)
	seen := map[string]bool{}
	for _, id := range ids {
		require.False(t, seen[id], "%s returned twice", id)
		seen[id] = true
	}
	// Porter stemming: "robot" finds the same companies as "robotics".
	assert.Equal(t, total, mustSearch(t, s, SearchQuery{Keyword: "robot", Limit: 1}).Total)
}

func TestKeywordWithFiltersMatchesBoth(t *testing.T) {
	s, _ := openTest(t, Options{})
	p := mustSearch(t, s, SearchQuery{Keyword: "software", Facets: Facets{Countries: []string{"GB"}}, Limit: 100})
	require.NotEmpty(t, p.Items)
	for _, c := range p.Items {
		assert.Equal(t, "United Kingdom", c.Country)
		text := strings.ToLower(c.Name + " " + c.Description + " " + strings.Join(c.Categories, " "))
		assert.Contains(t, text, "software")
	}
}

func TestAllWordsOrAnyWord(t *testing.T) {
	s, _ := openTest(t, Options{})
	all := mustSearch(t, s, SearchQuery{Keyword: "warehouse robots", Limit: 1}).Total
	anyWord := mustSearch(t, s, SearchQuery{Keyword: "warehouse robots", AnyWord: true, Limit: 1}).Total
	robots := mustSearch(t, s, SearchQuery{Keyword: "robots", Limit: 1}).Total
	assert.Less(t, all, robots)
	assert.Greater(t, anyWord, robots)
}

func TestKeywordSyntaxIsNeverFTSSyntax(t *testing.T) {
	s, _ := openTest(t, Options{})
	for _, kw := range []string{`robotics" OR "x`, `NEAR(a b)`, `name:acme`, `*`, `AND OR NOT`} {
		_, err := s.Search(context.Background(), SearchQuery{Keyword: kw, Limit: 5})
		var inv *InvalidError
		if err != nil {
			require.True(t, errors.As(err, &inv), "%q: %v", kw, err)
		}
	}
	_, err := s.Search(context.Background(), SearchQuery{Keyword: "?!", Limit: 5})
	var inv *InvalidError
	require.ErrorAs(t, err, &inv)
	assert.Contains(t, inv.Msg, "no searchable words")
}

func TestTamperedOrForeignTokenIsInvalid(t *testing.T) {
	s, _ := openTest(t, Options{})
	p := mustSearch(t, s, SearchQuery{Keyword: "software", Limit: 5})
	require.NotEmpty(t, p.NextToken)

	b := []byte(p.NextToken)
	b[len(b)/2] ^= 1
	for name, q := range map[string]SearchQuery{
		"tampered":      {Keyword: "software", Limit: 5, NextToken: string(b)},
		"garbage":       {Keyword: "software", Limit: 5, NextToken: "not-a-token!"},
		"other query":   {Keyword: "robotics", Limit: 5, NextToken: p.NextToken},
		"other filters": {Keyword: "software", Limit: 5, NextToken: p.NextToken, Facets: Facets{Countries: []string{"US"}}},
	} {
		_, err := s.Search(context.Background(), q)
		var inv *InvalidError
		require.ErrorAs(t, err, &inv, name)
		assert.Contains(t, inv.Msg, "nextToken", name)
	}
}

func TestParseFilters(t *testing.T) {
	f, err := ParseFilters([]string{"countries;United States", " categories ; AI & Machine Learning ", "countries;united states"})
	require.NoError(t, err)
	assert.Equal(t, []string{"US"}, f.Countries)
	assert.Equal(t, []string{"countries;United States", "categories;AI & Machine Learning"}, f.Strings())

	for filter, want := range map[string]string{
		"regions;Europe":    `unknown facet "regions"`,
		"Germany":           "malformed",
		"countries;":        "no value",
		"countries;Narnia":  "no known country",
		"categories;Crypto": "no known category",
	} {
		_, err := ParseFilters([]string{filter})
		var inv *InvalidError
		require.ErrorAs(t, err, &inv, filter)
		assert.Contains(t, inv.Msg, want, filter)
		assert.Contains(t, inv.Msg, filter, "the message names the filter")
	}
}

func TestLimitResolve(t *testing.T) {
	n, err := SearchLimit.Resolve(nil)
	require.NoError(t, err)
	assert.Equal(t, 20, n)
	for _, bad := range []int{0, -1, 101} {
		_, err := SearchLimit.Resolve(&bad)
		var inv *InvalidError
		require.ErrorAs(t, err, &inv)
		assert.Contains(t, inv.Msg, "between 1 and 100")
	}
}

func TestCompaniesKeepsOrderAndNilsUnknown(t *testing.T) {
	s, _ := openTest(t, Options{})
	cs, err := s.Companies(context.Background(), []string{"cmp_000010", "cmp_999999", "nope", "cmp_000002", "cmp_000010"})
	require.NoError(t, err)
	require.Len(t, cs, 5)
	assert.Equal(t, "cmp_000010", cs[0].ID)
	assert.Nil(t, cs[1])
	assert.Nil(t, cs[2])
	assert.Equal(t, "cmp_000002", cs[3].ID)
	assert.Equal(t, "cmp_000010", cs[4].ID)

	want := s.gen.Company(2)
	got := cs[3]
	assert.Equal(t, want.Name, got.Name)
	assert.Equal(t, "https://www."+want.Domain, got.Website)
	assert.Equal(t, want.CategoryNames(), got.Categories)
	assert.Equal(t, want.UpdatedAt, got.UpdatedAt)
	assert.Equal(t, []Contact{}, got.Contacts)

	_, err = s.Companies(context.Background(), make([]string, 51))
	var inv *InvalidError
	require.ErrorAs(t, err, &inv)
}

func TestVocabularyCountsAgreeWithTheData(t *testing.T) {
	s, _ := openTest(t, Options{})
	v, err := s.Vocabulary(context.Background())
	require.NoError(t, err)
	require.NotEmpty(t, v.Countries)
	assert.Equal(t, "United States", v.Countries[0].Value, "most common first")
	assert.Equal(t, "US", v.Countries[0].Code)
	sum := 0
	for _, c := range v.Countries {
		sum += c.Count
	}
	assert.Equal(t, testCompanies, sum)
	for _, c := range v.Categories {
		_, k, ok := dataset.CategoryByName(c.Value)
		require.True(t, ok)
		assert.Len(t, expected(t, s, func(d dataset.Company) bool { return slices.Contains(d.Categories, k) }), c.Count, c.Value)
	}
}
