package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rows is a List of n records of about size bytes each.
type rows struct {
	Items     []string `json:"items" text:"-"`
	Total     int      `json:"total"`
	Truncated bool     `json:"truncated,omitempty"`
	Note      string   `json:"note,omitempty"`
}

func (r rows) Len() int        { return len(r.Items) }
func (r rows) Lines() []string { return r.Items }
func (r rows) Cut(n, bound int) List {
	r.Items, r.Truncated = r.Items[:n], true
	r.Note = fmt.Sprintf("cut to %d at %d", n, bound)
	return r
}

func manyRows(n, size int) rows {
	r := rows{Total: n, Note: "all of them"}
	for i := range n {
		r.Items = append(r.Items, fmt.Sprintf("id_%03d %s", i, strings.Repeat("x", size)))
	}
	return r
}

func TestRenderLeavesAnAnswerWithinTheBoundWhole(t *testing.T) {
	r, err := Render(manyRows(5, 50), 4096)
	require.NoError(t, err)
	assert.Equal(t, 5, r.Records)
	assert.NotContains(t, string(r.JSON), "truncated")
	assert.LessOrEqual(t, r.Size(), 4096)
}

func TestRenderCutsAListAtTheLastWholeRecordThatFits(t *testing.T) {
	const bound = 4096
	in := manyRows(100, 100)
	r, err := Render(in, bound)
	require.NoError(t, err)
	require.Less(t, r.Records, 100)
	assert.LessOrEqual(t, r.Size(), bound, "the answer fits")
	next, err := render(in.Cut(r.Records+1, bound))
	require.NoError(t, err)
	assert.Greater(t, next.Size(), bound, "one record more would not: the cut is as late as it can be")

	var got rows
	require.NoError(t, json.Unmarshal(r.JSON, &got))
	assert.True(t, got.Truncated)
	assert.Equal(t, fmt.Sprintf("cut to %d at %d", r.Records, bound), got.Note)
	assert.Equal(t, in.Items[:r.Records], got.Items, "a prefix, whole records")
	assert.Equal(t, got, r.Value, "Value is the answer sent")
}

func TestRenderNeverCutsBelowOneRecord(t *testing.T) {
	r, err := Render(manyRows(3, 5000), MinAnswerBound)
	require.NoError(t, err)
	assert.Equal(t, 1, r.Records, "a caller following cursors must move on")
	assert.Greater(t, r.Size(), MinAnswerBound)
}

func TestRenderWithoutABoundUsesTheDefault(t *testing.T) {
	r, err := Render(manyRows(100, 300), 0)
	require.NoError(t, err)
	assert.Less(t, r.Records, 100)
	assert.LessOrEqual(t, r.Size(), DefaultAnswerBound)
}

// The bound counts the text as the JSON string it travels as; the count
// must be exactly what the encoder writes.
func TestSizeCountsTheTextAsItsJSONString(t *testing.T) {
	for _, s := range []string{"", "plain", "R&D <labs> > 3", "quote \" and \\ backslash", "line\nbreak\ttab\r",
		"control \x01\x1f", "ünïcödé …", "bad \xff utf-8", "separators \u2028\u2029", allASCII()} {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		require.NoError(t, enc.Encode(s))
		assert.Equal(t, buf.Len()-1, jsonStringLen(s), "%q", s)
	}
}

// allASCII is every ASCII byte once.
func allASCII() string {
	b := make([]byte, 128)
	for i := range b {
		b[i] = byte(i)
	}
	return string(b)
}

type listWithFields struct {
	Companies  []Summary         `json:"companies" text:"-"`
	Total      int               `json:"total"`
	NextCursor string            `json:"next_cursor,omitempty"`
	Filters    []string          `json:"applied_filters"`
	Empty      []string          `json:"not_applied"`
	Extra      map[string]string `json:"extra,omitempty"`
	Note       string            `json:"note,omitempty"`
}

func (l listWithFields) Len() int { return len(l.Companies) }
func (l listWithFields) Lines() []string {
	out := make([]string, len(l.Companies))
	for i, c := range l.Companies {
		out[i] = c.Line()
	}
	return out
}
func (l listWithFields) Cut(n, _ int) List { l.Companies = l.Companies[:n]; return l }

