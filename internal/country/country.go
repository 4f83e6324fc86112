// Package country turns what a user or an LLM types as a country into the
// canonical form the search backend filters on.
//
// The search_companies tool accepts an ISO 3166-1 alpha-2 or alpha-3 code,
// an English name or a common alias ("UK", "Holland", "German"), and the
// backend wants the facet "countries;<English short name>". Lookup maps
// the first to a Country, Facet renders the second, and Suggest offers
// near misses for the error message when Lookup fails, so the model can
// correct itself instead of guessing.
package country

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/companyintel/mcp-server/internal/suggest"
)

// Country is one ISO 3166-1 country.
type Country struct {
	// Name is the common English short name ("United States", "South
	// Korea"), which is the value the backend's countries facet uses.
	Name string
	// Alpha2 is the upper-case ISO 3166-1 alpha-2 code ("US").
	Alpha2 string
	// Alpha3 is the upper-case ISO 3166-1 alpha-3 code ("USA").
	Alpha3 string
}

// Facet renders the backend's filter form: "countries;United States".
func (c Country) Facet() string {
	return "countries;" + c.Name
}

// maxKeyLen bounds the normalised length of any code, name or alias. Longer
// input cannot be a near miss either, so Suggest rejects it before computing
// edit distances, which are quadratic: without the bound, a megabyte of tool
// input would keep Suggest busy for minutes.
const maxKeyLen = 64

// index holds the lookup structures, built once from the data tables.
type index struct {
	// byKey maps every normalised code, name and alias to a position in
	// countries. Codes share the map with names: the conflict check in
	// buildIndex guarantees that no name or alias equals another country's
	// code, so 2- and 3-letter input resolves as alpha-2 or alpha-3 (or an
	// informal code like "UK") without a separate pass.
	byKey map[string]int
	// byAlpha2 maps the upper-case alpha-2 code to a position in countries.
	byAlpha2 map[string]int
	// keys lists each country's normalised keys, in countries order, for
	// Suggest.
	keys [][]string
	// sorted is every country ordered as All promises.
	sorted []Country
	// countries is the table the index was built from.
	countries []Country
}

// idx is built on first use, not at package initialisation: building it
// (12,500 allocations) was the largest share of the server's start-up
// initialisation, paid even by a start that never normalises a country.
// TestBuildIndex keeps a conflicting alias in data.go failing every test run.
var idx = sync.OnceValue(func() *index { return mustBuildIndex(countries, aliasTable()) })

// mustBuildIndex is buildIndex for package initialisation.
func mustBuildIndex(cs []Country, al map[string][]string) *index {
	ix, err := buildIndex(cs, al)
	if err != nil {
		panic("country: " + err.Error())
	}
	return ix
}

// buildIndex validates the country table and aliases and indexes them. It
// fails if a code is malformed or repeated, if an alias names an unknown
// code, or if any two countries share a normalised key.
func buildIndex(cs []Country, al map[string][]string) (*index, error) {
	ix := &index{
		byKey:     make(map[string]int),
		byAlpha2:  make(map[string]int, len(cs)),
		keys:      make([][]string, len(cs)),
		countries: cs,
	}
	add := func(i int, s string) error {
		k := normalize(s)
		if k == "" || len(k) > maxKeyLen {
			return fmt.Errorf("%s: key %q normalises to %q, which is empty or longer than %d bytes", cs[i].Alpha2, s, k, maxKeyLen)
		}
		if j, ok := ix.byKey[k]; ok {
			if j != i {
				return fmt.Errorf("key %q (%q) names both %s and %s", s, k, cs[j].Name, cs[i].Name)
			}
			return nil // a harmless repeat, such as "U.S." next to "US"
		}
		ix.byKey[k] = i
		ix.keys[i] = append(ix.keys[i], k)
		return nil
	}
	for i, c := range cs {
		if c.Name == "" || !isCode(c.Alpha2, 2) || !isCode(c.Alpha3, 3) {
			return nil, fmt.Errorf("malformed entry %+v: want a name, two and three upper-case letters", c)
		}
		if j, ok := ix.byAlpha2[c.Alpha2]; ok {
			return nil, fmt.Errorf("alpha-2 %s used by both %s and %s", c.Alpha2, cs[j].Name, c.Name)
		}
		ix.byAlpha2[c.Alpha2] = i
		for _, s := range []string{c.Alpha2, c.Alpha3, c.Name} {
			if err := add(i, s); err != nil {
				return nil, err
			}
		}
	}
	// Sorted so that the error for a bad table is the same on every run.
	for _, code := range slices.Sorted(maps.Keys(al)) {
		i, ok := ix.byAlpha2[code]
		if !ok {
			return nil, fmt.Errorf("aliases for unknown alpha-2 %q", code)
		}
		for _, s := range al[code] {
			if err := add(i, s); err != nil {
				return nil, err
			}
		}
	}
	ix.sorted = slices.Clone(cs)
	slices.SortFunc(ix.sorted, func(a, b Country) int {
		// Compare normalised names so "Åland Islands" sorts among the A's.
		return cmp.Or(strings.Compare(normalize(a.Name), normalize(b.Name)), strings.Compare(a.Name, b.Name))
	})
	return ix, nil
}

