package store

import (
	"slices"
	"strings"

	"github.com/companyintel/mcp-server/appsynclocal/dataset"
)

// Facet kinds, as they appear before the ';' of a filter.
const (
	FacetCountries  = "countries"
	FacetCategories = "categories"
)

// maxFilters bounds how many filters one search may carry.
const maxFilters = 50

// Facets are parsed `kind;value` filters. Values of one kind are ORed; the
// kinds are ANDed.
type Facets struct {
	// Countries are ISO alpha-2 codes.
	Countries []string
	// Categories are indexes into dataset.Categories.
	Categories []int
}

// Empty reports whether no facet is set.
func (f Facets) Empty() bool { return len(f.Countries) == 0 && len(f.Categories) == 0 }

// Strings renders the facets back in the filter form, countries first.
func (f Facets) Strings() []string {
	out := []string{}
	for _, code := range f.Countries {
		c, _ := dataset.CountryByCode(code)
		out = append(out, FacetCountries+";"+c.Name)
	}
	for _, k := range f.Categories {
		out = append(out, FacetCategories+";"+dataset.Categories[k].Name)
	}
	return out
}

// AddCountry adds a country by ISO code, once.
func (f *Facets) AddCountry(code string) {
	if !slices.Contains(f.Countries, code) {
		f.Countries = append(f.Countries, code)
	}
}

// AddCategory adds a category by index, once.
func (f *Facets) AddCategory(k int) {
	if !slices.Contains(f.Categories, k) {
		f.Categories = append(f.Categories, k)
	}
}

// ParseFilters parses filters such as "countries;United States" and
// "categories;Software". Names are matched case-insensitively. A malformed
// filter, an unknown kind or an unknown value is an *InvalidError naming the
// filter: silently matching nothing would hide a typo.
func ParseFilters(filters []string) (Facets, error) {
	var f Facets
	if len(filters) > maxFilters {
		return f, invalidf("filters has %d entries; at most %d are allowed", len(filters), maxFilters)
	}
	for _, raw := range filters {
		kind, value, ok := strings.Cut(raw, ";")
		kind, value = strings.TrimSpace(kind), strings.TrimSpace(value)
		switch {
		case !ok:
			return f, invalidf(`filter %q is malformed: use "countries;<English name>" or "categories;<category>"`, raw)
		case value == "":
			return f, invalidf("filter %q has no value after ';'", raw)
		case strings.EqualFold(kind, FacetCountries):
			c, ok := dataset.CountryByName(value)
			if !ok {
				return f, invalidf("filter %q names no known country; filterVocabulary lists the values", raw)
			}
			f.AddCountry(c.Code)
		case strings.EqualFold(kind, FacetCategories):
			_, k, ok := dataset.CategoryByName(value)
			if !ok {
				return f, invalidf("filter %q names no known category; filterVocabulary lists the values", raw)
			}
			f.AddCategory(k)
		default:
			return f, invalidf("filter %q has an unknown facet %q: use countries or categories", raw, kind)
		}
	}
	return f, nil
}
