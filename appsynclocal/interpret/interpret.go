// Package interpret reads a natural-language company query ("fintech startups
// in Germany with over 20 employees") into search filters and keywords.
//
// It is deliberately a small rule-based reader, not a model: every rule is a
// phrase list or a pattern here, so its behaviour is predictable in tests and
// its interpretation can be explained back to the user word for word.
package interpret

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/companyintel/mcp-server/appsynclocal/dataset"
)

// Query is what a sentence was read as.
//
// It never inverts the sentence: a negated country, category, size, year or
// word ("not in Germany", "excluding fintech", "non-US") becomes no filter
// at all, since the search cannot exclude, and is listed in NotApplied. Nor
// does it combine constraints into an empty range: an explicit head count
// overrides a size word (listed in Overridden), and constraints that cannot
// all hold are reported in NotApplied, none of them applied.
type Query struct {
	// Countries are ISO alpha-2 codes, in the order mentioned.
	Countries []string
	// Categories are indexes into dataset.Categories, in the order mentioned.
	Categories []int
	// MinEmployees and MaxEmployees bound the head count; 0 means no bound.
	// When both are set, MinEmployees <= MaxEmployees.
	MinEmployees, MaxEmployees int
	// FoundedFrom and FoundedTo bound the founding year; 0 means no bound.
	// When both are set, FoundedFrom <= FoundedTo.
	FoundedFrom, FoundedTo int
	// Keywords are the words left for full-text ranking.
	Keywords []string
	// SizePhrases are the words that set the employee bounds ("startups",
	// "over 500 employees"), for the summary.
	SizePhrases []string
	// Overridden are the size words an explicit head count in the same
	// sentence overrode ("startups" in "startups with 50 to 200 employees").
	Overridden []string
	// NotApplied lists, machine-readably, what the sentence asked for that
	// the search did not apply: exclusions (`not countries;Germany`,
	// `not categories;Fintech`, `not employees 0-49 ("startups")`,
	// `not "founded before 2000"`, `not "crypto"`), constraints that
	// conflict (`conflict: "over 500 employees" and "under 200 employees"`)
	// and cities, which no filter expresses (`city "Berlin" (a keyword)`).
	NotApplied []string

	// notSaid, conflicts and cities say the same in words, for Describe.
	notSaid   []string
	conflicts []string
	cities    []string
}

// bound is one head-count or founding-year constraint, 0 meaning open.
type bound struct {
	lo, hi int
	phrase string
}

// Parse reads a sentence.
func Parse(sentence string) Query {
	var q Query
	text := " " + normalise(sentence) + " "
	var numeric, words, years []bound
	text = takeEmployeeRanges(text, sentence, &numeric, q.exclude)
	text = takeFounded(text, sentence, &years, q.exclude)
	q.readPhrases(phrases(tokens(text), sentence), &words)
	q.settleEmployees(numeric, words)
	q.settleFounded(years)
	q.noteCities()
	return q
}

// noteCities reports the cities among the keywords: there is no city
// filter, so a city stays a keyword, which also matches companies that
// merely mention it. NotApplied says so (`city "Berlin" (a keyword)`), so
// the caller checks each company's city.
func (q *Query) noteCities() {
	words := " " + strings.Join(q.Keywords, " ") + " "
	for _, c := range dataset.Countries {
		for _, city := range c.Cities {
			if strings.Contains(words, " "+strings.ToLower(city)+" ") {
				q.NotApplied = append(q.NotApplied, fmt.Sprintf("city %q (a keyword)", city))
				q.cities = append(q.cities, city)
			}
		}
	}
}

// normalise lower-cases a sentence and spells out contractions, so "aren't"
// reads as "are not".
func normalise(sentence string) string {
	s := strings.ToLower(sentence)
	s = strings.ReplaceAll(s, "’", "'")
	return strings.ReplaceAll(s, "n't", " not")
}

