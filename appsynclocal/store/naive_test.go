package store

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/companyintel/mcp-server/appsynclocal/dataset"
)

// naiveCompany is what the straightforward plan knows of a company: its
// generated fields and its words by field, as the index makes them.
type naiveCompany struct {
	c                                dataset.Company
	name, category, city, everywhere map[string]bool
}

// naiveData is a whole data set for the straightforward plan, made from the
// generator, not from the database.
type naiveData struct {
	cs []naiveCompany
	// tiers remembers each keyword's tier for every company.
	tiers map[string][]int
}

func newNaiveData(gen *dataset.Generator) naiveData {
	out := make([]naiveCompany, gen.Len())
	for i := range out {
		c := gen.Company(i)
		set := func(text string) map[string]bool {
			m := map[string]bool{}
			for _, w := range words(text) {
				m[termOf(w)] = true
			}
			return m
		}
		out[i] = naiveCompany{c: c, name: set(c.Name), category: set(strings.Join(c.CategoryNames(), " ")), city: set(c.City),
			everywhere: set(c.Name + " " + c.Description + " " + strings.Join(c.CategoryNames(), " ") + " " + c.City)}
	}
	return naiveData{cs: out, tiers: map[string][]int{}}
}

// tier is the relevance tier of c for the words (in their index form,
// termOf), or -1 if it does not match.
func (c naiveCompany) tier(terms []string, anyWord bool) int {
	fields := [][]map[string]bool{{c.name}, {c.name, c.category}, {c.name, c.category, c.city}, {c.everywhere}}
	for t, fs := range fields {
		found := 0
		for _, w := range terms {
			for _, f := range fs {
				if f[w] {
					found++
					break
				}
			}
		}
		if found == len(terms) || anyWord && found > 0 {
			return t
		}
	}
	return -1
}

// filtered reports whether c passes q's facets, exclusions and bounds.
func (c naiveCompany) filtered(q SearchQuery) bool {
	co := c.c
	inAny := func(cats []int) bool {
		for _, k := range cats {
			if slices.Contains(co.Categories, k) {
				return true
			}
		}
		return false
	}
	switch {
	case len(q.Facets.Countries) > 0 && !slices.Contains(q.Facets.Countries, co.CountryCode),
		len(q.Facets.Categories) > 0 && !inAny(q.Facets.Categories),
		slices.Contains(q.Exclude.Countries, co.CountryCode),
		inAny(q.Exclude.Categories),
		q.MinEmployees != 0 && co.Employees < q.MinEmployees,
		q.MaxEmployees != 0 && co.Employees > q.MaxEmployees,
		q.FoundedFrom != 0 && co.Founded < q.FoundedFrom,
		q.FoundedTo != 0 && co.Founded > q.FoundedTo:
		return false
	}
	return true
}

// search is the straightforward plan: test every company, sort every
// match, count every match. It returns every match's id in order and the
// total a page must report when at most maxCounted are counted.
func (d naiveData) search(q SearchQuery, maxCounted int) ([]string, int, bool) {
	terms := Terms(q.Keyword)
	indexed := make([]string, len(terms))
	for i, w := range terms {
		indexed[i] = termOf(w)
	}
	type match struct {
		c    dataset.Company
		tier int
	}
	key := fmt.Sprint(indexed, q.AnyWord)
	tiers, ok := d.tiers[key]
	if !ok {
		tiers = make([]int, len(d.cs))
		for i, c := range d.cs {
			if len(terms) > 0 {
				tiers[i] = c.tier(indexed, q.AnyWord)
			}
		}
		d.tiers[key] = tiers
	}
	var ms []match
	for i, c := range d.cs {
		t := tiers[i]
		if t < 0 {
			continue
		}
		if c.filtered(q) {
			ms = append(ms, match{c.c, t})
		}
	}
	by := map[Sort]func(a, b match) int{
		SortRelevance:     func(a, b match) int { return cmp.Compare(a.tier, b.tier) },
		SortEmployeesDesc: func(a, b match) int { return cmp.Compare(b.c.Employees, a.c.Employees) },
		SortEmployeesAsc:  func(a, b match) int { return cmp.Compare(a.c.Employees, b.c.Employees) },
		SortFoundedDesc:   func(a, b match) int { return cmp.Compare(b.c.Founded, a.c.Founded) },
		SortFoundedAsc:    func(a, b match) int { return cmp.Compare(a.c.Founded, b.c.Founded) },
		SortNameAsc:       func(a, b match) int { return strings.Compare(a.c.Name, b.c.Name) },
	}[q.Sort]
	slices.SortStableFunc(ms, by) // the matches are in id order: ties stay by id
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = m.c.ID
	}
	total := len(ms)
	exact := q.ExactCount || len(terms) == 0 && !hasRanges(q)
	if !exact && total > maxCounted {
		return ids, maxCounted, true
	}
	return ids, total, false
}
