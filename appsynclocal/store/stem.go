package store

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// fold removes diacritics from a lower-case word ("kraków" → "krakow"), as
// SQLite's unicode61 tokenizer with remove_diacritics did: the marks a
// canonical decomposition splits off are dropped, and the few Latin letters
// whose stroke is no separate mark are spelled plainly.
func fold(w string) string {
	ascii := true
	for i := 0; i < len(w); i++ {
		if w[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return w
	}
	var b strings.Builder
	for _, r := range norm.NFD.String(w) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		if p, ok := plainLetters[r]; ok {
			r = p
		}
		b.WriteRune(r)
	}
	return b.String()
}

// plainLetters are letters with a stroke or a ligature that NFD leaves whole.
var plainLetters = map[rune]rune{
	'ł': 'l', 'ø': 'o', 'đ': 'd', 'ħ': 'h', 'ı': 'i', 'ŧ': 't', 'ƀ': 'b', 'ɨ': 'i',
}

// stem reduces an English word to its Porter stem ("robotics" and "robots"
// → "robot"), so that a search finds a word's other forms. It is M. F.
// Porter's 1980 algorithm as in his reference implementation, which SQLite's
// FTS5 porter tokenizer also follows; words shorter than three bytes, longer
// than 64, or containing a byte that is not a lower-case ASCII letter are
// left as they are (numbers, most names in other alphabets).
func stem(w string) string {
	if len(w) < 3 || len(w) > 64 {
		return w
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return w
		}
	}
	var buf [72]byte
	p := porter{b: append(buf[:0], w...)}
	p.k = len(p.b) - 1
	p.step1ab()
	if p.k > 0 {
		p.step1c()
		p.step2()
		p.step3()
		p.step4()
		p.step5()
	}
	return string(p.b[:p.k+1])
}

// porter is the reference implementation's state: b[0..k] is the word being
// stemmed, j marks the end of the stem a suffix test left.
type porter struct {
	b    []byte
	k, j int
}

// cons reports whether b[i] is a consonant.
func (p *porter) cons(i int) bool {
	switch p.b[i] {
	case 'a', 'e', 'i', 'o', 'u':
		return false
	case 'y':
		return i == 0 || !p.cons(i-1)
	}
	return true
}

// m measures the number of consonant sequences between 0 and j.
func (p *porter) m() int {
	n, i := 0, 0
	for {
		if i > p.j {
			return n
		}
		if !p.cons(i) {
			break
		}
		i++
	}
	i++
	for {
		for {
			if i > p.j {
				return n
			}
			if p.cons(i) {
				break
			}
			i++
		}
		i++
		n++
		for {
			if i > p.j {
				return n
			}
			if !p.cons(i) {
				break
			}
			i++
		}
		i++
	}
}

// vowelInStem reports whether b[0..j] contains a vowel.
func (p *porter) vowelInStem() bool {
	for i := 0; i <= p.j; i++ {
		if !p.cons(i) {
			return true
		}
	}
	return false
}

// doublec reports whether b[j-1..j] is a double consonant.
func (p *porter) doublec(j int) bool {
	return j >= 1 && p.b[j] == p.b[j-1] && p.cons(j)
}

// cvc reports whether b[i-2..i] is consonant-vowel-consonant and the last
// consonant is not w, x or y.
func (p *porter) cvc(i int) bool {
	if i < 2 || !p.cons(i) || p.cons(i-1) || !p.cons(i-2) {
		return false
	}
	switch p.b[i] {
	case 'w', 'x', 'y':
		return false
	}
	return true
}

// ends reports whether b[0..k] ends with s, setting j before it.
func (p *porter) ends(s string) bool {
	n := len(s)
	if n > p.k+1 || string(p.b[p.k-n+1:p.k+1]) != s {
		return false
	}
	p.j = p.k - n
	return true
}

// setto replaces b[j+1..k] with s.
func (p *porter) setto(s string) {
	p.b = append(p.b[:p.j+1], s...)
	p.k = p.j + len(s)
}

// r replaces the suffix with s when the stem's measure is positive.
func (p *porter) r(s string) {
	if p.m() > 0 {
		p.setto(s)
	}
}

