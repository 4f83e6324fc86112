package interpret

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/companyintel/mcp-server/appsynclocal/dataset"
)

// Describe says how the query was read, so a user can see what was
// understood and rephrase what was not: every filter with the words that
// set it, the order and count asked for, and every phrase not applied.
func (q Query) Describe() string {
	var parts []string
	if len(q.Categories) > 0 {
		names := make([]string, len(q.Categories))
		for i, k := range q.Categories {
			names[i] = dataset.Categories[k].Name
		}
		parts = append(parts, "in "+orList(names))
	}
	if len(q.Countries) > 0 {
		names := make([]string, len(q.Countries))
		for i, code := range q.Countries {
			c, _ := dataset.CountryByCode(code)
			names[i] = withArticle(c.Name)
		}
		parts = append(parts, "based in "+orList(names)+q.regionsSaid())
	}
	if len(q.ExcludeCountries) > 0 {
		names := make([]string, len(q.ExcludeCountries))
		for i, code := range q.ExcludeCountries {
			c, _ := dataset.CountryByCode(code)
			names[i] = withArticle(c.Name)
		}
		s := "not based in " + orList(names)
		if len(q.Countries) == 0 {
			s += q.regionsSaid()
		}
		parts = append(parts, s)
	}
	if len(q.ExcludeCategories) > 0 {
		names := make([]string, len(q.ExcludeCategories))
		for i, k := range q.ExcludeCategories {
			names[i] = dataset.Categories[k].Name
		}
		parts = append(parts, "not in "+orList(names))
	}
	if s := q.sizeSummary(); s != "" {
		parts = append(parts, s)
	}
	if s := q.foundedPhrase(); s != "" {
		if len(q.YearPhrases) > 0 {
			s += " (from " + quoteAll(q.YearPhrases)
			if q.relativeYears {
				s += fmt.Sprintf(", counted to the data's reference date %s", dataset.ReferenceDate.Format("2006-01-02"))
			}
			s += ")"
		}
		parts = append(parts, s)
	}
	if len(q.Keywords) > 0 && q.Name == "" {
		kw := strconv.Quote(strings.Join(q.Keywords, " "))
		switch {
		case len(q.Keywords) == 1:
			parts = append(parts, "ranked by relevance to "+kw)
		default:
			parts = append(parts, "matching all of "+kw+", ranked by relevance")
		}
	}
	if q.Name != "" {
		parts = append([]string{fmt.Sprintf("named %q", q.Name)}, parts...)
	}
	var out string
	if len(parts) == 0 {
		out = "All companies: no country, category, size, founding year or keyword was recognised."
	} else {
		out = "Companies " + strings.Join(parts, ", ") + "."
	}
	if q.Name != "" {
		switch n := len(q.Matched); {
		case n == 0:
			out += fmt.Sprintf(" No company's name has all of %q.", q.Name)
		default:
			out += fmt.Sprintf(" Names matching %q: %s (first by name, then companies that only mention it).", q.Name, andList(quoted(q.Matched)))
		}
	}
	if q.Sort != SortRelevance {
		out += fmt.Sprintf(" Sorted %s (from %q).", sortSaid[q.Sort], q.SortPhrase)
	}
	if q.Limit > 0 {
		out += fmt.Sprintf(" Showing at most %d (from %q)", q.Limit, q.LimitPhrase)
		if q.limitCapped > 0 {
			out += fmt.Sprintf(", not %d: a page holds at most %d", q.limitCapped, MaxLimit)
		}
		out += "."
	}
	if q.HowMany && q.Complete() {
		out += ` Asked "how many": total, counted exactly, is the answer.`
	} else if q.HowMany {
		out += ` Asked "how many", but part of the question was not applied (below), so total does not answer it: it counts the companies found without that part.`
	}
	if q.Second != "" {
		out += fmt.Sprintf(" Not answered: the second question %q; ask it on its own.", q.Second)
	}
	if len(q.notSaid) > 0 {
		out += " Not applied: excluding " + andList(q.notSaid) +
			" — no filter expresses that exclusion, so the results may include such companies; filter them out yourself."
	}
	for _, c := range q.conflicts {
		out += " Not applied: " + c + "."
	}
	if len(q.places) > 0 {
		out += " Not applied: the place " + andList(quoted(q.places)) +
			" — no filter expresses it (countries only), so it was left out; check each company's location."
	}
	for _, u := range q.unread {
		out += " Not applied: " + u + "."
	}
	if len(q.cities) > 0 {
		out += " Not applied: a city filter for " + andList(q.cities) +
			" — there is none, so the city was searched as a keyword, which also matches companies that only mention it; check each company's city."
	}
	return out
}

// regionsSaid names the regions the countries came from, as
// companies://filters defines them.
func (q Query) regionsSaid() string {
	if len(q.Regions) == 0 {
		return ""
	}
	return " (from " + andList(quoted(q.Regions)) + ", as companies://filters lists its countries)"
}

// Complete reports whether everything the sentence asked was applied:
// nothing is in NotApplied, no size word was overridden and no second
// question was set aside. Only then does a total answer "how many".
func (q Query) Complete() bool {
	return len(q.NotApplied) == 0 && q.Second == ""
}

func (q Query) sizeSummary() string {
	var s string
	switch {
	case q.MinEmployees > 0 && q.MaxEmployees > 0:
		s = fmt.Sprintf("with %s to %s employees", thousands(q.MinEmployees), thousands(q.MaxEmployees))
	case q.MinEmployees > 0:
		s = fmt.Sprintf("with at least %s employees", thousands(q.MinEmployees))
	case q.MaxEmployees > 0:
		s = fmt.Sprintf("with at most %s employees", thousands(q.MaxEmployees))
	default:
		return ""
	}
	if len(q.SizePhrases) > 0 {
		s += " (from " + quoteAll(q.SizePhrases)
		if len(q.Overridden) > 0 {
			verb := "overrides"
			if len(q.SizePhrases) > 1 {
				verb = "override"
			}
			s += ", which " + verb + " the size word " + quoteAll(q.Overridden)
		}
		s += ")"
	}
	return s
}

func (q Query) foundedPhrase() string {
	switch {
	case q.FoundedFrom > 0 && q.FoundedFrom == q.FoundedTo:
		return fmt.Sprintf("founded in %d", q.FoundedFrom)
	case q.FoundedFrom > 0 && q.FoundedTo > 0:
		return fmt.Sprintf("founded between %d and %d", q.FoundedFrom, q.FoundedTo)
	case q.FoundedFrom > 0:
		return fmt.Sprintf("founded in %d or later", q.FoundedFrom)
	case q.FoundedTo > 0:
		return fmt.Sprintf("founded in %d or earlier", q.FoundedTo)
	}
	return ""
}

// withArticle puts "the" before the country names that take it ("the
// United States", "the Netherlands").
func withArticle(name string) string {
	if strings.HasPrefix(name, "United ") || name == "Netherlands" {
		return "the " + name
	}
	return name
}

// orList joins "a", "a or b", "a, b or c".
func orList(s []string) string {
	if len(s) <= 2 {
		return strings.Join(s, " or ")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// andList joins "a", "a and b", "a, b and c".
func andList(s []string) string {
	if len(s) <= 2 {
		return strings.Join(s, " and ")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

func quoteAll(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = strconv.Quote(w)
	}
	return strings.Join(q, ", ")
}

// thousands formats n with comma separators.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func quoted(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = strconv.Quote(v)
	}
	return out
}
