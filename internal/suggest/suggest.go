// Package suggest finds which names of a fixed vocabulary a caller meant when
// the name it gave is not one of them. It forgives the mistakes a model makes
// with category names: case, punctuation and "&" for "and" ("ecommerce" for
// "E-commerce"), a plural ("Robotic"), an acronym or one word of a longer name
// ("AI" for "AI & Machine Learning"), a fragment ("cyber") and typos
// ("Fintec").
//
// It only suggests: the one silent correction a caller may rely on is Exact,
// a difference of case alone. Anything else is for the caller to confirm,
// since "Tech" may mean any of several names.
package suggest

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxInput bounds the names compared, so a long argument costs no more than
// a short one (edit distance is quadratic).
const maxInput = 100

// Exact returns the one name equal to s but for case and surrounding spaces.
// It reports false when none is, or when several are (names that differ only
// in case), since choosing one would be a guess.
func Exact(s string, names []string) (string, bool) {
	s = strings.TrimSpace(s)
	found, n := "", 0
	for _, name := range names {
		if strings.EqualFold(name, s) {
			if name == s {
				return name, true
			}
			found, n = name, n+1
		}
	}
	return found, n == 1
}

// Tiers of closeness, best first.
const (
	tierSameKey  = iota // equal once case, punctuation, "&"/"and" and plurals are set aside
	tierWord            // shares a whole word or an acronym with the name
	tierFragment        // one is part of the other ("cyber", "Fintech companies")
	tierTypo            // a few letters off, as a whole or word by word
	tierNone
)

// Near returns up to n names close to s, closest first; names equally close
// keep their order in names (a vocabulary listed most common first offers
// the common ones first). It returns none when nothing is plausibly meant.
func Near(s string, names []string, n int) []string {
	if n <= 0 || utf8.RuneCountInString(s) > maxInput {
		return nil
	}
	q := parse(s)
	if q.key == "" {
		return nil
	}
	type cand struct {
		name       string
		tier, dist int
	}
	var cands []cand
	for _, name := range names {
		if utf8.RuneCountInString(name) > maxInput {
			continue
		}
		if tier, dist := closeness(q, parse(name)); tier < tierNone {
			cands = append(cands, cand{name, tier, dist})
		}
	}
	slices.SortStableFunc(cands, func(a, b cand) int {
		if a.tier != b.tier {
			return a.tier - b.tier
		}
		return a.dist - b.dist
	})
	out := make([]string, 0, min(n, len(cands)))
	for _, c := range cands[:min(n, len(cands))] {
		out = append(out, c.name)
	}
	return out
}

// parsed is a name reduced for comparison.
type parsed struct {
	words   []string // lower case, singular, without "and"
	key     string   // the words joined
	acronym string   // the words' initials, for names of two or more words
}

func parse(s string) parsed {
	var p parsed
	fields := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	for _, w := range fields {
		if w == "and" {
			continue
		}
		w = singular(w)
		p.words = append(p.words, w)
		p.acronym += string([]rune(w)[:1])
	}
	p.key = strings.Join(p.words, "")
	if len(p.words) < 2 {
		p.acronym = ""
	}
	return p
}

// singular drops a plural "s" from a word long enough to have one ("Robotics"
// and "Robotic" agree; "AI" and "HR" are left alone).
func singular(w string) string {
	if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
		return w[:len(w)-1]
	}
	return w
}

// closeness says how close the query q is to the name p, and the edit
// distance that orders names of one tier.
func closeness(q, p parsed) (tier, dist int) {
	d := Distance([]rune(q.key), []rune(p.key))
	switch {
	case q.key == p.key:
		return tierSameKey, 0
	case sharesWord(q, p):
		return tierWord, d
	case len(q.key) >= 3 && len(p.key) >= 3 && (strings.Contains(p.key, q.key) || strings.Contains(q.key, p.key)):
		return tierFragment, d
	case d <= typoBudget(q.key) || wordTypo(q, p):
		return tierTypo, d
	}
	return tierNone, d
}

// sharesWord: a whole word in common ("Machine Learning", "Tech"), or an
// acronym of one side among the other's words ("AI", "Artificial
// Intelligence" against "AI & Machine Learning").
func sharesWord(q, p parsed) bool {
	for _, w := range q.words {
		if slices.Contains(p.words, w) {
			return true
		}
	}
	return (q.acronym != "" && slices.Contains(p.words, q.acronym)) ||
		(p.acronym != "" && slices.Contains(q.words, p.acronym))
}

// wordTypo: some word of the query is a typo of a word of the name, both
// long enough for a typo to be told from another word.
func wordTypo(q, p parsed) bool {
	for _, a := range q.words {
		for _, b := range p.words {
			if len(a) >= 4 && len(b) >= 4 && Distance([]rune(a), []rune(b)) <= typoBudget(a) {
				return true
			}
		}
	}
	return false
}

// typoBudget is how many edits still read as a typo: one in three letters,
// at least one.
func typoBudget(s string) int {
	return max(1, utf8.RuneCountInString(s)/3)
}

// Distance is the optimal-string-alignment edit distance between a and b:
// insertions, deletions, substitutions and transpositions of adjacent runes
// each cost one. Transpositions matter because "Untied" for "United" is the
// typo people make, and plain Levenshtein would count it twice.
func Distance(a, b []rune) int {
	// Three rolling rows: the transposition step looks two rows back.
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
