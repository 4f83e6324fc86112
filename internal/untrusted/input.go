package untrusted

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The rules at input refuse, never repair: a user writing text another user
// will read (a collection's name and description, an email-discovery role,
// which the backend stores as a contact on a company every user reads) is
// told what was wrong, and nothing is written.

// PlainProblem says why s cannot be stored as one line of visible text, or
// "" when it can: it refuses exactly what Clean would change (line breaks,
// control characters, invisible format characters, variation selectors out
// of place, private-use and unassigned code points, invalid UTF-8).
func PlainProblem(s string) string {
	i := firstChange(s)
	if i == len(s) {
		return ""
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && size == 1 {
		return fmt.Sprintf("is not valid UTF-8 (byte %d)", i)
	}
	return fmt.Sprintf("contains %s at character %d; only visible text on one line is accepted", describeRune(r), utf8.RuneCountInString(s[:i])+1)
}

// describeRune names r and its kind for a message.
func describeRune(r rune) string {
	var what string
	switch kindOf(r) {
	case breakRune:
		what = "a line break or tab"
	case joiner:
		what = "a zero-width joiner outside a word"
	case selector:
		what = "a variation selector outside an emoji"
	case replace:
		what = "a private-use, unassigned or non-character code point"
	default:
		switch {
		case unicode.Is(unicode.Cc, r):
			what = "a control character"
		case r >= 0xE0000 && r <= 0xE007F:
			what = "an invisible tag character"
		case unicode.Is(unicode.Variation_Selector, r):
			what = "a variation selector"
		case unicode.Is(unicode.Bidi_Control, r):
			what = "an invisible bidirectional-text control"
		default:
			what = "an invisible format character"
		}
	}
	return fmt.Sprintf("U+%04X (%s)", r, what)
}

// TitleMax is the most characters of a job title.
const TitleMax = 100

// TitleRule says what a job title (an email-discovery role) may hold, for
// messages and the docs.
const TitleRule = "a job title: 1 to 100 letters (any script, with their accents), digits and spaces, " +
	"and the punctuation - & / . , ' ( ) + #; nothing else"

// titlePunct is the punctuation a job title may hold ("R&D", "VP, Sales",
// "Head of M&A / Legal", "C++ Lead", "Director (EMEA)", "Chief People's Officer").
const titlePunct = "-&/.,'()+#\u2019\u2010\u2013"

// TitleProblem says why s is not a job title, or "" when it is (TitleRule).
// ZWNJ and ZWJ are accepted between two letters, as Persian and Indic
// titles need them.
func TitleProblem(s string) string {
	n := utf8.RuneCountInString(s)
	if n == 0 || n > TitleMax {
		return fmt.Sprintf("has %d characters; a role is %s", n, TitleRule)
	}
	if p := PlainProblem(s); p != "" {
		return p + "; a role is " + TitleRule
	}
	letters := 0
	for i, r := range s {
		switch {
		case r == ' ':
		case r == 0x200C || r == 0x200D: // in a word, or PlainProblem refused it
		case strings.ContainsRune(titlePunct, r):
		case unicode.In(r, unicode.L, unicode.M):
			letters++
		case unicode.IsNumber(r):
		default:
			return fmt.Sprintf("contains %q at character %d; a role is %s", r, utf8.RuneCountInString(s[:i])+1, TitleRule)
		}
	}
	if letters == 0 {
		return "has no letter; a role is " + TitleRule
	}
	return ""
}

// CSVCell neutralises s for a spreadsheet cell, as OWASP recommends for
// CSV injection: a cell that starts (after any spaces) with a character a
// spreadsheet reads as the start of a formula (= + - @, their full-width
// forms, TAB, CR or LF) gets a leading single quote, so it opens as text.
// The CSV writer quotes the cell where its content needs it.
func CSVCell(s string) string {
	t := strings.TrimLeft(s, " ")
	if t == "" {
		return s
	}
	r, _ := utf8.DecodeRuneInString(t)
	switch r {
	case '=', '+', '-', '@', '\t', '\r', '\n', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20':
		return "'" + s
	}
	return s
}
