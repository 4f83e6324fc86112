package interpret

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/companyintel/mcp-server/appsynclocal/store"
)

// Sort is an order of the results a sentence asked for with a superlative
// ("the largest", "oldest"): one of the store's orders, so that an order
// is named once and what is interpreted is what the search runs.
type Sort = store.Sort

// The orders a sentence can ask for; "" is by relevance. Names are not
// among them: no superlative asks for alphabetical order.
const (
	SortRelevance     = store.SortRelevance
	SortEmployeesDesc = store.SortEmployeesDesc
	SortEmployeesAsc  = store.SortEmployeesAsc
	SortFoundedDesc   = store.SortFoundedDesc
	SortFoundedAsc    = store.SortFoundedAsc
)

// superlatives map the words that ask for an order to it. They shape the
// answer, they do not filter: "the largest fintech companies" are all
// fintech companies, largest first, not only those above 1,000 staff.
var superlatives = map[string]Sort{
	"largest": SortEmployeesDesc, "biggest": SortEmployeesDesc, "most employees": SortEmployeesDesc,
	"most staff": SortEmployeesDesc, "most people": SortEmployeesDesc, "highest headcount": SortEmployeesDesc,
	"largest headcount": SortEmployeesDesc, "most workers": SortEmployeesDesc,
	"smallest": SortEmployeesAsc, "tiniest": SortEmployeesAsc, "fewest employees": SortEmployeesAsc,
	"fewest staff": SortEmployeesAsc, "fewest people": SortEmployeesAsc, "least employees": SortEmployeesAsc,
	"oldest": SortFoundedAsc, "longest-established": SortFoundedAsc, "longest established": SortFoundedAsc,
	"earliest founded": SortFoundedAsc, "earliest-founded": SortFoundedAsc, "most established": SortFoundedAsc,
	"newest": SortFoundedDesc, "youngest": SortFoundedDesc, "most recent": SortFoundedDesc,
	"most recently founded": SortFoundedDesc, "latest": SortFoundedDesc, "most recently established": SortFoundedDesc,
	"largest workforce": SortEmployeesDesc, "biggest workforce": SortEmployeesDesc, "largest workforces": SortEmployeesDesc,
	"highest number of employees": SortEmployeesDesc, "largest number of employees": SortEmployeesDesc,
	"highest employee count": SortEmployeesDesc, "largest employers": SortEmployeesDesc, "biggest employers": SortEmployeesDesc,
	"biggest headcount": SortEmployeesDesc, "highest head count": SortEmployeesDesc, "largest head count": SortEmployeesDesc,
	"lowest headcount": SortEmployeesAsc, "lowest head count": SortEmployeesAsc, "smallest headcount": SortEmployeesAsc,
	"smallest workforce": SortEmployeesAsc, "fewest workers": SortEmployeesAsc, "least staff": SortEmployeesAsc,
	"lowest number of employees": SortEmployeesAsc, "smallest number of employees": SortEmployeesAsc,
	"most mature": SortFoundedAsc, "longest running": SortFoundedAsc, "longest-running": SortFoundedAsc,
	"earliest": SortFoundedAsc, "most senior": SortFoundedAsc,
	"most recently started": SortFoundedDesc, "most recently launched": SortFoundedDesc, "freshest": SortFoundedDesc,
}