func (p *porter) step1ab() {
	if p.b[p.k] == 's' {
		switch {
		case p.ends("sses"):
			p.k -= 2
		case p.ends("ies"):
			p.setto("i")
		case p.b[p.k-1] != 's':
			p.k--
		}
	}
	if p.ends("eed") {
		if p.m() > 0 {
			p.k--
		}
	} else if (p.ends("ed") || p.ends("ing")) && p.vowelInStem() {
		p.k = p.j
		switch {
		case p.ends("at"):
			p.setto("ate")
		case p.ends("bl"):
			p.setto("ble")
		case p.ends("iz"):
			p.setto("ize")
		case p.doublec(p.k):
			p.k--
			switch p.b[p.k] {
			case 'l', 's', 'z':
				p.k++
			}
		default:
			p.j = p.k
			if p.m() == 1 && p.cvc(p.k) {
				p.setto("e")
			}
		}
	}
	p.b = p.b[:p.k+1]
}

func (p *porter) step1c() {
	if p.ends("y") && p.vowelInStem() {
		p.b[p.k] = 'i'
	}
}

// suffixRule replaces a suffix when the rest has a positive measure.
type suffixRule struct{ from, to string }

var step2Rules = map[byte][]suffixRule{
	'a': {{"ational", "ate"}, {"tional", "tion"}},
	'c': {{"enci", "ence"}, {"anci", "ance"}},
	'e': {{"izer", "ize"}},
	'l': {{"bli", "ble"}, {"alli", "al"}, {"entli", "ent"}, {"eli", "e"}, {"ousli", "ous"}},
	'o': {{"ization", "ize"}, {"ation", "ate"}, {"ator", "ate"}},
	's': {{"alism", "al"}, {"iveness", "ive"}, {"fulness", "ful"}, {"ousness", "ous"}},
	't': {{"aliti", "al"}, {"iviti", "ive"}, {"biliti", "ble"}},
	'g': {{"logi", "log"}},
}

var step3Rules = map[byte][]suffixRule{
	'e': {{"icate", "ic"}, {"ative", ""}, {"alize", "al"}},
	'i': {{"iciti", "ic"}},
	'l': {{"ical", "ic"}, {"ful", ""}},
	's': {{"ness", ""}},
}

// applyRules applies the first rule whose suffix the word ends with.
func (p *porter) applyRules(rules []suffixRule) {
	for _, r := range rules {
		if p.ends(r.from) {
			p.r(r.to)
			p.b = p.b[:p.k+1]
			return
		}
	}
}

func (p *porter) step2() {
	if p.k >= 1 {
		p.applyRules(step2Rules[p.b[p.k-1]])
	}
}

func (p *porter) step3() { p.applyRules(step3Rules[p.b[p.k]]) }

var step4Suffixes = map[byte][]string{
	'a': {"al"},
	'c': {"ance", "ence"},
	'e': {"er"},
	'i': {"ic"},
	'l': {"able", "ible"},
	'n': {"ant", "ement", "ment", "ent"},
	'o': {"ion", "ou"},
	's': {"ism"},
	't': {"ate", "iti"},
	'u': {"ous"},
	'v': {"ive"},
	'z': {"ize"},
}

func (p *porter) step4() {
	if p.k < 1 {
		return
	}
	found := false
	for _, s := range step4Suffixes[p.b[p.k-1]] {
		if !p.ends(s) {
			continue
		}
		if s == "ion" && (p.j < 0 || (p.b[p.j] != 's' && p.b[p.j] != 't')) {
			continue
		}
		found = true
		break
	}
	if found && p.m() > 1 {
		p.k = p.j
		p.b = p.b[:p.k+1]
	}
}

func (p *porter) step5() {
	p.j = p.k // both tests measure the word as it was, final e included
	if p.b[p.k] == 'e' {
		a := p.m()
		if a > 1 || a == 1 && !p.cvc(p.k-1) {
			p.k--
		}
	}
	if p.b[p.k] == 'l' && p.doublec(p.k) && p.m() > 1 {
		p.k--
	}
	p.b = p.b[:p.k+1]
}