// isCode reports whether s is n upper-case ASCII letters.
func isCode(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := range len(s) {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

// Lookup returns the country s names, and whether it was found. s may be an
// ISO alpha-2 or alpha-3 code, the English short name, or an alias such as
// "UK", "Holland", "Republic of Korea" or "German". Matching ignores case,
// surrounding and repeated whitespace, dots, apostrophes, hyphens and
// diacritics, so "u.s.", "  Cote d’Ivoire " and "TÜRKIYE" all match.
func Lookup(s string) (Country, bool) {
	i, ok := idx().byKey[normalize(s)]
	if !ok {
		return Country{}, false
	}
	return idx().countries[i], true
}

// ByAlpha2 returns the country with the given ISO alpha-2 code. The code is
// matched case-insensitively but must be a real ISO code: unlike Lookup, it
// does not accept "UK" for GB.
func ByAlpha2(code string) (Country, bool) {
	i, ok := idx().byAlpha2[strings.ToUpper(strings.TrimSpace(code))]
	if !ok {
		return Country{}, false
	}
	return idx().countries[i], true
}

// All returns every country, sorted by name. The slice is a copy the caller
// may modify.
func All() []Country {
	return slices.Clone(idx().sorted)
}

// Suggest returns up to n countries whose names or codes are closest to s,
// for an error message such as `unknown country "Germny"; did you mean
// Germany?`. Countries with a name, code or alias that starts with s come
// first, then the rest by edit distance (a swap of two adjacent letters
// counts as one edit). Countries further away than a plausible typo, one
// edit in three letters, are left out, so Suggest may return fewer than n
// countries, or none. In particular a one- or two-letter s only gets prefix
// matches: one edit away from a two-letter code is just another code.
func Suggest(s string, n int) []Country {
	q := normalize(s)
	if n <= 0 || q == "" || len(q) > maxKeyLen {
		return nil
	}
	maxDist := utf8.RuneCountInString(q) / 3
	type candidate struct {
		i      int
		prefix bool
		dist   int
	}
	// better orders candidates: prefix matches first, then the closer one.
	better := func(a, b candidate) int {
		if a.prefix != b.prefix {
			if a.prefix {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.dist, b.dist)
	}
	qr := []rune(q)
	var cands []candidate
	for i, keys := range idx().keys {
		var best candidate
		found := false
		for _, k := range keys {
			c := candidate{i: i, prefix: strings.HasPrefix(k, q), dist: suggest.Distance(qr, []rune(k))}
			if !c.prefix && c.dist > maxDist {
				continue
			}
			if !found || better(c, best) < 0 {
				best, found = c, true
			}
		}
		if found {
			cands = append(cands, best)
		}
	}
	slices.SortFunc(cands, func(a, b candidate) int {
		return cmp.Or(better(a, b), strings.Compare(idx().countries[a.i].Name, idx().countries[b.i].Name))
	})
	out := make([]Country, 0, min(n, len(cands)))
	for _, c := range cands[:min(n, len(cands))] {
		out = append(out, idx().countries[c.i])
	}
	return out
}

// normalize reduces s to the form all keys are compared in: lower case,
// Latin diacritics folded to ASCII, dots and apostrophes dropped, other
// punctuation and whitespace collapsed to single spaces, "&" spelled "and",
// "st" spelled "saint", and a leading "the" removed.
//
// Dots go because "U.S." and "US" must meet. Apostrophes go rather than
// become spaces because LLMs emit both ' and ’ in "Côte d'Ivoire", and
// "People's" should not split into "people s". A leading "the" goes
// because "The Netherlands", "The Gambia" and "the UK" are all common.
func normalize(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == '.' || isApostrophe(r):
			// Dropped; see the doc comment.
		case r == '&':
			b.WriteString(" and ")
		case unicode.Is(unicode.Mn, r):
			// A combining mark from decomposed (NFD) input, as macOS
			// produces: "Co\u0302te" is "Côte".
		case unicode.IsSpace(r) || unicode.IsPunct(r) || unicode.IsSymbol(r):
			b.WriteByte(' ')
		default:
			r = unicode.ToLower(r)
			if f, ok := fold()[r]; ok {
				b.WriteString(f)
			} else {
				b.WriteRune(r)
			}
		}
	}
	words := strings.Fields(b.String())
	if len(words) > 1 && words[0] == "the" {
		words = words[1:]
	}
	for i, w := range words {
		if w == "st" {
			words[i] = "saint"
		}
	}
	return strings.Join(words, " ")
}

// isApostrophe reports whether r is one of the characters people and LLMs
// type for an apostrophe.
func isApostrophe(r rune) bool {
	switch r {
	case '\'', '’', '‘', '`', '´', 'ʼ', '′':
		return true
	}
	return false
}

// fold maps lower-case Latin letters with diacritics, and the ligatures and
// letters that have no decomposition (ø, ß, ł, æ), to ASCII. A table rather
// than Unicode normalisation keeps the package on the standard library, and
// Latin-1 plus Latin Extended-A covers every spelling of a country name we
// accept. Built on first use: package initialisation runs on every start.
var fold = sync.OnceValue(func() map[rune]string {
	groups := []struct{ from, to string }{
		{"àáâãäåāăą", "a"}, {"æ", "ae"}, {"çćĉċč", "c"}, {"ďđð", "d"},
		{"èéêëēĕėęě", "e"}, {"ĝğġģ", "g"}, {"ĥħ", "h"}, {"ìíîïĩīĭįı", "i"},
		{"ĳ", "ij"}, {"ĵ", "j"}, {"ķ", "k"}, {"ĺļľŀł", "l"}, {"ñńņňŉ", "n"},
		{"òóôõöøōŏő", "o"}, {"œ", "oe"}, {"ŕŗř", "r"}, {"śŝşšș", "s"},
		{"ß", "ss"}, {"ţťŧț", "t"}, {"þ", "th"}, {"ùúûüũūŭůűų", "u"},
		{"ŵ", "w"}, {"ýÿŷ", "y"}, {"źżž", "z"},
	}
	m := make(map[rune]string)
	for _, g := range groups {
		for _, r := range g.from {
			m[r] = g.to
		}
	}
	return m
})