func TestListTextIsTheNoteTheRecordsThenEveryOtherField(t *testing.T) {
	emp := 42
	out := listWithFields{
		Companies: []Summary{
			{ID: "cmp_1", Name: "Kim & Rossi <Labs>", Domain: "kr.example", CountryCode: "DE", City: "Berlin",
				Categories: []string{"AI & Machine Learning"}, EmployeeCount: &emp, description: "Makes R&D tools."},
			{ID: "cmp_2", Name: "Bare"},
		},
		Total: 2, NextCursor: "c1.abc", Filters: []string{"countries;Germany", "categories;AI & Machine Learning"},
		Empty: []string{}, Extra: map[string]string{"k": "a&b"}, Note: "Showing 2 of 2 companies.",
	}
	r, err := Render(out, 0)
	require.NoError(t, err)
	assert.Equal(t, "Showing 2 of 2 companies.\n"+
		`cmp_1 | Kim & Rossi \<Labs\> | kr.example | Berlin, DE | AI & Machine Learning | 42 employees | "Makes R&D tools."`+"\n"+
		"cmp_2 | Bare\n"+
		"total: 2\n"+
		"next_cursor: c1.abc\n"+
		"applied_filters: countries;Germany, categories;AI & Machine Learning\n"+
		`extra: {"k":"a&b"}`, r.Text)
	assert.NotContains(t, string(r.JSON), `\u0026`, "no HTML escaping in the structured JSON")
	assert.NotContains(t, string(r.JSON), "Makes R&D", "the description is in the text only")
}

func TestTextNamesEveryRecordReturned(t *testing.T) {
	in := manyRows(100, 120)
	r, err := Render(in, 8192)
	require.NoError(t, err)
	var got rows
	require.NoError(t, json.Unmarshal(r.JSON, &got))
	for _, it := range got.Items {
		assert.Contains(t, r.Text, strings.Fields(it)[0])
	}
	assert.NotContains(t, r.Text, strings.Fields(in.Items[r.Records])[0], "nor one that was cut")
}

type single struct {
	Collection Collection `json:"collection"`
	Roles      []string   `json:"roles"`
	Note       string     `json:"note,omitempty"`
}

func (s single) Text() string {
	var p Plain
	p.Line("Headline " + s.Collection.Name + ".")
	p.Fact("description", s.Collection.Description)
	p.Fact("collection", s.Collection.Line())
	p.Items("roles", "none", s.Roles)
	p.Line(s.Note)
	return p.String()
}

// A single record writes its own text (Texter): a headline, a fact a line
// with the empty ones left out, items under their count, the note last;
// and the bound counts that text, not the JSON it replaces.
func TestASingleRecordIsItsOwnTextAndTheBoundCountsIt(t *testing.T) {
	out := single{Collection: Collection{ID: "col_1", Name: "Leads", ItemCount: 1, CreatedAt: "2026-01-01T00:00:00Z", UpdatedAt: "2026-01-02T00:00:00Z"},
		Roles: []string{"CEO", "CTO"}, Note: "Add more with add_to_collection."}
	r, err := Render(out, 0)
	require.NoError(t, err)
	assert.Equal(t, "Headline Leads.\n"+
		`collection: col_1 | "Leads" | 1 company | created 2026-01-01T00:00:00Z | updated 2026-01-02T00:00:00Z`+"\n"+
		"roles (2):\n- CEO\n- CTO\n"+
		"Add more with add_to_collection.", r.Text)
	assert.Equal(t, len(r.JSON)+jsonStringLen(r.Text), r.Size())

	out.Roles, out.Note = nil, ""
	r, err = Render(out, 0)
	require.NoError(t, err)
	assert.True(t, strings.HasSuffix(r.Text, "\nroles: none"), r.Text)
}

// A list's field that renders itself as a line (a collection beside its
// items) reads as the lists show it, not as JSON.
func TestAListFieldThatIsARecordReadsAsItsLine(t *testing.T) {
	type items struct {
		rows
		Collection Collection `json:"collection"`
	}
	r, err := Render(items{rows: manyRows(1, 10), Collection: Collection{ID: "col_1", Name: "Leads", ItemCount: 2}}, 0)
	require.NoError(t, err)
	assert.Contains(t, r.Text, "\ncollection: col_1 | \"Leads\" | 2 companies | created  | updated ")
}

func TestProseIsTheFactOfItsWordsJoinedBySpaces(t *testing.T) {
	for _, v := range []string{"", "  ", "one", " two  words ", "a\nb\r\nc\td", "x\u00a0y\u2003z", "\n\nlead and trail\n"} {
		var prose, fact Plain
		for _, p := range []*Plain{&prose, &fact} {
			p.Line("Acme (cmp_1)")
		}
		prose.Prose("description", v)
		fact.Fact("description", strings.Join(strings.Fields(v), " "))
		assert.Equal(t, fact.String(), prose.String(), "%q", v)
	}
	var first Plain // a fact as the first line has no line break before it
	first.Prose("description", " a  b ")
	assert.Equal(t, "description: a b", first.String())
}
