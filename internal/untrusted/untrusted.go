// Package untrusted holds the one rule for text this server did not write:
// company fields from the backend, what users wrote into collections and
// email-discovery roles, the backend's own words quoted in an error. Such
// text reaches models that act, and some of it was written by someone other
// than the caller (a collection name, a role stored as a contact on a
// company every user reads), so it must never carry what a reader cannot
// see, never make a line of its own, and never render as markup.
//
// Clean is the rule for every value (structuredContent, exports, logs):
//
//   - line and paragraph breaks (TAB, LF, VT, FF, CR, NEL U+0085, LINE
//     SEPARATOR U+2028, PARAGRAPH SEPARATOR U+2029) become one space, so a
//     value never starts a line of a text answer or a log;
//   - every other control character (Unicode category Cc: C0, DEL, C1) is
//     removed;
//   - every format character (Cf: bidi embeddings, overrides, isolates and
//     marks, zero-width space, word joiner, BOM, soft hyphen, invisible
//     operators, the tag characters U+E0000–E007F that spell hidden ASCII)
//     and every other default-ignorable code point (the variation
//     selectors VS1–VS256, the Hangul fillers U+115F, U+1160, U+3164,
//     U+FFA0, the combining grapheme joiner, the Khmer inherent vowels and
//     the reserved ignorable ranges) is removed, because a reader sees
//     nothing where a model reads something;
//   - private-use characters, noncharacters, code points unassigned in the
//     Unicode version Go was built with (unicode.Version) and invalid UTF-8
//     become U+FFFD, visible, rather than being passed on as glyphs no one
//     agreed on.
//
// Two invisible characters are kept where a script needs them: ZERO WIDTH
// NON-JOINER and ZERO WIDTH JOINER (U+200C, U+200D), one at a time, inside
// a word of a script that uses them (Arabic script, so Persian; Syriac,
// N'Ko, Mongolian, the Indic scripts) and inside an emoji sequence;
// anywhere else (between Latin, CJK or Cyrillic letters, at either end,
// doubled) they are removed. The emoji presentation
// selectors VS15 and VS16 (U+FE0E, U+FE0F) are kept once directly after a
// symbol or a keycap character (0-9, #, *), where they choose how an emoji
// is drawn; every other variation selector is removed: a selector only
// picks a glyph, never a different word, so a name stays the same name,
// while a run of selectors after one letter is how bytes are smuggled.
// Letters, marks, digits, punctuation, symbols and spaces of every script
// are kept as they are.
//
// Inline is the rule for model-facing text: Clean, and then the characters
// that make markdown or HTML structure or separate the fields of a text
// line (\ [ ] < > ` |) are escaped with a backslash, so no value renders
// as a link, an image, HTML or code, and every unescaped " | " in a line is
// the server's. Quoted is Inline between double quotes with the double
// quote escaped too: prose a third party wrote, marked as quoted data,
// which ends at the first unescaped double quote. CommonMark renders a backslash-escaped ASCII punctuation
// character as itself, and character references never make structure.
//
// Title and Plain are the rules at input (refuse, never repair): what a
// user writes that another user will read. CSVCell is the OWASP rule for a
// spreadsheet cell.
package untrusted

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// kind is what Clean does with one code point.
type kind uint8

const (
	keep      kind = iota
	breakRune      // becomes a space
	drop           // removed
	joiner         // ZWNJ/ZWJ: kept between two letters, marks or symbols
	selector       // VS15/VS16: kept once after a symbol or keycap base
	replace        // becomes U+FFFD
)

// ascii says, per ASCII byte, whether Clean must look at it: the controls.
// Every other ASCII byte is kept, so an ASCII-printable string is returned
// as it is after one pass of table lookups.
var ascii = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = c < 0x20 || c == 0x7f
	}
	return t
}()

// markup says, per ASCII byte, what Inline escapes besides Clean's work;
// quoted adds the double quote, for Quoted.
var markup, quoted = escapes(`\[]<>|` + "`"), escapes(`\[]<>|"` + "`")

func escapes(chars string) (t [utf8.RuneSelf]bool) {
	for _, c := range chars {
		t[c] = true
	}
	return t
}

// Replacement is what Clean writes for a code point nobody agreed on.
const Replacement = '\uFFFD'

