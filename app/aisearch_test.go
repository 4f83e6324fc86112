package app

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hintRE finds the search_companies call an ai_search answer's note gives
// for paging through its matches.
var hintRE = regexp.MustCompile(`call search_companies with (\{.*?\}) and follow next_cursor`)

// Following ai_search's paging hint returns the same first page: the same
// companies in the same order, and the same total. The hint repeats exactly
// the constraints applied (issue 27): not the words left out, and with the
// order and count a superlative or count asked for.
func TestAiSearchPagingHintReturnsTheSameFirstPage(t *testing.T) {
	s := asUser(t, "alice")
	for _, sentence := range []string{
		"software companies in the US with over 20 employees",
		"fintech startups founded in the last five years",
		"which software companies were founded in the 2010s?",
		"companies older than 20 years with a staff of 10 to 500",
		"the 10 largest software companies in the US or Canada",
		"newest fintech companies in Germany, France or the UK",
		"show me the oldest manufacturing firms",
		"healthcare companies between 50 and 200 people building clinical software",
		"software companies doing quantum widgetry in Germany",
		"top 5 cybersecurity companies in the US",
	} {
		t.Run(sentence, func(t *testing.T) {
			ai := s.ok("ai_search", `{"query":`+quote(sentence)+`,"limit":5}`)
			m := hintRE.FindStringSubmatch(ai["note"].(string))
			require.NotNil(t, m, "no paging hint in %q (total %v)", ai["note"], ai["total"])
			sc := s.ok("search_companies", m[1])
			assert.Equal(t, ids(ai), ids(sc), "hint %s", m[1])
			assert.Equal(t, ai["total"], sc["total"], "hint %s", m[1])
		})
	}
}

// Words the reading does not use never turn matches into none: question
// words, counts, superlatives, places that are not countries and words no
// profile has leave the total of the filters alone (issue 27).
func TestAiSearchLeftoverWordsNeverEmptyAMatch(t *testing.T) {
	s := asUser(t, "alice")
	for sentence, filtersAlone := range map[string]string{
		"which fintech companies in Germany are the best?":                 "fintech companies in Germany",
		"show me software companies in the UK doing quantum widgetry":      "software companies in the UK",
		"cybersecurity firms in California":                                "cybersecurity firms",
		"what are the biggest logistics companies in France?":              "logistics companies in France",
		"robotics companies founded in the last 10 years making blorptech": "robotics companies founded in the last 10 years",
	} {
		t.Run(sentence, func(t *testing.T) {
			want := s.ok("ai_search", `{"query":`+quote(filtersAlone)+`}`)
			require.NotZero(t, want["total"], filtersAlone)
			got := s.ok("ai_search", `{"query":`+quote(sentence)+`}`)
			assert.Equal(t, want["total"], got["total"], "interpretation: %s", got["interpretation"])
			assert.Equal(t, want["interpreted"].(map[string]any)["categories"], got["interpreted"].(map[string]any)["categories"])
		})
	}
}

// A founding-year phrase is applied and named, counted to the data's
// reference date; a superlative orders and a count sizes the answer.
func TestAiSearchAppliesAgesOrdersAndCounts(t *testing.T) {
	s := asUser(t, "alice")
	sc := s.ok("ai_search", `{"query":"the 5 oldest insurance companies older than 20 years"}`)
	in := obj(sc["interpreted"])
	assert.EqualValues(t, 2005, in["founded_before"])
	assert.Contains(t, sc["interpretation"], "Sorted oldest (earliest founded) first")
	assert.Contains(t, sc["interpretation"], `"older than 20 years"`)
	assert.Contains(t, sc["interpretation"], "reference date 2026-07-01")
	cs := list(sc["companies"])
	require.Len(t, cs, 5)
	for i, c := range cs {
		assert.LessOrEqual(t, obj(c)["founded_year"], float64(2005))
		if i > 0 {
			assert.GreaterOrEqual(t, obj(c)["founded_year"], obj(cs[i-1])["founded_year"], "oldest first")
		}
	}
	assert.Equal(t, []any{}, sc["not_applied"])
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return strings.TrimSpace(string(b))
}
