package interpret

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/companyintel/mcp-server/appsynclocal/dataset"
)

// referenceYear is the year ages are counted to: "in the last five years"
// means since referenceYear-5, for the data set's ReferenceDate, not for the
// day the sentence is read, so that an answer does not change with the
// clock.
var referenceYear = dataset.ReferenceDate.Year()

const foundingVerb = `(?:founded|established|started|created|incorporated|launched|set\s+up)`

var (
	// foundedRE reads "founded in 2010", "established before 2000",
	// "founded between 2010 and 2015".
	foundedRE = regexp.MustCompile(`\b` + foundingVerb + `\s+(in|after|before|since|between|from)\s+(\d{4})(?:\s+(?:and|to|-)\s+(\d{4}))?\b`)
	// orLaterRE reads "founded in 2010 or later", "founded 2000 or earlier".
	orLaterRE = regexp.MustCompile(`\b` + foundingVerb + `\s+(?:in\s+)?(\d{4})\s+or\s+(later|after|since|earlier|before)\b`)
	// prePostRE reads "pre-2000" and "post-2010".
	prePostRE = regexp.MustCompile(`\b(pre|post)-?(\d{4})\b`)
	// lastRE reads "in the last five years", "founded within the past 3
	// years", "over the last decade".
	lastRE = regexp.MustCompile(`(?:\b` + foundingVerb + `\s+)?\b(?:in|within|during|over)\s+the\s+(?:last|past|previous)\s+(?:(\d+)\s+)?(years?|decades?)\b`)
	// decadeRE reads "founded in the 1990s", "from the '80s", "in the 2010s".
	decadeRE = regexp.MustCompile(`(?:\b` + foundingVerb + `\s+)?\b(?:in|from|during)\s+the\s+'?(\d{2}|\d{4})s\b|(?:\b` + foundingVerb + `\s+in\s+)?\b(19[5-9]0|20[0-2]0)s\b`)
	// ageRE reads "older than 20 years", "less than 5 years old", "at least
	// 10 years old", "20+ years old", "founded more than 20 years ago".
	ageRE = regexp.MustCompile(`\b(?:(older|younger|newer)\s+than\s+(\d+)\s+years?(?:\s+old)?|(more than|over|above|at least|less than|under|fewer than|at most|up to|no more than|no less than)\s+(\d+)\s+years?\s+old|(\d+)\+\s+years?\s+old|(\d+)\s+(?:or more|or over|and over|and up)\s+years?\s+old|` +
		foundingVerb + `\s+(more than|over|at least|less than|fewer than|under|within|at most|no more than)\s+(\d+)\s+years?\s+ago|` + foundingVerb + `\s+(\d+)\s+years?\s+ago)\b`)
)

// takeFounded collects founding-year phrases into bounds and blanks them
// out; a negated one goes to exclude instead. Ages count whole years to
// the data set's reference date: a company founded in year Y is
// referenceYear-Y years old.
func takeFounded(text, sentence string, bounds *[]bound, exclude func(machine, said string)) string {
	add := func(b bound, negated bool) {
		if b.lo == 0 && b.hi == 0 { // "founded in 0000" bounds nothing
			return
		}
		if b.lo != 0 && b.hi != 0 && b.lo > b.hi {
			b.lo, b.hi = b.hi, b.lo
		}
		if negated {
			exclude(fmt.Sprintf("not %q", b.phrase), strconv.Quote(b.phrase))
			return
		}
		*bounds = append(*bounds, b)
	}
	text = replaceAll(orLaterRE, text, sentence, func(m []string, negated bool) {
		year, b := parseNumber(m[1]), bound{phrase: phraseOf(m)}
		if m[2] == "earlier" || m[2] == "before" {
			b.hi = year
		} else {
			b.lo = year
		}
		add(b, negated)
	})
	text = replaceAll(foundedRE, text, sentence, func(m []string, negated bool) {
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
		add(b, negated)
	})
	text = replaceAll(prePostRE, text, sentence, func(m []string, negated bool) {
		year, b := parseNumber(m[2]), bound{phrase: phraseOf(m), relative: false}
		if m[1] == "pre" {
			b.hi = max(year-1, 1)
		} else {
			b.lo = year + 1
		}
		add(b, negated)
	})
	text = replaceAll(lastRE, text, sentence, func(m []string, negated bool) {
		n := 1
		if m[1] != "" {
			n = parseNumber(m[1])
		}
		if strings.HasPrefix(m[2], "decade") {
			n *= 10
		}
		add(bound{lo: max(referenceYear-n, 1), phrase: phraseOf(m), relative: true}, negated)
	})
	text = replaceAll(decadeRE, text, sentence, func(m []string, negated bool) {
		d := m[1] + m[2]
		y := parseNumber(d)
		if len(d) == 2 { // '90s is the 1990s, '10s the 2010s: the data starts in 1950
			y += 1900
			if y < 1950 {
				y += 100
			}
		}
		if y%10 != 0 {
			return
		}
		add(bound{lo: y, hi: y + 9, phrase: phraseOf(m)}, negated)
	})
	text = replaceAll(ageRE, text, sentence, func(m []string, negated bool) {
		b := bound{phrase: phraseOf(m), relative: true}
		older := func(n int, strict bool) { // at least n years old
			if strict {
				n++
			}
			b.hi = max(referenceYear-n, 1)
		}
		younger := func(n int, strict bool) { // at most n years old
			if strict {
				n--
			}
			b.lo = max(referenceYear-max(n, 0), 1)
		}
		switch {
		case m[1] != "":
			if n := parseNumber(m[2]); m[1] == "older" {
				older(n, true)
			} else {
				younger(n, true)
			}
		case m[3] != "":
			n := parseNumber(m[4])
			switch m[3] {
			case "more than", "over", "above":
				older(n, true)
			case "at least", "no less than":
				older(n, false)
			case "less than", "under", "fewer than":
				younger(n, true)
			default: // at most, up to, no more than
				younger(n, false)
			}
		case m[5] != "":
			older(parseNumber(m[5]), false)
		case m[6] != "":
			older(parseNumber(m[6]), false)
		case m[7] != "":
			n := parseNumber(m[8])
			switch m[7] {
			case "more than", "over":
				older(n, true)
			case "at least":
				older(n, false)
			case "less than", "fewer than", "under":
				younger(n, true)
			default: // within, at most, no more than
				younger(n, false)
			}
		default:
			y := max(referenceYear-parseNumber(m[9]), 1)
			b.lo, b.hi = y, y
		}
		add(b, negated)
	})
	return text
}