// kindOf classifies r.
func kindOf(r rune) kind {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', 0x85, 0x2028, 0x2029:
		return breakRune
	case 0x200C, 0x200D:
		return joiner
	case 0xFE0E, 0xFE0F:
		return selector
	case utf8.RuneError:
		return keep // a real U+FFFD; invalid bytes are caught by the decoder's size
	}
	switch {
	case r < 0x20 || r >= 0x7f && r < 0xa0:
		return drop
	case r < 0x300: // Latin-1, Latin Extended-A/B, IPA, modifier letters
		if r == 0xAD { // SOFT HYPHEN, Cf
			return drop
		}
		return keep
	case r < 0x370: // combining diacritical marks
		if r == 0x34F { // COMBINING GRAPHEME JOINER
			return drop
		}
		return keep
	}
	// Letters and marks first (most text), with the few default-ignorable
	// ones among them (the Hangul fillers, the variation selectors, the
	// Khmer inherent vowels); the test over every code point holds this to
	// the property tables.
	if unicode.IsLetter(r) || unicode.IsMark(r) {
		switch {
		case r >= 0x180B && r <= 0x180F, r >= 0xFE00 && r <= 0xFE0F, r >= 0xE0100 && r <= 0xE01EF, // variation selectors
			r == 0x115F, r == 0x1160, r == 0x17B4, r == 0x17B5, r == 0x3164, r == 0xFFA0: // other ignorables
			return drop
		}
		return keep
	}
	if unicode.In(r, unicode.Cf, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point) {
		return drop
	}
	if unicode.In(r, unicode.N, unicode.P, unicode.S, unicode.Zs) {
		return keep
	}
	// Private use, surrogates (unreachable in Go strings), noncharacters,
	// unassigned; Zl and Zp are breaks above, Cc and Cf dropped.
	return replace
}

// joiningScripts are the scripts whose words need ZWNJ or ZWJ: the
// Arabic-script languages (Persian above all), Syriac, N'Ko, Mongolian and
// the Indic scripts.
var joiningScripts = []*unicode.RangeTable{
	unicode.Arabic, unicode.Syriac, unicode.Nko, unicode.Mongolian,
	unicode.Devanagari, unicode.Bengali, unicode.Gurmukhi, unicode.Gujarati, unicode.Oriya, unicode.Tamil,
	unicode.Telugu, unicode.Kannada, unicode.Malayalam, unicode.Sinhala,
}

// joins says whether a ZWNJ/ZWJ between prev and next is kept: inside a
// word of a joining script (both sides letters or marks of one), or inside
// an emoji sequence (a symbol, a skin-tone modifier or VS16 before, a
// symbol after).
func joins(prev, next rune) bool {
	if prev < 0x300 || next < 0x300 || kindOf(next) != keep {
		return false
	}
	if unicode.In(prev, unicode.L, unicode.M) && unicode.In(next, unicode.L, unicode.M) {
		return unicode.In(prev, joiningScripts...) && unicode.In(next, joiningScripts...)
	}
	return (prev == 0xFE0F || unicode.In(prev, unicode.So, unicode.Sk)) && unicode.Is(unicode.So, next)
}

// presents says whether r may take a presentation selector (VS15/VS16).
func presents(r rune) bool {
	return r >= '0' && r <= '9' || r == '#' || r == '*' || unicode.IsSymbol(r) && kindOf(r) == keep
}

// Clean applies the rule for untrusted text to s (see the package doc). A
// string that needs nothing, which includes every ASCII-printable string,
// is returned as it is, without allocating.
func Clean(s string) string {
	i := firstChange(s)
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	appendClean(&b, s[i:], lastRune(s[:i]), nil)
	return b.String()
}

// Inline is Clean for text a model reads: the characters of markdown and
// HTML structure and of the text lines' field separators are escaped with
// a backslash (see the package doc).
func Inline(s string) string { return escaped(s, &markup) }

// Quoted is Inline between double quotes, with the double quotes inside
// escaped too: text from a third party (a description, a name in a
// sentence) marked as quoted data in a text line, which ends at the first
// unescaped double quote.
func Quoted(s string) string { return `"` + escaped(s, &quoted) + `"` }

// escaped is Clean(s) with the ASCII characters of esc escaped.
func escaped(s string, esc *[utf8.RuneSelf]bool) string {
	i := unchanged(s, esc)
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	appendClean(&b, s[i:], lastRune(s[:i]), esc)
	return b.String()
}