// measures map what "by <measure>" names to its order, the natural
// direction first: by size is largest first, by age oldest first, by
// founding year earliest first. A direction word may turn it ("by size,
// smallest first", "by headcount ascending").
var measures = map[string][2]Sort{
	"size": {SortEmployeesDesc, SortEmployeesAsc}, "company size": {SortEmployeesDesc, SortEmployeesAsc},
	"headcount": {SortEmployeesDesc, SortEmployeesAsc}, "head count": {SortEmployeesDesc, SortEmployeesAsc},
	"head-count": {SortEmployeesDesc, SortEmployeesAsc}, "employees": {SortEmployeesDesc, SortEmployeesAsc},
	"employee count": {SortEmployeesDesc, SortEmployeesAsc}, "number of employees": {SortEmployeesDesc, SortEmployeesAsc},
	"number of staff": {SortEmployeesDesc, SortEmployeesAsc}, "staff count": {SortEmployeesDesc, SortEmployeesAsc},
	"staff": {SortEmployeesDesc, SortEmployeesAsc}, "staff size": {SortEmployeesDesc, SortEmployeesAsc},
	"workforce": {SortEmployeesDesc, SortEmployeesAsc}, "workforce size": {SortEmployeesDesc, SortEmployeesAsc},
	"team size": {SortEmployeesDesc, SortEmployeesAsc}, "people": {SortEmployeesDesc, SortEmployeesAsc},
	"age": {SortFoundedAsc, SortFoundedDesc}, "founding year": {SortFoundedAsc, SortFoundedDesc},
	"founding date": {SortFoundedAsc, SortFoundedDesc}, "year founded": {SortFoundedAsc, SortFoundedDesc},
	"date founded": {SortFoundedAsc, SortFoundedDesc}, "year of founding": {SortFoundedAsc, SortFoundedDesc},
	"founding": {SortFoundedAsc, SortFoundedDesc}, "founded": {SortFoundedAsc, SortFoundedDesc},
	"when they were founded": {SortFoundedAsc, SortFoundedDesc}, "foundation year": {SortFoundedAsc, SortFoundedDesc},
}

// directions are the direction words; which turn a measure's order depends
// on the measure (see turn).
const directions = `smallest first|largest first|biggest first|ascending|asc|descending|desc|low to high|high to low|lowest first|highest first|fewest first|most first|newest first|oldest first|youngest first|most recent first|latest first|earliest first|from smallest|from largest|from oldest|from newest|from youngest|reversed|in reverse`

// upWords and downWords say which way a direction word points: up is
// smallest or oldest first (ascending), down largest or newest first.
var (
	upWords   = setOf(`smallest asc ascending low lowest fewest earliest oldest`)
	downWords = setOf(`largest biggest desc descending high highest most newest youngest recent latest`)
)

// turn gives the order "by <measure>, <direction>" asks for: the
// measure's natural order, or its reverse when the direction points the
// other way.
func turn(m [2]Sort, dir string) Sort {
	if dir == "reversed" || dir == "in reverse" {
		return m[1]
	}
	first := strings.Fields(strings.TrimPrefix(dir, "from "))
	if len(first) == 0 {
		return m[0]
	}
	up := upWords[first[0]]
	if !up && !downWords[first[0]] {
		return m[0]
	}
	asc := m[0] == SortEmployeesAsc || m[0] == SortFoundedAsc
	// For founding years up (oldest first) is ascending; for head counts
	// up (smallest first) is ascending too.
	if up == asc {
		return m[0]
	}
	return m[1]
}

// sortSaid says an order in words, for Describe.
var sortSaid = map[Sort]string{
	SortEmployeesDesc: "largest (most employees) first",
	SortEmployeesAsc:  "smallest (fewest employees) first",
	SortFoundedAsc:    "oldest (earliest founded) first",
	SortFoundedDesc:   "newest (most recently founded) first",
}

// MaxLimit is the most companies aiSearch shows on one page; a larger count
// asked for is capped to it, and the interpretation says so.
const MaxLimit = 50

