package tools

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/companyintel/mcp-server/internal/untrusted"
)

// An answer reaches the client in two renderings: structuredContent (JSON
// validated against the outputSchema, for programs) and a text content
// block, which is what most clients hand the model. A list answer's text is
// written for the model: its note, then one line per record, then the
// answer's other fields as "name: value" lines, so nothing a program sees is
// missing from it. A single record (a profile, a created collection, an add)
// writes its own text (Texter) in the same plain style: what it is, then its
// facts line by line, then its note. Hosts that hand the model only the
// text must lose no fact, so a Texter says every field of its answer. An
// answer that is neither (none of the server's tools; a test's) is its JSON.
//
// Every answer is bounded in bytes (DESIGN.md, "Agent contract"). The size
// counted is both renderings as they sit in the result on the wire: the
// structuredContent JSON plus the text content as a JSON string (quotes and
// escapes included), without the JSON-RPC envelope around them. Past the
// bound, a list answer is cut at a whole record and says so (Cut).

// DefaultAnswerBound is the answer bound unless configured: 16 KiB.
const DefaultAnswerBound = 16 << 10

// MinAnswerBound is the smallest configurable bound: below it a single
// record with its note might not fit.
const MinAnswerBound = 2 << 10

// A List is an answer made of records, which the pipeline may cut to fit
// the answer bound and renders as lines of text.
type List interface {
	// Len is the number of records.
	Len() int
	// Cut returns the answer holding only its first n records (1 ≤ n <
	// Len), with truncated set and a note saying what was left out and how
	// to get it; bound is the bound it was cut to, for the note.
	Cut(n, bound int) List
	// Lines renders the records, one line each, for the text content.
	Lines() []string
}

// A Texter is an answer that is not a list and renders its own text for
// the model, in place of its JSON.
type Texter interface {
	// Text says every fact of the answer in plain lines.
	Text() string
}

// Rendered is an answer in its two renderings.
type Rendered struct {
	JSON []byte
	Text string
	// Records is how many records a List answer kept.
	Records int
	// Value is the answer rendered: a cut List is a copy of the one given.
	Value any
	// size is Size, counted once by render: it reads the whole text.
	size int
}

// Size is what the answer bound counts: the structured JSON plus the text
// as a JSON string.
func (r Rendered) Size() int { return r.size }

// Render renders out, cutting a List answer to fit bound (0 means
// DefaultAnswerBound). A list is never cut below one record, so that a
// caller following cursors always moves on.
func Render(out any, bound int) (Rendered, error) {
	if bound <= 0 {
		bound = DefaultAnswerBound
	}
	r, err := render(out)
	if err != nil {
		return r, err
	}
	l, ok := out.(List)
	if !ok || r.Size() <= bound || l.Len() <= 1 {
		return r, nil
	}
	// The largest prefix that fits: sizes grow with n, so a binary search
	// renders about log2(Len) candidates.
	lo, hi := 1, l.Len()-1
	best, err := render(l.Cut(1, bound))
	if err != nil {
		return best, err
	}
	for lo < hi {
		mid := (lo + hi + 1) / 2
		c, err := render(l.Cut(mid, bound))
		if err != nil {
			return c, err
		}
		if c.Size() <= bound {
			lo, best = mid, c
		} else {
			hi = mid - 1
		}
	}
	return best, nil
}

func render(out any) (Rendered, error) {
	b, err := encode(out)
	if err != nil {
		return Rendered{}, err
	}
	r := Rendered{JSON: b, Value: out}
	switch o := out.(type) {
	case List:
		r.Text, r.Records = listText(out, o.Lines()), o.Len()
	case Texter:
		r.Text = o.Text()
	default:
		r.Text = string(b)
	}
	r.size = len(r.JSON) + jsonStringLen(r.Text)
	return r, nil
}

// listText renders a list answer for the model: the note, the record lines,
// then every other non-empty field of the answer as "name: value". The
// records' own field is the one tagged text:"-".
func listText(out any, lines []string) string {
	v := reflect.Indirect(reflect.ValueOf(out))
	t := v.Type()
	var b strings.Builder
	size := 256 // the note and the other fields
	for _, l := range lines {
		size += len(l) + 1
	}
	b.Grow(size)
	var rest []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" || f.Tag.Get("text") == "-" {
			continue
		}
		if name == "note" { // the server's own words, written as they are
			if note := v.Field(i).String(); note != "" {
				b.WriteString(note)
				b.WriteByte('\n')
			}
			continue
		}
		if val := textValue(v.Field(i)); val != "" {
			rest = append(rest, name+": "+val)
		}
	}
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	b.WriteString(strings.Join(rest, "\n"))
	return strings.TrimSuffix(b.String(), "\n")
}