// readPhrases applies the sentence's known phrases and keywords, and sets
// aside what a negation governs: the first phrase after a negating word, and
// phrases of the same kind that follow it ("not in Germany or France").
func (q *Query) readPhrases(ps []phrase, words *[]bound) {
	negating, negated := false, kind(0)
	for i, p := range ps {
		switch {
		case p.text == blank || contrasts[p.text]:
			negating = false
			continue
		case !p.known && isNegation(ps, i):
			negating, negated = true, 0
			continue
		case !p.known && (stopWords[p.text] || !hasLetterOrDigit(p.text)):
			continue
		case isFillerVerb(ps, i):
			continue
		}
		k := kindKeyword
		if p.known {
			k = p.means.kind
		}
		if negating && (negated == 0 || k == negated) {
			negated = k
			q.excludePhrase(p, k)
			continue
		}
		negating = false
		switch e := p.means; k {
		case kindCountry:
			if !slices.Contains(q.Countries, e.code) {
				q.Countries = append(q.Countries, e.code)
			}
		case kindCategory:
			if !slices.Contains(q.Categories, e.category) {
				q.Categories = append(q.Categories, e.category)
			}
		case kindSize:
			*words = append(*words, bound{e.min, e.max, p.text})
		default:
			if !slices.Contains(q.Keywords, p.text) {
				q.Keywords = append(q.Keywords, p.text)
			}
		}
	}
}

// excludePhrase records a negated phrase as not applied.
func (q *Query) excludePhrase(p phrase, k kind) {
	switch e := p.means; k {
	case kindCountry:
		c, _ := dataset.CountryByCode(e.code)
		q.exclude("not countries;"+c.Name, withArticle(c.Name))
	case kindCategory:
		name := dataset.Categories[e.category].Name
		q.exclude("not categories;"+name, name)
	case kindSize:
		q.exclude(fmt.Sprintf("not employees %s (%q)", span(e.min, e.max), p.text), strconv.Quote(p.text))
	default:
		q.exclude(fmt.Sprintf("not %q", p.text), strconv.Quote(p.text))
	}
}

// exclude records an exclusion the search cannot express: machine is the
// NotApplied entry, said how Describe names it.
func (q *Query) exclude(machine, said string) {
	if !slices.Contains(q.NotApplied, machine) {
		q.NotApplied = append(q.NotApplied, machine)
		q.notSaid = append(q.notSaid, said)
	}
}

// conflict records constraints that cannot all hold; none of them is applied.
func (q *Query) conflict(what string, bs []bound) {
	quoted := make([]string, len(bs))
	for i, b := range bs {
		quoted[i] = strconv.Quote(b.phrase)
	}
	q.NotApplied = append(q.NotApplied, "conflict: "+strings.Join(quoted, " and "))
	q.conflicts = append(q.conflicts, fmt.Sprintf("%s conflict, so no %s bound was set", andList(quoted), what))
}

// settleEmployees sets the head-count bounds. Numbers the sentence states
// win over size words, which are then listed as overridden; bounds that
// leave no head count are reported as a conflict and not applied.
func (q *Query) settleEmployees(numeric, words []bound) {
	use := words
	if len(numeric) > 0 {
		use = numeric
		for _, w := range words {
			if !slices.Contains(q.Overridden, w.phrase) {
				q.Overridden = append(q.Overridden, w.phrase)
			}
		}
	}
	lo, hi, ok := intersect(use)
	if !ok {
		q.conflict("head-count", use)
		return
	}
	q.MinEmployees, q.MaxEmployees = lo, hi
	for _, b := range use {
		if !slices.Contains(q.SizePhrases, b.phrase) {
			q.SizePhrases = append(q.SizePhrases, b.phrase)
		}
	}
}

// settleFounded sets the founding-year bounds, or reports them as a
// conflict.
func (q *Query) settleFounded(years []bound) {
	lo, hi, ok := intersect(years)
	if !ok {
		q.conflict("founding-year", years)
		return
	}
	q.FoundedFrom, q.FoundedTo = lo, hi
}

