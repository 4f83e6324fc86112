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
// It never inverts the sentence: a negated country, region or category
// ("not in Germany", "outside the EU", "excluding fintech") becomes an
// exclusion, and a negation no filter expresses (a negated keyword, a
// negated band with two ends) no filter at all, listed in NotApplied. Nor
// does it combine constraints into an empty range: an explicit head count
// overrides a size word (listed in Overridden), and constraints that cannot
// all hold are reported in NotApplied, none of them applied.
type Query struct {
	// Countries are ISO alpha-2 codes, in the order mentioned.
	Countries []string
	// Categories are indexes into dataset.Categories, in the order mentioned.
	Categories []int
	// ExcludeCountries (ISO alpha-2) and ExcludeCategories (indexes into
	// dataset.Categories) are what a negation left out: no company in any
	// of them is an answer.
	ExcludeCountries  []string
	ExcludeCategories []int
	// Regions are the regions the sentence named, included or excluded, as
	// dataset.Regions names them, for the summary.
	Regions []string
	// Name is the company name the sentence named ("Kavora Health"), found
	// in the data: it is the keyword, matched against names first. Matched
	// are the names of the companies whose name has it.
	Name    string
	Matched []string
	// Second is a second question the sentence asked ("… and how many are
	// in France?"): not answered by this search, and listed in NotApplied.
	Second string
	// MinEmployees and MaxEmployees bound the head count; 0 means no bound.
	// When both are set, MinEmployees <= MaxEmployees.
	MinEmployees, MaxEmployees int
	// FoundedFrom and FoundedTo bound the founding year; 0 means no bound.
	// When both are set, FoundedFrom <= FoundedTo.
	FoundedFrom, FoundedTo int
	// YearPhrases are the words that set the founding-year bounds ("in the
	// last five years", "founded in the 1990s"), for the summary.
	YearPhrases []string
	// Sort is the order a superlative asked for ("the largest": most
	// employees first); SortPhrase is the superlative.
	Sort       Sort
	SortPhrase string
	// Limit is how many companies a count asked for ("top 5", "ten
	// largest"), at most MaxLimit; 0 when none was. LimitPhrase is the
	// count.
	Limit       int
	LimitPhrase string
	// HowMany says the sentence asked how many companies there are: the
	// total answers it.
	HowMany bool
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

	// notSaid, conflicts, cities, places and unread say the same in words,
	// for Describe.
	notSaid   []string
	conflicts []string
	cities    []string
	places    []string
	unread    []string
	// relativeYears says a founding-year bound was counted from the
	// reference date; limitCapped is a count asked for above MaxLimit.
	relativeYears bool
	limitCapped   int
	// negSizes and negNumeric are head-count bounds a negation set ("not
	// startups", "excluding those over 500 employees").
	negSizes, negNumeric []bound
}

// bound is one head-count or founding-year constraint, 0 meaning open.
type bound struct {
	lo, hi int
	phrase string
	// relative says a founding-year bound was counted from the reference
	// date ("in the last five years").
	relative bool
}

// Parse reads a sentence.
func Parse(sentence string) Query {
	var q Query
	sentence, q.Second = splitQuestions(sentence)
	if q.Second != "" {
		q.NotApplied = append(q.NotApplied, fmt.Sprintf("second question %q (ask it on its own)", q.Second))
	}
	text := " " + numberWords(normalise(sentence)) + " "
	var numeric, words, years []bound
	text = takeEmployeeRanges(text, sentence, &numeric, q.negatedNumber)
	text = q.takeSingleCounts(text, sentence)
	text = takeFounded(text, sentence, &years, q.exclude)
	text = q.takeOrder(text)
	q.readPhrases(phrases(tokens(text), sentence), sentence, &words)
	q.settleExclusions()
	q.settleEmployees(append(numeric, q.negNumeric...), append(words, q.negSizes...))
	q.settleFounded(years)
	q.noteCities()
	return q
}

