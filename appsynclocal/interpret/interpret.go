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
	"strings"

	"github.com/companyintel/mcp-server/appsynclocal/dataset"
)

// Query is what a sentence was read as.
type Query struct {
	// Countries are ISO alpha-2 codes, in the order mentioned.
	Countries []string
	// Categories are indexes into dataset.Categories, in the order mentioned.
	Categories []int
	// MinEmployees and MaxEmployees bound the head count; 0 means no bound.
	MinEmployees, MaxEmployees int
	// FoundedFrom and FoundedTo bound the founding year; 0 means no bound.
	FoundedFrom, FoundedTo int
	// Keywords are the words left for full-text ranking.
	Keywords []string
	// SizePhrases are the words that set the employee bounds ("startups",
	// "over 500 employees"), for the summary.
	SizePhrases []string
}

// Parse reads a sentence.
func Parse(sentence string) Query {
	var q Query
	text := " " + strings.ToLower(sentence) + " "
	text = q.takeEmployeeRanges(text)
	text = q.takeFounded(text)
	for _, p := range phrases(tokens(text), sentence) {
		switch e := p.means; {
		case p.known && e.kind == kindCountry:
			if !slices.Contains(q.Countries, e.code) {
				q.Countries = append(q.Countries, e.code)
			}
		case p.known && e.kind == kindCategory:
			if !slices.Contains(q.Categories, e.category) {
				q.Categories = append(q.Categories, e.category)
			}
		case p.known && e.kind == kindSize:
			q.applySize(p.text, e.min, e.max)
		case !stopWords[p.text] && hasLetterOrDigit(p.text):
			if !slices.Contains(q.Keywords, p.text) {
				q.Keywords = append(q.Keywords, p.text)
			}
		}
	}
	return q
}

// applySize narrows the employee bounds by a size word. Numbers, read
// first, win over words: "startups with fewer than 20 employees" means 19.
func (q *Query) applySize(word string, lo, hi int) {
	if lo > q.MinEmployees {
		q.MinEmployees = lo
	}
	if hi != 0 && (q.MaxEmployees == 0 || hi < q.MaxEmployees) {
		q.MaxEmployees = hi
	}
	q.SizePhrases = append(q.SizePhrases, word)
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
	moreRE    = regexp.MustCompile(`\b(more than|over|above|greater than|upwards of|at least|no fewer than|no less than|>=|>)\s*` + number + `\s+` + staff + `\b`)
	lessRE    = regexp.MustCompile(`\b(fewer than|less than|under|below|at most|up to|no more than|<=|<)\s*` + number + `\s+` + staff + `\b`)

	foundedRE = regexp.MustCompile(`\b(?:founded|established|started|created|incorporated)\s+(in|after|before|since|between|from)\s+(\d{4})(?:\s+(?:and|to|-)\s+(\d{4}))?\b`)
)

// takeEmployeeRanges applies numeric head-count phrases and blanks them out.
func (q *Query) takeEmployeeRanges(text string) string {
	text = replaceAll(betweenRE, text, func(m []string) {
		q.MinEmployees, q.MaxEmployees = parseNumber(m[1]), parseNumber(m[2])
		q.sizePhrase(m)
	})
	text = replaceAll(rangeRE, text, func(m []string) {
		q.MinEmployees, q.MaxEmployees = parseNumber(m[1]), parseNumber(m[2])
		q.sizePhrase(m)
	})
	text = replaceAll(plusRE, text, func(m []string) {
		q.MinEmployees = parseNumber(m[1])
		q.sizePhrase(m)
	})
	text = replaceAll(moreRE, text, func(m []string) {
		n := parseNumber(m[2])
		if !strings.HasPrefix(m[1], "at least") && !strings.HasPrefix(m[1], "no ") && m[1] != ">=" {
			n++ // "more than 500" excludes 500
		}
		q.MinEmployees = n
		q.sizePhrase(m)
	})
	text = replaceAll(lessRE, text, func(m []string) {
		n := parseNumber(m[2])
		if !strings.HasPrefix(m[1], "at most") && !strings.HasPrefix(m[1], "up to") && !strings.HasPrefix(m[1], "no ") && m[1] != "<=" {
			n-- // "fewer than 200" excludes 200
		}
		q.MaxEmployees = max(n, 1)
		q.sizePhrase(m)
	})
	if q.MinEmployees != 0 && q.MaxEmployees != 0 && q.MinEmployees > q.MaxEmployees {
		q.MinEmployees, q.MaxEmployees = q.MaxEmployees, q.MinEmployees
	}
	return text
}

// takeFounded applies a founding-year phrase and blanks it out.
func (q *Query) takeFounded(text string) string {
	return replaceAll(foundedRE, text, func(m []string) {
		year := parseNumber(m[2])
		switch m[1] {
		case "in":
			q.FoundedFrom, q.FoundedTo = year, year
		case "after":
			q.FoundedFrom = year + 1
		case "since":
			q.FoundedFrom = year
		case "before":
			q.FoundedTo = year - 1
		case "between", "from":
			q.FoundedFrom = year
			if m[3] != "" {
				q.FoundedTo = parseNumber(m[3])
			}
		}
	})
}

// replaceAll calls f with the submatches of every match and blanks the match.
// Submatches come from the match in place: matching the matched text again
// on its own could fail, as \b sees different neighbours there.
func replaceAll(re *regexp.Regexp, text string, f func([]string)) string {
	var b strings.Builder
	last := 0
	for _, loc := range re.FindAllStringSubmatchIndex(text, -1) {
		m := make([]string, len(loc)/2)
		for i := range m {
			if loc[2*i] >= 0 {
				m[i] = text[loc[2*i]:loc[2*i+1]]
			}
		}
		f(m)
		b.WriteString(text[last:loc[0]])
		b.WriteString(" ")
		last = loc[1]
	}
	b.WriteString(text[last:])
	return b.String()
}

// sizePhrase records a numeric head-count phrase for the summary.
func (q *Query) sizePhrase(m []string) {
	q.SizePhrases = append(q.SizePhrases, strings.Join(strings.Fields(m[0]), " "))
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