var (
	// superlativeRE matches a superlative, maybe after a count ("the 5
	// largest", "ten oldest").
	superlativeRE = regexp.MustCompile(`(?:^|\s)(?:the\s+)?(?:(\d+)\s+)?(` + alternation(superlatives) + `)\b`)
	// countRE matches a count that shapes the answer: "top 5", "first 20",
	// "show me 10", "list 3", "5 companies".
	countRE = regexp.MustCompile(`(?:^|\s)(?:(?:top|first|best|leading)\s+(\d+)|(?:show|list|give|find|name|get|return)(?:\s+me)?(?:\s+the)?\s+(\d+)|(\d+)\s+(companies|firms|businesses|organisations|organizations|examples|names|of\s+them))\b`)
	// byMeasureRE matches an order given as a measure: "by headcount",
	// "sorted by size, smallest first", "ranked by founding year".
	byMeasureRE = regexp.MustCompile(`(?:^|\s)(?:(?:sorted|ranked|ordered|sort|rank|order|listed|arranged|organised|organized)\s+)?by\s+(?:(?:their|the|its|company|descending|ascending)\s+)?(` + alternation(measures) + `)(?:\s*,?\s*(` + directions + `))?\b`)
	// fromToRE matches "from largest to smallest", "from the oldest to the newest".
	fromToRE = regexp.MustCompile(`(?:^|\s)(?:(?:sorted|ranked|ordered|listed)\s+)?from\s+(?:the\s+)?(largest|biggest|smallest|oldest|newest|youngest)\s+to\s+(?:the\s+)?(?:largest|biggest|smallest|oldest|newest|youngest)\b`)
	// howManyRE matches a question about a number of companies.
	howManyRE = regexp.MustCompile(`(?:^|\s)how\s+many\b`)
)

// alternation is a regexp alternation of the keys of m, longest first so a
// longer phrase wins over its prefix.
func alternation[V any](m map[string]V) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, regexp.QuoteMeta(k))
	}
	// Longest first: Go's regexp alternation is leftmost-first.
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && (len(keys[j]) > len(keys[j-1]) || len(keys[j]) == len(keys[j-1]) && keys[j] < keys[j-1]); j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return strings.Join(keys, "|")
}

// takeOrder reads the superlatives, counts and "how many" of a sentence
// into q and blanks them, so none of them becomes a keyword or a filter.
func (q *Query) takeOrder(text string) string {
	setSort := func(s Sort, phrase string) {
		if q.Sort == SortRelevance {
			q.Sort, q.SortPhrase = s, phrase
		} else if q.Sort != s {
			q.NotApplied = append(q.NotApplied, fmt.Sprintf("order %q (only one order applies: %q)", phrase, q.SortPhrase))
			q.conflicts = append(q.conflicts, fmt.Sprintf("the order %q, since %q already set one", phrase, q.SortPhrase))
		}
	}
	text = replaceAll(byMeasureRE, text, "", func(m []string, _ bool) {
		setSort(turn(measures[m[1]], m[2]), phraseOf(m))
	})
	text = replaceAll(fromToRE, text, "", func(m []string, _ bool) {
		setSort(superlatives[m[1]], phraseOf(m))
	})
	text = replaceAll(superlativeRE, text, "", func(m []string, negated bool) {
		s := superlatives[m[2]]
		if negated { // "not the largest": no order is the opposite of it
			q.exclude(fmt.Sprintf("not %q", m[2]), strconv.Quote(m[2]))
			return
		}
		if q.Sort == SortRelevance {
			q.Sort, q.SortPhrase = s, phraseOf(m)
		} else if q.Sort != s {
			q.NotApplied = append(q.NotApplied, fmt.Sprintf("order %q (only one order applies: %q)", phraseOf(m), q.SortPhrase))
			q.conflicts = append(q.conflicts, fmt.Sprintf("the order %q, since %q already set one", phraseOf(m), q.SortPhrase))
			return
		}
		if m[1] != "" {
			q.setLimit(parseNumber(m[1]), phraseOf(m))
		}
	})
	text = replaceAll(countRE, text, "", func(m []string, _ bool) {
		for _, n := range m[1:4] {
			if n != "" {
				q.setLimit(parseNumber(n), phraseOf(m))
			}
		}
	})
	if howManyRE.MatchString(text) {
		q.HowMany = true
		text = howManyRE.ReplaceAllString(text, " "+blank+" ")
	}
	return text
}

// setLimit records a count the sentence asked for, the first one winning.
func (q *Query) setLimit(n int, phrase string) {
	if q.Limit != 0 || n < 1 {
		return
	}
	q.Limit, q.LimitPhrase = min(n, MaxLimit), phrase
	if n > MaxLimit {
		q.limitCapped = n
	}
}