// intersect combines bounds; ok is false when no value meets them all.
func intersect(bs []bound) (lo, hi int, ok bool) {
	for _, b := range bs {
		lo = max(lo, b.lo)
		if b.hi != 0 && (hi == 0 || b.hi < hi) {
			hi = b.hi
		}
	}
	return lo, hi, hi == 0 || lo <= hi
}

// span says a head-count band as "0-49" or "1001+".
func span(lo, hi int) string {
	if hi == 0 {
		return fmt.Sprintf("%d+", lo)
	}
	return fmt.Sprintf("%d-%d", lo, hi)
}

// Filters renders the countries and categories in the searchCompanies filter
// form, countries first.
func (q Query) Filters() []string {
	out := []string{}
	for _, code := range q.Countries {
		c, _ := dataset.CountryByCode(code)
		out = append(out, "countries;"+c.Name)
	}
	for _, k := range q.Categories {
		out = append(out, "categories;"+dataset.Categories[k].Name)
	}
	return out
}

// number matches 500, 1,000, 10000 and 2k.
const number = `(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?k?)`

// staff matches the nouns that make a number a head count.
const staff = `(?:employees|employee|people|staff|workers|person|persons|headcount|fte|ftes)`

var (
	betweenRE = regexp.MustCompile(`\b(?:between|from)\s+` + number + `\s+(?:and|to|-)\s+` + number + `\s+` + staff + `\b`)
	rangeRE   = regexp.MustCompile(`\b` + number + `\s*(?:-|–|to)\s*` + number + `\s+` + staff + `\b`)
	plusRE    = regexp.MustCompile(`\b` + number + `\+\s*` + staff + `\b`)
	// compareRE reads "over 500 employees", "no more than 50 staff" and
	// ">= 20 people". It starts at a space rather than \b, which would not
	// match before ">".
	compareRE = regexp.MustCompile(`(?:^|\s)(?:(not|no)\s+)?(more than|over|above|greater than|upwards of|at least|fewer than|less than|under|below|at most|up to|>=|>|<=|<)\s*` + number + `\s+` + staff + `\b`)

	foundedRE = regexp.MustCompile(`\b(?:founded|established|started|created|incorporated)\s+(in|after|before|since|between|from)\s+(\d{4})(?:\s+(?:and|to|-)\s+(\d{4}))?\b`)
)

// takeEmployeeRanges collects numeric head-count phrases into bounds and
// blanks them out; a negated one ("excluding companies over 500 employees")
// goes to exclude instead.
func takeEmployeeRanges(text, sentence string, bounds *[]bound, exclude func(machine, said string)) string {
	add := func(lo, hi int, m []string, negated bool) {
		p := phraseOf(m)
		if negated {
			exclude(fmt.Sprintf("not employees %s (%q)", span(lo, hi), p), strconv.Quote(p))
			return
		}
		*bounds = append(*bounds, bound{lo, hi, p})
	}
	pair := func(m []string, negated bool) {
		lo, hi := parseNumber(m[1]), parseNumber(m[2])
		add(min(lo, hi), max(lo, hi), m, negated) // "between 500 and 50" means 50 to 500
	}
	text = replaceAll(betweenRE, text, sentence, pair)
	text = replaceAll(rangeRE, text, sentence, pair)
	text = replaceAll(plusRE, text, sentence, func(m []string, negated bool) {
		add(parseNumber(m[1]), 0, m, negated)
	})
	text = replaceAll(compareRE, text, sentence, func(m []string, negated bool) {
		lo, hi := comparison(m[2], parseNumber(m[3]), m[1] != "")
		add(lo, hi, m, negated)
	})
	return text
}