var (
	// secondAfterMarkRE finds a question after a question mark.
	secondAfterMarkRE = regexp.MustCompile(`(?i)\?\s*((?:and\s+|also\s+|plus\s+)*(?:how|which|what|who|where|when|list|show|give|name|tell|can|could|do|does|is|are|find)\b.*)$`)
	// secondAfterAndRE finds a question joined by "and" ("… and how many
	// are in France").
	secondAfterAndRE = regexp.MustCompile(`(?i)(?:,\s*|\s+)(?:and|also|plus|then)\s+(?:also\s+)?((?:how\s+many|how\s+much|which|what|who|where|when|list|show|give|tell)\b.*)$`)
)

// splitQuestions separates a second question ("Which fintech companies are
// in Germany? How many are in France?") from the first, which alone is
// read: one search cannot answer two questions.
func splitQuestions(sentence string) (first, second string) {
	for _, re := range []*regexp.Regexp{secondAfterMarkRE, secondAfterAndRE} {
		if loc := re.FindStringSubmatchIndex(sentence); loc != nil && hasLetterOrDigit(strings.ToLower(sentence[:loc[0]])) {
			second = strings.TrimSpace(sentence[loc[2]:loc[3]])
			return strings.TrimSpace(sentence[:loc[0]]), strings.TrimRight(second, " ?.!")
		}
	}
	return sentence, ""
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
func (q *Query) readPhrases(ps []phrase, sentence string, words *[]bound) {
	negating, negated, prefix := false, kind(0), false
	for i, p := range ps {
		switch {
		case p.text == blank || contrasts[p.text]:
			negating = false
			continue
		case !p.known && isNegation(ps, i):
			negating, negated = true, 0
			prefix = p.text == "non" || p.text == "ex"
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
		if negating && (negated == 0 || k.group() == negated) {
			negated = k.group()
			q.excludePhrase(p, k)
			if prefix { // "non-EU European": "non" negates one word
				negating = false
			}
			continue
		}
		negating = false
		if k == kindKeyword && q.isPlace(ps, i, sentence) {
			continue
		}
		if k == kindKeyword && isNumber(p.text) {
			q.NotApplied = append(q.NotApplied, fmt.Sprintf("number %q (not read as a count, size or year)", p.text))
			q.unread = append(q.unread, fmt.Sprintf("the number %s, which was not read as a count, a head count or a founding year", p.text))
			continue
		}
		switch e := p.means; k {
		case kindCountry:
			if !slices.Contains(q.Countries, e.code) {
				q.Countries = append(q.Countries, e.code)
			}
		case kindCategory:
			if !slices.Contains(q.Categories, e.category) {
				q.Categories = append(q.Categories, e.category)
			}
		case kindRegion:
			r := dataset.Regions[e.region]
			q.noteRegion(r.Name)
			for _, code := range r.Codes {
				if !slices.Contains(q.Countries, code) {
					q.Countries = append(q.Countries, code)
				}
			}
		case kindSize:
			*words = append(*words, bound{lo: e.min, hi: e.max, phrase: p.text})
		default:
			if !slices.Contains(q.Keywords, p.text) {
				q.Keywords = append(q.Keywords, p.text)
			}
		}
	}
}

// excludePhrase applies a negated phrase as an exclusion where the search
// can express it (a country, a region, a category, a size band open at one
// end) and lists it as not applied otherwise.
func (q *Query) excludePhrase(p phrase, k kind) {
	switch e := p.means; k {
	case kindCountry:
		q.excludeCountry(e.code)
	case kindRegion:
		r := dataset.Regions[e.region]
		q.noteRegion(r.Name)
		for _, code := range r.Codes {
			q.excludeCountry(code)
		}
	case kindCategory:
		if !slices.Contains(q.ExcludeCategories, e.category) {
			q.ExcludeCategories = append(q.ExcludeCategories, e.category)
		}
	case kindSize:
		q.negatedSize(e.min, e.max, p.text)
	default:
		q.exclude(fmt.Sprintf("not %q", p.text), strconv.Quote(p.text))
	}
}

// negatedNumber applies a negated head-count phrase ("excluding companies
// over 500 employees") as its complement when that is one range, and lists
// it as not applied otherwise.
func (q *Query) negatedNumber(lo, hi int, phrase string) {
	switch {
	case lo <= 1 && hi > 0:
		q.negNumeric = append(q.negNumeric, bound{lo: hi + 1, phrase: "not " + phrase})
	case hi == 0 && lo > 1:
		q.negNumeric = append(q.negNumeric, bound{hi: lo - 1, phrase: "not " + phrase})
	default:
		q.exclude(fmt.Sprintf("not employees %s (%q)", span(lo, hi), phrase), strconv.Quote(phrase))
	}
}

// settleExclusions takes what is excluded out of what is included ("in
// Europe except Germany": Europe's countries but Germany). When nothing
// included is left, the two conflict: the inclusion is not applied, the
// exclusion is.
func (q *Query) settleExclusions() {
	if len(q.Countries) > 0 && len(q.ExcludeCountries) > 0 {
		kept := slices.DeleteFunc(slices.Clone(q.Countries), func(c string) bool { return slices.Contains(q.ExcludeCountries, c) })
		asked := q.Countries
		if len(kept) == 0 {
			names := make([]string, len(q.Countries))
			for i, c := range q.Countries {
				co, _ := dataset.CountryByCode(c)
				names[i] = co.Name
			}
			q.NotApplied = append(q.NotApplied, "conflict: countries "+strings.Join(names, ", ")+" are all excluded")
			q.conflicts = append(q.conflicts, "the countries asked for ("+andList(names)+"), since the sentence also excludes them")
		}
		// Excluding a country not among those asked for changes nothing:
		// "in Germany, not in France" is the companies in Germany.
		if q.Countries = kept; len(kept) > 0 {
			q.ExcludeCountries = slices.DeleteFunc(q.ExcludeCountries, func(c string) bool { return !slices.Contains(asked, c) })
		}
	}
	if len(q.Categories) > 0 && len(q.ExcludeCategories) > 0 {
		kept := slices.DeleteFunc(slices.Clone(q.Categories), func(k int) bool { return slices.Contains(q.ExcludeCategories, k) })
		if len(kept) == 0 {
			q.NotApplied = append(q.NotApplied, "conflict: categories asked for are all excluded")
			q.conflicts = append(q.conflicts, "the categories asked for, since the sentence also excludes them")
		}
		q.Categories = kept
	}
}

func (q *Query) excludeCountry(code string) {
	if !slices.Contains(q.ExcludeCountries, code) {
		q.ExcludeCountries = append(q.ExcludeCountries, code)
	}
}

func (q *Query) noteRegion(name string) {
	if !slices.Contains(q.Regions, name) {
		q.Regions = append(q.Regions, name)
	}
}

// negatedSize applies "not <band>" as the band's complement when the band
// is open at one end ("not startups": 50 or more), and lists it as not
// applied when its complement is two ranges ("not mid-sized").
func (q *Query) negatedSize(lo, hi int, phrase string) {
	switch {
	case lo <= 1 && hi > 0:
		q.negSizes = append(q.negSizes, bound{lo: hi + 1, phrase: "not " + phrase})
	case hi == 0 && lo > 1:
		q.negSizes = append(q.negSizes, bound{hi: lo - 1, phrase: "not " + phrase})
	default:
		q.exclude(fmt.Sprintf("not employees %s (%q)", span(lo, hi), phrase), strconv.Quote(phrase))
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
	for _, b := range years {
		if !slices.Contains(q.YearPhrases, b.phrase) {
			q.YearPhrases = append(q.YearPhrases, b.phrase)
		}
		q.relativeYears = q.relativeYears || b.relative
	}
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

// ExcludeFilters renders the exclusions in the searchCompanies filter form
// (its excludeFilters), countries first.
func (q Query) ExcludeFilters() []string {
	out := []string{}
	for _, code := range q.ExcludeCountries {
		c, _ := dataset.CountryByCode(code)
		out = append(out, "countries;"+c.Name)
	}
	for _, k := range q.ExcludeCategories {
		out = append(out, "categories;"+dataset.Categories[k].Name)
	}
	return out
}

// number matches 500, 1,000, 10000 and 2k.
const number = `(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?k?)`

// staff matches the nouns that make a number a head count.
const staff = `(?:employees|employee|people|staff|staffers|workers|person|persons|headcount|fte|ftes|team\s+members|strong)`

// cmpOp matches a comparison, maybe negated, its submatches being the
// negation and the operator.
const cmpOp = `(?:(not|no)\s+)?(more than|over|above|greater than|upwards of|at least|fewer than|less than|under|below|at most|up to|>=|>|<=|<)\s*`

// join matches what joins the two bounds of a range said in two phrases.
const join = `\s*(?:[,;]\s*)?(?:(?:and|but|yet|though|although|while|whilst)\s+)?(?:also\s+|still\s+)?(?:with\s+|having\s+|a\s+headcount\s+|a\s+staff\s+)?`

// staffNoun matches the nouns a head count can follow: "a staff of 10-50",
// "headcount between 100 and 500", "team size under 20".
const staffNoun = `(?:staff|team|teams|headcount|head\s+count|head-count|employee\s+count|employees|workforce|team\s+size|company\s+size|staff\s+size|size)`

var (
	betweenRE = regexp.MustCompile(`\b(?:between|from)\s+` + number + `\s+(?:and|to|-)\s+` + number + `[\s-]+` + staff + `\b`)
	rangeRE   = regexp.MustCompile(`\b` + number + `\s*(?:-|–|to)\s*` + number + `[\s-]+` + staff + `\b`)
	// nounRangeRE reads "staff of 10-50", "headcount between 100 and 500",
	// "team of 5 to 20", "employees: 50-200".
	nounRangeRE = regexp.MustCompile(`\b` + staffNoun + `\s*(?:of\s+|count\s+of\s+|is\s+|:\s*|=\s*)?(?:between\s+|from\s+)?` + number + `\s*(?:-|–|to|and)\s*` + number + `\b`)
	// nounCompareRE reads "headcount over 500", "a team of fewer than 10".
	nounCompareRE = regexp.MustCompile(`\b` + staffNoun + `\s*(?:of\s+|:\s*)?(?:(not|no)\s+)?(more than|over|above|greater than|upwards of|at least|fewer than|less than|under|below|at most|up to)\s*` + number + `\b`)
	plusRE        = regexp.MustCompile(`\b` + number + `\+[\s-]*` + staff + `\b`)
	// nounOrMoreRE reads "employees 500 or more", "headcount: 50 or fewer".
	nounOrMoreRE = regexp.MustCompile(`\b` + staffNoun + `\s*(?::\s*)?` + number + `\s+(or more|or above|and up|and above|plus|or fewer|or less|or under|or below)\b`)
	// orMoreRE reads "500 or more employees" and "500 employees or more".
	orMoreRE = regexp.MustCompile(`\b` + number + `\s+(?:(or more|or above|and up|and above|plus|or fewer|or less|or under|or below)\s+` + staff + `|` + staff + `\s+(or more|or above|and up|and above|plus|minimum|at least|or fewer|or less|at most|maximum|max))\b`)
	// compareRE reads "over 500 employees", "no more than 50 staff" and
	// ">= 20 people". It starts at a space rather than \b, which would not
	// match before ">".
	// pairLastRE reads two bounds sharing the staff noun after the second:
	// "more than 50 but fewer than 200 employees", "at least 50 and at
	// most 200 staff", "a headcount of over 50 and under 200 people".
	pairLastRE = regexp.MustCompile(`(?:^|\s)` + cmpOp + number + join + cmpOp + number + `[\s-]+` + staff + `\b`)
	// pairFirstRE reads two bounds sharing the staff noun after the first
	// or before both: "at least 50 employees but no more than 200",
	// "headcount over 50 and under 200".
	pairFirstRE = regexp.MustCompile(`(?:^|\s)(?:` + cmpOp + number + `[\s-]+` + staff + `|` + staffNoun + `\s*(?:of\s+|:\s*)?` + cmpOp + number + `)` + join + cmpOp + number + `\b`)
	// bareCompareRE reads a bound without a noun ("under 200"), taken as a
	// head count only in a sentence that bounds the head count elsewhere.
	bareCompareRE = regexp.MustCompile(`(?:^|\s)` + cmpOp + number + `\b`)
	// staffAfterRE says a staff noun follows: each bound has its own.
	staffAfterRE = regexp.MustCompile(`^[\s-]+` + staff + `\b`)
	// notCountRE says what follows a number that is not a head count.
	notCountRE = regexp.MustCompile(`^\s*(?:years?|yrs?|old|ago|%|percent|per\s*cent|million|billion|countries|years?\s+old|-year)\b`)
	compareRE  = regexp.MustCompile(`(?:^|\s)(?:(not|no)\s+)?(more than|over|above|greater than|upwards of|at least|fewer than|less than|under|below|at most|up to|>=|>|<=|<)\s*` + number + `\s+` + staff + `\b`)
)

// takeEmployeeRanges collects numeric head-count phrases into bounds and
// blanks them out; a negated one ("excluding companies over 500 employees")
// goes to exclude instead.
func takeEmployeeRanges(text, sentence string, bounds *[]bound, negate func(lo, hi int, phrase string)) string {
	add := func(lo, hi int, m []string, negated bool) {
		p := phraseOf(m)
		if negated {
			negate(lo, hi, p)
			return
		}
		*bounds = append(*bounds, bound{lo: lo, hi: hi, phrase: p})
	}
	pair := func(m []string, negated bool) {
		lo, hi := parseNumber(m[1]), parseNumber(m[2])
		add(min(lo, hi), max(lo, hi), m, negated) // "between 500 and 50" means 50 to 500
	}
	bothBounds := func(m []string, negated bool, tail string) bool {
		// m holds two comparisons: not, op, number, each; staffed says
		// which form matched (pairFirstRE has two alternatives).
		var c [][3]string
		for i := 1; i+2 < len(m); i += 3 {
			if m[i+2] != "" {
				c = append(c, [3]string{m[i], m[i+1], m[i+2]})
			}
		}
		if len(c) != 2 || notCountRE.MatchString(tail) || staffAfterRE.MatchString(tail) {
			return false
		}
		lo1, hi1 := comparison(c[0][1], parseNumber(c[0][2]), c[0][0] != "")
		lo2, hi2 := comparison(c[1][1], parseNumber(c[1][2]), c[1][0] != "")
		p := phraseOf(m)
		if negated {
			negate(max(lo1, lo2), min0(hi1, hi2), p)
			return true
		}
		*bounds = append(*bounds, bound{lo: max(lo1, lo2), hi: min0(hi1, hi2), phrase: p})
		return true
	}
	text = replaceAllIf(pairLastRE, text, sentence, bothBounds)
	text = replaceAllIf(pairFirstRE, text, sentence, bothBounds)
	text = replaceAll(betweenRE, text, sentence, pair)
	text = replaceAll(rangeRE, text, sentence, pair)
	text = replaceAll(nounRangeRE, text, sentence, pair)
	text = replaceAll(nounCompareRE, text, sentence, func(m []string, negated bool) {
		lo, hi := comparison(m[2], parseNumber(m[3]), m[1] != "")
		add(lo, hi, m, negated)
	})
	text = replaceAll(plusRE, text, sentence, func(m []string, negated bool) {
		add(parseNumber(m[1]), 0, m, negated)
	})
	text = replaceAll(nounOrMoreRE, text, sentence, func(m []string, negated bool) {
		switch n := parseNumber(m[1]); m[2] {
		case "or fewer", "or less", "or under", "or below":
			add(0, max(n, 1), m, negated)
		default:
			add(n, 0, m, negated)
		}
	})
	text = replaceAll(orMoreRE, text, sentence, func(m []string, negated bool) {
		n, op := parseNumber(m[1]), m[2]+m[3]
		switch op {
		case "or fewer", "or less", "or under", "or below", "at most", "maximum", "max":
			add(0, max(n, 1), m, negated)
		default:
			add(n, 0, m, negated)
		}
	})
	text = replaceAll(compareRE, text, sentence, func(m []string, negated bool) {
		lo, hi := comparison(m[2], parseNumber(m[3]), m[1] != "")
		add(lo, hi, m, negated)
	})
	if len(*bounds) > 0 {
		text = replaceAllIf(bareCompareRE, text, sentence, func(m []string, negated bool, tail string) bool {
			if notCountRE.MatchString(tail) {
				return false
			}
			lo, hi := comparison(m[2], parseNumber(m[3]), m[1] != "")
			add(lo, hi, m, negated)
			return true
		})
	}
	return text
}

// min0 is the smaller of two upper bounds, 0 meaning none.
func min0(a, b int) int {
	switch {
	case a == 0:
		return b
	case b == 0:
		return a
	}
	return min(a, b)
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

// replaceAllIf is replaceAll for matches f may turn down (returning false,
// the text is left as it was); f also sees the text after the match.
func replaceAllIf(re *regexp.Regexp, text, sentence string, f func(m []string, negated bool, tail string) bool) string {
	var b strings.Builder
	last := 0
	for _, loc := range re.FindAllStringSubmatchIndex(text, -1) {
		m := make([]string, len(loc)/2)
		for i := range m {
			if loc[2*i] >= 0 {
				m[i] = text[loc[2*i]:loc[2*i+1]]
			}
		}
		if !f(m, negatedBefore(text[:loc[0]], sentence), text[loc[1]:]) {
			continue
		}
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

// singleRE matches a head count given as one number ("with 50 employees",
// "around 200 staff"), which names no range to search.
var singleRE = regexp.MustCompile(`(?:^|\s)(?:(?:with|of|having|employing|has|have)\s+)?(?:about|around|roughly|approximately|exactly|~)?\s*` + number + `[\s-]+` + staff + `\b`)

// takeSingleCounts lists a head count given as one number as not applied,
// rather than guessing a range around it or searching for the number as a
// word, and blanks it.
func (q *Query) takeSingleCounts(text, sentence string) string {
	return replaceAll(singleRE, text, sentence, func(m []string, _ bool) {
		p := phraseOf(m)
		q.NotApplied = append(q.NotApplied, fmt.Sprintf("head count %q (one number, not a range)", p))
		q.unread = append(q.unread, fmt.Sprintf("%q names one head count, not a range (say e.g. \"between 40 and 60 employees\")", p))
	})
}

// numberWordValues are the number words a sentence may spell out ("top
// five", "fewer than fifty staff", "two hundred employees").
var numberWordValues = map[string]int{
	"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
	"eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
	"sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100, "thousand": 1000,
	"a hundred": 100, "a thousand": 1000, "a dozen": 12, "dozen": 12,
}

var numberWordRE = regexp.MustCompile(`\b(?:(a|` + alternation(numberWordValues) + `)\s+)?(` + alternation(numberWordValues) + `)\b`)

// numberWords writes spelled-out numbers as digits: "five" → "5", "two
// hundred" → "200", "ten thousand" → "10000", "a hundred" → "100". "One"
// stays a word ("the one in Berlin").
func numberWords(text string) string {
	return numberWordRE.ReplaceAllStringFunc(text, func(m string) string {
		f := strings.Fields(m)
		n := 1
		switch {
		case len(f) == 1:
			n = numberWordValues[f[0]]
		case f[0] == "a":
			n = numberWordValues[f[0]+" "+f[1]]
			if n == 0 { // "a five-person team"
				return "a " + strconv.Itoa(numberWordValues[f[1]])
			}
		default:
			a, b := numberWordValues[f[0]], numberWordValues[f[1]]
			if b == 100 || b == 1000 { // "two hundred"
				n = a * b
			} else { // "five ten": two numbers
				return strconv.Itoa(a) + " " + strconv.Itoa(b)
			}
		}
		return strconv.Itoa(n)
	})
}

// placeWords are the words after which a capitalised word names a place:
// "in Bavaria", "near Silicon Valley", "based in California".
var placeWords = setOf(`in near from around across throughout`)

// isPlace reports whether unknown phrase i of ps names a place that is not
// a country or city of the data ("California", "Silicon Valley", "Europe"):
// a capitalised word after a place word, or after such a word. It is listed
// as not applied, since no filter expresses it and, as a keyword, it would
// only match profiles that happen to mention it.
func (q *Query) isPlace(ps []phrase, i int, sentence string) bool {
	p := ps[i]
	if i == 0 || !hasLetterOrDigit(p.text) || isCity(p.text) || !capitalised(p.text, sentence) {
		return false
	}
	j := i - 1
	for j >= 0 && !ps[j].known && capitalised(ps[j].text, sentence) && !placeWords[ps[j].text] && !isCity(ps[j].text) {
		j-- // "Silicon" before "Valley"
	}
	if j < 0 || !placeWords[ps[j].text] {
		return false
	}
	name := make([]string, 0, i-j)
	for _, w := range ps[j+1 : i+1] {
		name = append(name, upperFirst(w.text))
	}
	place := strings.Join(name, " ")
	if j+1 < i { // extend the place already noted ("Silicon" → "Silicon Valley")
		prev := strings.Join(name[:len(name)-1], " ")
		if n := len(q.places); n > 0 && q.places[n-1] == prev {
			q.places[n-1] = place
			for k := len(q.NotApplied) - 1; k >= 0; k-- {
				if q.NotApplied[k] == placeEntry(prev) {
					q.NotApplied[k] = placeEntry(place)
					break
				}
			}
			return true
		}
	}
	q.places = append(q.places, place)
	q.NotApplied = append(q.NotApplied, placeEntry(place))
	return true
}

func placeEntry(place string) string {
	return fmt.Sprintf("place %q (not a country or city of the data)", place)
}

// isCity reports whether a lower-case word is (the first word of) a city of
// the data, which stays a keyword (see noteCities).
func isCity(word string) bool {
	for _, c := range dataset.Countries {
		for _, city := range c.Cities {
			if first, _, _ := strings.Cut(strings.ToLower(city), " "); first == word {
				return true
			}
		}
	}
	return false
}

// capitalised reports whether the sentence writes the word with a capital.
func capitalised(word, sentence string) bool {
	return strings.Contains(sentence, upperFirst(word))
}

func upperFirst(w string) string {
	if w == "" {
		return w
	}
	return strings.ToUpper(w[:1]) + w[1:]
}

// DropKeywords removes keywords the search could not use, lists them as
// not applied with the reason, and says so in the interpretation: words in
// no company profile, or words no company matching the filters has. They
// are not silently required: a search for them would answer nothing.
func (q *Query) DropKeywords(words []string, reason string) {
	if len(words) == 0 {
		return
	}
	q.Keywords = slices.DeleteFunc(q.Keywords, func(k string) bool { return slices.Contains(words, k) })
	said := quoteAll(words)
	q.NotApplied = append(q.NotApplied, fmt.Sprintf("keywords %q (%s)", strings.Join(words, " "), reason))
	q.unread = append(q.unread, fmt.Sprintf("the words %s, since %s", said, reason))
}

// isNumber reports whether a word is digits only.
func isNumber(w string) bool {
	for _, r := range w {
		if r < '0' || r > '9' {
			return false
		}
	}
	return w != ""
}
