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
func (s *Store) Vocabulary(ctx context.Context) (*Vocabulary, error) {
	rows, err := s.companies.QueryContext(ctx, `SELECT country, cat_mask, count FROM facet_combos`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	countries := map[string]int{}
	categories := make([]int, len(dataset.Categories))
	for rows.Next() {
		var (
			code  string
			mask  int64
			count int
		)
		if err := rows.Scan(&code, &mask, &count); err != nil {
			return nil, err
		}
		countries[code] += count
		for k := range categories {
			if mask&(1<<k) != 0 {
				categories[k] += count
			}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
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
