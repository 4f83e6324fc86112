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