// comparison turns "over n" into the bounds lo..hi (0: open), and "not over
// n" into what it literally says: at most n.
func comparison(op string, n int, not bool) (lo, hi int) {
	below := false // op bounds from above ("under n")
	switch op {
	case "at least", ">=":
	case "more than", "over", "above", "greater than", "upwards of", ">":
		n++ // "more than 500" excludes 500
	case "at most", "up to", "<=":
		below = true
	default: // fewer than, less than, under, below, <
		below, n = true, n-1 // "fewer than 200" excludes 200
	}
	if not { // not at least n: at most n-1; not at most n: at least n+1
		if below {
			below, n = false, n+1
		} else {
			below, n = true, n-1
		}
	}
	if below {
		return 0, max(n, 1)
	}
	return n, 0
}

// takeFounded collects founding-year phrases into bounds and blanks them
// out; a negated one goes to exclude instead.
func takeFounded(text, sentence string, bounds *[]bound, exclude func(machine, said string)) string {
	return replaceAll(foundedRE, text, sentence, func(m []string, negated bool) {
		year := parseNumber(m[2])
		b := bound{phrase: phraseOf(m)}
		switch m[1] {
		case "in":
			b.lo, b.hi = year, year
		case "after":
			b.lo = year + 1
		case "since":
			b.lo = year
		case "before":
			b.hi = max(year-1, 1)
		case "between", "from":
			b.lo = year
			if m[3] != "" {
				b.lo, b.hi = min(year, parseNumber(m[3])), max(year, parseNumber(m[3]))
			}
		}
		if b.lo == 0 && b.hi == 0 { // "founded in 0000" bounds nothing
			return
		}
		if negated {
			exclude(fmt.Sprintf("not %q", b.phrase), strconv.Quote(b.phrase))
			return
		}
		*bounds = append(*bounds, b)
	})
}

// blank replaces a phrase taken out of the text. It is a token of its own,
// so a negation before it governs it alone ("not over 500 employees in
// Germany" excludes the size, not Germany).
const blank = "§"

// replaceAll calls f with the submatches of every match, and whether a
// negating word governs it, and blanks the match. Submatches come from the
// match in place: matching the matched text again on its own could fail, as
// \b sees different neighbours there.
func replaceAll(re *regexp.Regexp, text, sentence string, f func(m []string, negated bool)) string {
	var b strings.Builder
	last := 0
	for _, loc := range re.FindAllStringSubmatchIndex(text, -1) {
		m := make([]string, len(loc)/2)
		for i := range m {
			if loc[2*i] >= 0 {
				m[i] = text[loc[2*i]:loc[2*i+1]]
			}
		}
		f(m, negatedBefore(text[:loc[0]], sentence))
		b.WriteString(text[last:loc[0]])
		b.WriteString(" " + blank + " ")
		last = loc[1]
	}
	b.WriteString(text[last:])
	return b.String()
}

// negatedBefore says whether the text just before a phrase negates it: a
// negating word with only stop words between ("excluding those with").
// sentence, as written, decides ambiguous words: "outside the US with" ends
// in a country, not in the stop word "us".
func negatedBefore(text, sentence string) bool {
	ps := phrases(tokens(text), sentence)
	for i := len(ps) - 1; i >= 0; i-- {
		switch p := ps[i]; {
		case !p.known && isNegation(ps, i):
			return true
		case p.known || !stopWords[p.text]:
			return false
		}
	}
	return false
}

// phraseOf is the matched phrase with its spacing tidied.
func phraseOf(m []string) string {
	return strings.Join(strings.Fields(m[0]), " ")
}

// parseNumber reads 500, 1,000 and 2k (2000, 2.5k = 2500).
func parseNumber(s string) int {
	s = strings.ReplaceAll(s, ",", "")
	mult := 1.0
	if rest, ok := strings.CutSuffix(s, "k"); ok {
		s, mult = rest, 1000
	}
	var f float64
	fmt.Sscan(s, &f)
	// Head counts and years fit easily; clamping keeps absurd input from
	// overflowing into negative bounds.
	return int(min(max(f*mult, 0), 100_000_000))
}

func hasLetterOrDigit(s string) bool {
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127 {
			return true
		}
	}
	return false
}
