package store

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/appsynclocal/dataset"
)

// differentialCompanies is the data set the planned searches are compared
// on with the straightforward plan: the default size.
const differentialCompanies = 20_000

// TestPlannedSearchesAnswerAsTheStraightforwardPlan runs every shape of
// search (keywords common, rare, several, any, absent, folded; facets,
// exclusions and bounds, selective and not; every order; capped and exact
// counts) through Search, and through the straightforward plan: test every
// generated company, sort every match, count every match. The ids, their
// order and the totals must be the same on every page compared. Sorted
// shapes also run forced to walk the order and forced to collect the
// matches; every shape also runs with counting stopped at 30.
func TestPlannedSearchesAnswerAsTheStraightforwardPlan(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the 20,000-company data set")
	}
	s, err := Open(context.Background(), Options{Dir: t.TempDir(), Companies: differentialCompanies, Seed: 1})
	require.NoError(t, err)
	defer s.Close()
	naive := newNaiveData(s.gen)

	cat := func(name string) int {
		_, k, ok := dataset.CategoryByName(name)
		require.True(t, ok, name)
		return k
	}
	keywords := []struct {
		kw  string
		any bool
	}{
		{"", false}, {"software", false}, {"robotics", false}, {"warehouse robots", false},
		{"warehouse fintech", true}, {"zzqx", false}, {"software zzqx", true}, {"payments platform", false},
		{"berlin", false}, {"Kraków", false},
	}
	filters := []SearchQuery{
		{},
		{Facets: Facets{Countries: []string{"US"}}},
		{Facets: Facets{Countries: []string{"US", "DE"}, Categories: []int{cat("Robotics"), cat("Logistics")}}},
		{Facets: Facets{Categories: []int{cat("Fintech")}}},
		{Exclude: Facets{Countries: []string{"US"}, Categories: []int{cat("Fintech")}}},
		{MinEmployees: 50, MaxEmployees: 500},
		{Facets: Facets{Countries: []string{"GB"}}, FoundedFrom: 1990, FoundedTo: 2010},
		{Exclude: Facets{Countries: []string{"DE"}}, MinEmployees: 5000},
		{Facets: Facets{Countries: []string{"EE"}, Categories: []int{cat("Software")}}, MaxEmployees: 30},
	}
	sorts := []Sort{SortRelevance, SortEmployeesDesc, SortEmployeesAsc, SortFoundedDesc, SortFoundedAsc, SortNameAsc}

	shapes, pages := 0, 0
	for ki, k := range keywords {
		for fi, f := range filters {
			for si, sort := range sorts {
				q := f
				q.Keyword, q.AnyWord, q.Sort = k.kw, k.any, sort
				q.ExactCount = (ki+fi+si)%2 == 1
				q.Limit = []int{25, 7, 40}[(ki+fi+si)%3]
				// plan: 0 as the planner chooses, 1 walking the order, -1
				// collecting; counted: where counting stops (a small cap
				// puts the end of what counting found inside the pages).
				type variant struct{ plan, counted int }
				variants := []variant{{0, MaxCounted}, {0, 30}}
				if sort != SortRelevance {
					variants = append(variants, variant{1, MaxCounted}, variant{-1, MaxCounted})
				}
				for _, v := range variants {
					shapes++
					name := fmt.Sprintf("keyword=%q any=%t filters=%d sort=%s exact=%t plan=%d counted=%d", k.kw, k.any, fi, sort, q.ExactCount, v.plan, v.counted)
					s.walkFactor, s.maxCounted = v.plan, v.counted
					wantIDs, wantTotal, wantLower := naive.search(q, v.counted)
					pages += comparePages(t, s, q, wantIDs, wantTotal, wantLower, name)
				}
			}
		}
	}
	s.walkFactor, s.maxCounted = 0, MaxCounted
	t.Logf("%d shapes, %d pages compared over %d companies", shapes, pages, differentialCompanies)
}

// comparePages follows up to three pages of q (and, for a small answer,
// every page) and compares them with the straightforward plan's answer.
func comparePages(t *testing.T, s *Store, q SearchQuery, wantIDs []string, wantTotal int, wantLower bool, name string) int {
	t.Helper()
	maxPages := 3
	if len(wantIDs) <= 200 {
		maxPages = 200/q.Limit + 2
	}
	got := []string{}
	pages := 0
	for ; pages < maxPages; pages++ {
		p, err := s.Search(context.Background(), q)
		require.NoError(t, err, name)
		require.Equal(t, wantTotal, p.Total, "total: %s", name)
		require.Equal(t, wantLower, p.TotalIsLowerBound, "lower bound: %s", name)
		for _, c := range p.Items {
			got = append(got, c.ID)
		}
		if p.NextToken == "" {
			require.Equal(t, wantIDs, got, "every id: %s", name)
			return pages + 1
		}
		require.Len(t, p.Items, q.Limit, "a page before the last is full: %s", name)
		q.NextToken = p.NextToken
	}
	require.Equal(t, wantIDs[:len(got)], got, "ids of the first pages: %s", name)
	return pages
}

func TestCountIsSearchsTotal(t *testing.T) {
	s, _ := openTest(t, Options{})
	s.maxCounted = 50
	for _, q := range []SearchQuery{
		{Keyword: "software"}, {Keyword: "software", ExactCount: true}, {Keyword: "zzqx"},
		{Keyword: "robotics", Facets: Facets{Countries: []string{"FR"}}}, {Facets: Facets{Countries: []string{"US"}}},
		{MinEmployees: 100}, {MinEmployees: 100, FoundedFrom: 2000}, {Keyword: "warehouse fintech", AnyWord: true, MaxEmployees: 40},
	} {
		total, lower, err := s.Count(t.Context(), q)
		require.NoError(t, err)
		q.Limit = 1
		p := mustSearch(t, s, q)
		require.Equal(t, p.Total, total, "%+v", q)
		require.Equal(t, p.TotalIsLowerBound, lower, "%+v", q)
	}
}