// textValue renders one field for the text content; "" leaves it out.
func textValue(v reflect.Value) string {
	if v.IsZero() {
		return ""
	}
	// A record that renders itself as a line (a collection beside its
	// items) reads as it does in the lists, not as JSON.
	if l, ok := v.Interface().(interface{ Line() string }); ok {
		return l.Line()
	}
	// Any other field may hold the backend's words (an interpretation,
	// its filters): escaped as every untrusted value in the text is.
	switch v.Kind() {
	case reflect.Pointer:
		return textValue(v.Elem())
	case reflect.String:
		return untrusted.Inline(v.String())
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case reflect.Int, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10)
	case reflect.Slice:
		if v.Len() == 0 {
			return ""
		}
		if s, ok := v.Interface().([]string); ok {
			return untrusted.InlineAll(s, ", ")
		}
	}
	b, err := encode(v.Interface())
	if err != nil {
		return untrusted.Inline(fmt.Sprint(v.Interface()))
	}
	return untrusted.Inline(string(b))
}

// jsonStringLen is the length of s encoded as a JSON string without HTML
// escaping, as encode writes it.
func jsonStringLen(s string) int {
	n := 2
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			n += jsonASCIILen[c]
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			n += 6
		} else {
			n += size
		}
		i += size
	}
	return n
}

// jsonASCIILen is how many bytes each ASCII byte takes in a JSON string:
// the answer bound reads every byte of every text, and one lookup per byte
// took half the time of comparing each byte with the seven escaped ones
// (BenchmarkGetCompanyCall's profile).
var jsonASCIILen = func() (t [utf8.RuneSelf]int) {
	for c := range t {
		switch {
		case c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t' || c == '\b' || c == '\f':
			t[c] = 2
		case c < 0x20:
			t[c] = 6
		default:
			t[c] = 1
		}
	}
	return t
}()

// Plain writes a Texter's text in the one style every single-record answer
// shares: a headline, then a fact a line as "label: value" (an empty value
// is left out), items as "- " lines under their count, and the note last.
// It writes straight into one buffer: the text is rendered on every call,
// and a string built per fact was most of its allocations.
type Plain struct{ b strings.Builder }

// Grow makes room for n more bytes, for a Texter that knows about how long
// its text is.
func (p *Plain) Grow(n int) { p.b.Grow(n) }

// Line writes a line as it is.
func (p *Plain) Line(s string) {
	if s == "" {
		return
	}
	p.newLine()
	p.b.WriteString(s)
}

// newLine ends the line before the next one, if any was written.
func (p *Plain) newLine() {
	if p.b.Len() > 0 {
		p.b.WriteByte('\n')
	}
}

// Fact writes "label: value", or nothing when value is empty.
func (p *Plain) Fact(label, value string) {
	if value == "" {
		return
	}
	p.label(label)
	p.b.WriteString(value)
}

// label starts a fact's line: "label: ".
func (p *Plain) label(label string) {
	p.newLine()
	p.b.WriteString(label)
	p.b.WriteString(": ")
}

// Prose writes "label: value" with every run of white space in value (line
// breaks included) written as one space, and none at either end, so that a
// description's own line breaks do not read as the next facts; nothing when
// value is only white space. It writes what Fact(label,
// strings.Join(strings.Fields(value), " ")) does, without the two copies.
func (p *Plain) Prose(label, value string) {
	first := true
	for w := range strings.FieldsSeq(value) {
		if first {
			p.label(label)
			first = false
		} else {
			p.b.WriteByte(' ')
		}
		p.b.WriteString(w)
	}
}

// QuotedProse writes `label: "value"`: prose a third party wrote, as
// quoted data (untrusted.Quoted), every run of white space in it written as
// one space as Prose does; nothing when value is only white space. It
// writes straight into the buffer: a profile's description is in every
// get_company answer.
func (p *Plain) QuotedProse(label, value string) {
	first := true
	for w := range strings.FieldsSeq(value) {
		if first {
			p.label(label)
			p.b.WriteByte('"')
			first = false
		} else {
			p.b.WriteByte(' ')
		}
		untrusted.WriteQuotedPart(&p.b, w)
	}
	if !first {
		p.b.WriteByte('"')
	}
}

// QuotedLine writes a line of the server's words around a quoted value:
// before, untrusted.Quoted(value), after.
func (p *Plain) QuotedLine(before, value, after string) {
	p.newLine()
	p.b.WriteString(before)
	untrusted.WriteQuoted(&p.b, value)
	p.b.WriteString(after)
}

// Items writes "label (n):" and a "- " line per item, or "label: none"
// with none naming what no item means here.
func (p *Plain) Items(label, none string, items []string) {
	if len(items) == 0 {
		p.Fact(label, none)
		return
	}
	p.newLine()
	p.b.WriteString(label)
	p.b.WriteString(" (")
	p.b.WriteString(strconv.Itoa(len(items)))
	p.b.WriteString("):")
	for _, it := range items {
		p.b.WriteString("\n- ")
		p.b.WriteString(it)
	}
}

// String is the text written.
func (p *Plain) String() string { return p.b.String() }
