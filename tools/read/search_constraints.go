package read

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/internal/country"
	"github.com/companyintel/mcp-server/tools"
)

// A search answer names every constraint it applied (applied_filters) and
// every one it did not (not_applied), each in one form, "kind;value":
//
//	keyword;warehouse robotics
//	countries;United States          categories;Software
//	not countries;Germany            not categories;Fintech
//	employees;50..1000   employees;50..   employees;..1000
//	founded;2010..2020   founded;2010..   founded;..2020
//	sort;employees_desc              count;exact
//
// The facets are the backend's own filter form; an exclusion is the facet
// after "not ", as ai_search's not_applied words it; a range is inclusive
// at both ends, an open end left empty. So an agent can check a bound was
// honoured by reading one list, and a constraint the backend could not apply
// is never dropped unsaid.

// sortArg maps search_companies' sort values to the backend's orders;
// relevance is the default and is not sent.
var sortArg = map[string]query.CompanySort{
	"employees_desc": query.SortEmployeesDesc,
	"employees_asc":  query.SortEmployeesAsc,
	"founded_desc":   query.SortFoundedDesc,
	"founded_asc":    query.SortFoundedAsc,
	"name":           query.SortNameAsc,
}

// rangeConstraint renders an inclusive range; nil or a high end of 0 is an
// open end (a low end of 0 is a bound: "employees;0..").
func rangeConstraint(kind string, lo *int, hi int) string {
	if lo == nil && hi == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(kind + ";")
	if lo != nil {
		b.WriteString(strconv.Itoa(*lo))
	}
	b.WriteString("..")
	if hi != 0 {
		b.WriteString(strconv.Itoa(hi))
	}
	return b.String()
}

// constraints lists what a search asks for beyond its facets, in the
// answer's form: the keyword, the ranges, the order and the exact count.
func constraints(in searchCompaniesInput) (keyword, ranges, refined []string) {
	if in.Query != "" {
		keyword = append(keyword, "keyword;"+in.Query)
	}
	for _, r := range []string{rangeConstraint("employees", in.MinEmp, in.MaxEmp), rangeConstraint("founded", nonZero(in.FoundedGE), in.FoundedLE)} {
		if r != "" {
			ranges = append(ranges, r)
		}
	}
	if _, ok := sortArg[in.Sort]; ok {
		refined = append(refined, "sort;"+in.Sort)
	}
	if in.CountOnly {
		refined = append(refined, "count;exact")
	}
	return keyword, ranges, refined
}

// maxCountries bounds the countries one argument names.
const maxCountries = 20

// readCountries reads a country argument: one country, or several
// separated by commas ("US,CA,MX"). The whole text is tried first, so that
// a name holding a comma still reads as one country. Each is named once.
func readCountries(field, s string) ([]country.Country, []string, *tools.Error) {
	if s == "" {
		return nil, nil, nil
	}
	if c, ok := country.Lookup(s); ok {
		return []country.Country{c}, readAs(s, c), nil
	}
	parts := strings.Split(s, ",")
	if len(parts) > maxCountries {
		return nil, nil, tools.Invalid(field, fmt.Sprintf("at most %d countries per search, got %d", maxCountries, len(parts)))
	}
	var (
		out   []country.Country
		notes []string
		seen  = map[string]bool{}
	)
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		c, ok := country.Lookup(p)
		if !ok {
			return nil, nil, unknownCountry(field, p)
		}
		if !seen[c.Alpha2] {
			seen[c.Alpha2] = true
			out = append(out, c)
			notes = append(notes, readAs(p, c)...)
		}
	}
	return out, notes, nil
}

// readAs notes how a country argument was read, unless it was the name.
func readAs(s string, c country.Country) []string {
	if strings.EqualFold(s, c.Name) {
		return nil
	}
	return []string{fmt.Sprintf("Country %q was read as %s.", s, c.Name)}
}

// facets renders countries as filters, leaving out those the vocabulary
// (when read) shows no company in: the backend refuses a country it has no
// company in. It returns the filters and the countries left out.
func facets(cs []country.Country, voc *query.Vocabulary) (filters []string, absent []country.Country) {
	for _, c := range cs {
		if voc != nil && !covers(voc, c) {
			absent = append(absent, c)
			continue
		}
		filters = append(filters, c.Facet())
	}
	return filters, absent
}

// notAppliedNote says why constraints were not applied and what to do.
func notAppliedNote(items []string) string {
	if len(items) == 0 {
		return ""
	}
	return "Not applied, because this data API's search has no such argument: " + strings.Join(items, ", ") +
		". The companies are as if they were not asked for: sort or leave them out yourself, or count the pages."
}

// exactCountHint tells an agent how to turn a lower bound into a count.
const exactCountHint = "For the exact number, call again with the same arguments and count_only: true."

// nonZero is n as an optional bound: 0 is absent.
func nonZero(n int) *int {
	if n == 0 {
		return nil
	}
	return &n
}
