package store

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/companyintel/mcp-server/appsynclocal/dataset"
)

// The full-text index holds one column of words per company (ftsWords). Words
// a user can search for are runs of letters and digits; the index's own
// words below contain '_', which the tokenizer keeps inside a word and which
// is removed from profile text, so they never collide with a searched word.
const (
	// Field marks: a word of the name, the categories or the city, indexed
	// a second time with its field's mark, is a list of its own that the
	// relevance tiers query (see tierColumns).
	markName     = "n_"
	markCategory = "c_"
	markCity     = "t_"
)

// countryToken and categoryToken are the index words that stand for a
// filter value. Each ends in a digit so the Porter stemmer, which only strips
// letter suffixes, leaves it whole and distinct.
func countryToken(code string) string { return "country_" + strings.ToLower(code) + "0" }

func categoryToken(k int) string { return "category_" + strconv.Itoa(k) }

// ftsWords is what the full-text index holds for one company: its text, its
// name, category and city words again with their field marks, and its
// country and categories as filter words.
func ftsWords(c dataset.Company) string {
	categories := strings.Join(c.CategoryNames(), " ")
	var b strings.Builder
	for _, text := range []string{c.Name, c.Description, categories, c.City} {
		b.WriteString(strings.ReplaceAll(text, "_", " "))
		b.WriteByte(' ')
	}
	for _, f := range []struct{ mark, text string }{{markName, c.Name}, {markCategory, categories}, {markCity, c.City}} {
		for _, w := range words(f.text) {
			b.WriteString(f.mark + w + " ")
		}
	}
	b.WriteString(countryToken(c.CountryCode))
	for _, k := range c.Categories {
		b.WriteString(" " + categoryToken(k))
	}
	return b.String()
}

// words splits text into lower-case runs of letters and digits, as a
// keyword is split (Terms), so a marked word of the index and a marked
// search word are made the same way.
func words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// ftsFacets renders f as FTS5 conditions, " AND (…)" per kind present:
// values of one kind are ORed, kinds ANDed, as in Facets.
func ftsFacets(f Facets) string {
	var b strings.Builder
	anyOf := func(words []string) {
		b.WriteString(` AND (` + strings.Join(words, " OR ") + `)`)
	}
	if len(f.Countries) > 0 {
		words := make([]string, len(f.Countries))
		for i, c := range f.Countries {
			words[i] = `"` + countryToken(c) + `"`
		}
		anyOf(words)
	}
	if len(f.Categories) > 0 {
		words := make([]string, len(f.Categories))
		for i, k := range f.Categories {
			words[i] = `"` + categoryToken(k) + `"`
		}
		anyOf(words)
	}
	return b.String()
}
