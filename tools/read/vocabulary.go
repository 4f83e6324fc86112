package read

import (
	"context"
	"fmt"
	"strings"

	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/internal/country"
	"github.com/companyintel/mcp-server/internal/suggest"
	"github.com/companyintel/mcp-server/tools"
)

// FiltersURI is the resource listing the values the filters accept.
const FiltersURI = "companies://filters"

// maxSuggestions bounds the close matches offered for an unknown value.
const maxSuggestions = 5

// readVocabulary reads the filter vocabulary, or returns nil and a note when
// it cannot be read: the filters then go to the backend unchecked, which
// judges them itself. A search is never refused for want of the vocabulary.
func readVocabulary(ctx context.Context, v Vocabulary) (*query.Vocabulary, string) {
	if v == nil {
		return nil, ""
	}
	voc, err := v.FilterVocabulary(ctx)
	if err != nil || voc == nil {
		return nil, "The filters were not checked against " + FiltersURI + " (it could not be read now); the backend judged them."
	}
	return voc, ""
}

// categoryNames lists the vocabulary's categories, most common first.
func categoryNames(voc *query.Vocabulary) []string {
	names := make([]string, len(voc.Categories))
	for i, c := range voc.Categories {
		names[i] = c.Value
	}
	return names
}

// matchCategories checks each category against the vocabulary: an exact
// name passes, a name differing only in case is corrected and noted, and
// anything else is refused with the closest names. Without a vocabulary the
// names pass unchanged.
func matchCategories(in []string, voc *query.Vocabulary) (names []string, notes []string, refused []tools.FieldError) {
	if voc == nil {
		return in, nil, nil
	}
	all := categoryNames(voc)
	for _, c := range in {
		name, ok := suggest.Exact(c, all)
		switch {
		case ok && name == c:
			names = append(names, name)
		case ok:
			names = append(names, name)
			notes = append(notes, fmt.Sprintf("Category %q was read as %s.", c, name))
		default:
			refused = append(refused, unknownCategory(c, all))
		}
	}
	return names, notes, refused
}

// unknownCategory explains a category the data does not have.
func unknownCategory(c string, all []string) tools.FieldError {
	near := suggest.Near(c, all, maxSuggestions)
	problem := fmt.Sprintf("unknown category %q", tools.Excerpt(c))
	if len(near) > 0 {
		problem += "; did you mean " + quoteList(near) + "?"
	}
	problem += fmt.Sprintf(" Names must match one of the %d in %s", len(all), FiltersURI)
	return tools.FieldError{Field: "categories", Problem: problem, DidYouMean: near}
}

// covers reports whether the data holds any company in the country.
func covers(voc *query.Vocabulary, c country.Country) bool {
	for _, f := range voc.Countries {
		if (f.Code != nil && strings.EqualFold(*f.Code, c.Alpha2)) || strings.EqualFold(f.Value, c.Name) {
			return f.Count > 0
		}
	}
	return false
}

// maxCountriesNamed bounds the countries a note names; the resource has all.
const maxCountriesNamed = 10

// notCoveredNote says that real countries have no companies in the data, and
// what the data does cover, so that a model does not read the empty answer
// as a wrong argument; searched says the other countries asked for were
// searched without them.
func notCoveredNote(cs []country.Country, voc *query.Vocabulary, searched bool) string {
	named := make([]string, 0, maxCountriesNamed)
	for _, f := range voc.Countries[:min(maxCountriesNamed, len(voc.Countries))] {
		named = append(named, fmt.Sprintf("%s (%d)", f.Value, f.Count))
	}
	more := ""
	if len(voc.Countries) > len(named) {
		more = ", …"
	}
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = c.Name
	}
	also := " Nothing was searched."
	if searched {
		also = " The other countries were searched."
	}
	return fmt.Sprintf("No company in the data is in %s: a real country, but the data covers %d countries, the most common %s%s. "+
		"%s lists them all with counts.%s", strings.Join(names, " or "), len(voc.Countries), strings.Join(named, ", "), more, FiltersURI, also)
}

// emptyNote explains a search that matched nothing although each filter
// names values the data has: it is the combination that is empty.
func emptyNote(voc *query.Vocabulary, cs []country.Country, categories []string) string {
	if voc == nil {
		return "The values " + FiltersURI + " lists, with how many companies carry each, show what the data covers."
	}
	var parts []string
	for _, c := range cs {
		for _, f := range voc.Countries {
			if f.Code != nil && *f.Code == c.Alpha2 {
				parts = append(parts, fmt.Sprintf("%s %d", f.Value, f.Count))
			}
		}
	}
	for _, name := range categories {
		for _, f := range voc.Categories {
			if f.Value == name {
				parts = append(parts, fmt.Sprintf("%s %d", f.Value, f.Count))
			}
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "Companies in the data: " + strings.Join(parts, ", ") + "; none match all the arguments together. Drop a filter, widen a bound or shorten the query."
}

// filtersNextStep points a filter value the backend refused at the values it
// accepts. Other refusals (a cursor, a bound) have their own words.
func filtersNextStep(e *tools.Error) string {
	if e.Class != tools.InvalidArguments {
		return ""
	}
	words := strings.ToLower(e.Message)
	if strings.Contains(words, "filter") || strings.Contains(words, "countr") || strings.Contains(words, "categor") {
		return FiltersURI + " lists the countries and categories the data has, with close names to choose from"
	}
	return ""
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}
