package store

import (
	"cmp"
	"context"
	"slices"

	"github.com/companyintel/mcp-server/appsynclocal/dataset"
)

// FacetCount is one filter value and how many companies carry it.
type FacetCount struct {
	// Value is what goes after "countries;" or "categories;".
	Value string
	// Code is the ISO alpha-2 code, for countries.
	Code  string
	Count int
}

// Vocabulary lists the values the filters accept, most common first.
type Vocabulary struct {
	Countries  []FacetCount
	Categories []FacetCount
}

// Vocabulary counts companies per country and per category. Values no company
// carries are left out.
func (s *Store) Vocabulary(context.Context) (*Vocabulary, error) {
	countries := map[string]int{}
	categories := make([]int, len(dataset.Categories))
	for _, c := range s.index.combos {
		countries[dataset.Countries[c.country].Code] += c.count
		for k := range categories {
			if c.mask&(1<<k) != 0 {
				categories[k] += c.count
			}
		}
	}
	v := &Vocabulary{Countries: []FacetCount{}, Categories: []FacetCount{}}
	for _, c := range dataset.Countries {
		if n := countries[c.Code]; n > 0 {
			v.Countries = append(v.Countries, FacetCount{Value: c.Name, Code: c.Code, Count: n})
		}
	}
	for k, c := range dataset.Categories {
		if n := categories[k]; n > 0 {
			v.Categories = append(v.Categories, FacetCount{Value: c.Name, Count: n})
		}
	}
	byCount := func(a, b FacetCount) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Value, b.Value))
	}
	slices.SortFunc(v.Countries, byCount)
	slices.SortFunc(v.Categories, byCount)
	return v, nil
}