// unchanged is the length of the prefix of s that escaped leaves as it is:
// len(s) when nothing changes.
func unchanged(s string, esc *[utf8.RuneSelf]bool) int {
	i := 0
	for i < len(s) {
		c := s[i]
		if c >= utf8.RuneSelf || ascii[c] || esc[c] {
			break
		}
		i++
	}
	if i == len(s) {
		return i
	}
	if j := firstChange(s[i:]); j == len(s)-i && !hasAny(s[i:], esc) {
		return len(s)
	}
	return i
}

// WriteInline writes Inline(s) to b without an intermediate string.
func WriteInline(b *strings.Builder, s string) { write(b, s, &markup) }

// WriteQuoted writes Quoted(s) to b without an intermediate string.
func WriteQuoted(b *strings.Builder, s string) {
	b.WriteByte('"')
	WriteQuotedPart(b, s)
	b.WriteByte('"')
}

// WriteQuotedPart writes the inside of Quoted(s): a part of quoted text
// (a word of a description written word by word).
func WriteQuotedPart(b *strings.Builder, s string) { write(b, s, &quoted) }

func write(b *strings.Builder, s string, esc *[utf8.RuneSelf]bool) {
	i := unchanged(s, esc)
	b.WriteString(s[:i])
	if i < len(s) {
		appendClean(b, s[i:], lastRune(s[:i]), esc)
	}
}

// CleanAll applies Clean to each string of ss: ss itself when nothing
// changes, else a new slice (ss is never written to).
func CleanAll(ss []string) []string {
	var out []string
	for i, s := range ss {
		c := Clean(s)
		if out == nil && c != s {
			out = append(make([]string, 0, len(ss)), ss[:i]...)
		}
		if out != nil {
			out = append(out, c)
		}
	}
	if out == nil {
		return ss
	}
	return out
}

// InlineAll applies Inline to each string and joins them with sep.
func InlineAll(ss []string, sep string) string {
	switch len(ss) {
	case 0:
		return ""
	case 1:
		return Inline(ss[0])
	}
	var b strings.Builder
	n := len(sep) * (len(ss) - 1)
	for _, s := range ss {
		n += len(s)
	}
	b.Grow(n)
	for i, s := range ss {
		if i > 0 {
			b.WriteString(sep)
		}
		WriteInline(&b, s)
	}
	return b.String()
}

func hasAny(s string, esc *[utf8.RuneSelf]bool) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < utf8.RuneSelf && esc[c] {
			return true
		}
	}
	return false
}

// firstChange is the byte offset of the first code point Clean would
// change, or len(s).
func firstChange(s string) int {
	prev := rune(-1)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if ascii[c] {
				return i
			}
			prev = rune(c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		switch kindOf(r) {
		case keep:
		case joiner:
			next := firstRune(s[i+size:])
			if !joins(prev, next) {
				return i
			}
		case selector:
			if prev < 0 || !presents(prev) {
				return i
			}
		default:
			return i
		}
		prev = r
		i += size
	}
	return len(s)
}

// firstRune is the first code point of s, or -1 (empty, invalid).
func firstRune(s string) rune {
	r, size := utf8.DecodeRuneInString(s)
	if size <= 1 && r == utf8.RuneError {
		return -1
	}
	return r
}

// lastRune is the last code point of s, or -1.
func lastRune(s string) rune {
	if s == "" {
		return -1
	}
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

// appendClean writes Clean(s) to b, with the ASCII characters of esc (if
// any) escaped; prev is the code point written before s, or -1.
func appendClean(b *strings.Builder, s string, prev rune, esc *[utf8.RuneSelf]bool) {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf && !ascii[c] {
			if esc != nil && esc[c] {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
			prev = rune(c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(Replacement)
			prev = Replacement
			continue
		}
		switch kindOf(r) {
		case keep:
		case breakRune:
			if prev != ' ' {
				b.WriteByte(' ')
				prev = ' '
			}
			continue
		case joiner:
			next := firstRune(s[i:])
			if !joins(prev, next) {
				continue
			}
		case selector:
			if prev < 0 || !presents(prev) {
				continue
			}
		case replace:
			r = Replacement
		default:
			continue
		}
		b.WriteRune(r)
		prev = r
	}
}
