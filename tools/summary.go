package tools

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/companyintel/mcp-server/internal/untrusted"
)

// The text rendering of records (answer.go): one line each, the facts of the
// structured record without a JSON key per field, for a model to read.
// Every value the backend or a user wrote is written with
// untrusted.Inline (markup and the " | " separator escaped, so each value
// stays one field), and prose (a description) between double quotes as
// quoted data (untrusted.Quoted); the line itself starts with the
// server's own words or the record's id.

// Summary is a company as list answers give it: what an agent needs to
// choose one, nothing derivable (the website is the domain; the country name
// is the code's). Its description is not in the structured record: it is
// prose for the reader, cut to DescriptionLen in the text rendering, and in
// full from get_company. With the ids detail only id and name are set; a
// projection (Project) may leave out the name too.
type Summary struct {
	ID            string   `json:"id"`
	Name          string   `json:"name,omitempty"`
	Domain        string   `json:"domain,omitempty"`
	CountryCode   string   `json:"country_code,omitempty"`
	City          string   `json:"city,omitempty"`
	Categories    []string `json:"categories,omitempty"`
	EmployeeCount *int     `json:"employee_count,omitempty"`
	FoundedYear   *int     `json:"founded_year,omitempty"`

	description string // for the text rendering only
}

// Detail says how much of each company a list answer carries.
type Detail string

// The details a list tool offers: DetailSummary (the default) or DetailIDs,
// the id and name alone, for building long lists.
const (
	DetailSummary Detail = "summary"
	DetailIDs     Detail = "ids"
)

// SummaryOf reduces a company to its summary at detail d.
func SummaryOf(c Company, d Detail) Summary {
	if d == DetailIDs {
		return Summary{ID: c.ID, Name: c.Name}
	}
	return Summary{
		ID: c.ID, Name: c.Name, Domain: c.Domain, CountryCode: c.CountryCode, City: c.City,
		Categories: c.Categories, EmployeeCount: c.EmployeeCount, FoundedYear: c.FoundedYear,
		description: c.Description,
	}
}

// DescriptionLen is the most characters of a description a text line shows.
const DescriptionLen = 120

// Line renders the summary as one line of text for a model: the same facts
// as the record without a JSON key per field, then the description cut at a
// word boundary. Empty fields are left out; each kept one reads on its own
// ("250 employees", "founded 2012").
//
// Every list answer renders a line per company, so the line is written
// into one buffer sized up front, without intermediate strings.
func (s Summary) Line() string {
	desc := Shorten(oneLine(s.description), DescriptionLen)
	size := len(s.ID) + len(s.Name) + len(s.Domain) + len(s.City) + len(s.CountryCode) + len(desc) + 66
	for _, c := range s.Categories {
		size += len(c) + 2
	}
	// A strings.Builder hands over its buffer without copying it.
	var b strings.Builder
	b.Grow(size)
	var num [20]byte
	untrusted.WriteInline(&b, s.ID)
	sep := func() { b.WriteString(" | ") }
	if s.Name != "" {
		sep()
		untrusted.WriteInline(&b, s.Name)
	}
	if s.Domain != "" {
		sep()
		untrusted.WriteInline(&b, s.Domain)
	}
	if s.City != "" || s.CountryCode != "" {
		sep()
		untrusted.WriteInline(&b, s.City)
		if s.City != "" && s.CountryCode != "" {
			b.WriteString(", ")
		}
		untrusted.WriteInline(&b, s.CountryCode)
	}
	if len(s.Categories) > 1 || len(s.Categories) == 1 && s.Categories[0] != "" {
		sep()
		for i, c := range s.Categories {
			if i > 0 {
				b.WriteString(", ")
			}
			untrusted.WriteInline(&b, c)
		}
	}
	if s.EmployeeCount != nil {
		sep()
		b.Write(strconv.AppendInt(num[:0], int64(*s.EmployeeCount), 10))
		b.WriteString(" employees")
	}
	if s.FoundedYear != nil {
		sep()
		b.WriteString("founded ")
		b.Write(strconv.AppendInt(num[:0], int64(*s.FoundedYear), 10))
	}
	if desc != "" {
		sep()
		untrusted.WriteQuoted(&b, desc)
	}
	return b.String()
}

// Shorten cuts s to at most n characters, ending it with "…" when anything
// was cut: after the last whole sentence that fits when that keeps at least
// half, else at a word boundary.
func Shorten(s string, n int) string {
	// The byte offset of rune n-1 (the ellipsis makes n), found without
	// converting the description to runes: this runs for every company in
	// every list answer.
	// Counting stops at n+1 runes: past that, only "longer than n" matters.
	end, runes := len(s), 0
	for i := range s {
		if runes == n-1 {
			end = i
		}
		if runes++; runes > n {
			break
		}
	}
	if runes <= n {
		return s
	}
	switch {
	case n < 1:
		return ""
	case n == 1:
		return "…" // no room for any text before it
	}
	cut := s[:end]
	if i := strings.LastIndex(cut[:len(cut)-1], ". "); i >= len(cut)/2 {
		return cut[:i+1] + " …"
	}
	if i := strings.LastIndexByte(cut, ' '); i > len(cut)/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:.-") + "…"
}

// oneLine keeps a record on its line: a description's own line breaks and
// tabs become spaces.
func oneLine(s string) string {
	if strings.IndexByte(s, '\n') < 0 && strings.IndexByte(s, '\r') < 0 && strings.IndexByte(s, '\t') < 0 {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// Line renders a full profile as one line of text for a model: the
// summary's facts, the website when it is not just the domain, the whole
// description, the update time and the contacts.
func (c Company) Line() string {
	s := SummaryOf(c, DetailSummary)
	s.description = ""
	var b strings.Builder
	b.WriteString(s.Line())
	add := func(part string) {
		if part != "" {
			b.WriteString(" | ")
			b.WriteString(part)
		}
	}
	if c.Website != "" && c.Website != "https://"+c.Domain && c.Website != "http://"+c.Domain {
		add(untrusted.Inline(c.Website))
	}
	if d := oneLine(c.Description); d != "" {
		add(untrusted.Quoted(d))
	}
	if c.UpdatedAt != "" {
		add("updated " + untrusted.Inline(c.UpdatedAt))
	}
	for _, ct := range c.Contacts {
		add(fmt.Sprintf("contact %s (role %s, confidence %.2f, found %s)", untrusted.Inline(ct.Email), untrusted.Quoted(ct.Role), ct.Confidence, untrusted.Inline(ct.DiscoveredAt)))
	}
	return b.String()
}

// Line renders a contact as one line of text for a model: the email, the
// role (quoted: a user wrote it), the confidence as its JSON writes it, and
// when it was found.
func (c Contact) Line() string {
	return "email " + untrusted.Inline(c.Email) + " | role " + untrusted.Quoted(c.Role) + " | confidence " +
		strconv.FormatFloat(c.Confidence, 'f', -1, 64) + " | found " + untrusted.Inline(c.DiscoveredAt) + nameLine(c.NameKnown)
}

// nameLine says on a contact's line that no name is known.
func nameLine(known bool) string {
	if known {
		return ""
	}
	return " | name unknown"
}

// Line renders a collection as one line of text for a model.
func (c Collection) Line() string {
	count := "companies"
	if c.ItemCount == 1 {
		count = "company"
	}
	line := fmt.Sprintf("%s | %s | %d %s | created %s | updated %s", untrusted.Inline(c.ID), untrusted.Quoted(c.Name), c.ItemCount, count,
		untrusted.Inline(c.CreatedAt), untrusted.Inline(c.UpdatedAt))
	if d := oneLine(c.Description); d != "" {
		line += " | " + untrusted.Quoted(d)
	}
	return line
}

// Columns is a projection of a Summary: which of its fields beside the id
// an answer carries, for a question about some of them (the city and head
// count) that the whole summary would answer at three times the bytes. The
// text line follows it: a field left out is in neither rendering.
type Columns uint8

// The columns, in the order of ColumnNames.
const (
	ColName Columns = 1 << iota
	ColDomain
	ColCountry
	ColCity
	ColCategories
	ColEmployees
	ColFounded
	ColDescription

	// AllColumns is the whole summary.
	AllColumns = ColName | ColDomain | ColCountry | ColCity | ColCategories | ColEmployees | ColFounded | ColDescription
)

// ColumnNames are the columns' names, as the records' JSON names them
// (description is the text line's cut description).
var ColumnNames = []string{"name", "domain", "country_code", "city", "categories", "employee_count", "founded_year", "description"}

// ParseColumns reads column names; unknown names are ignored (the tools'
// input schema has already refused them).
func ParseColumns(names []string) Columns {
	var c Columns
	for _, n := range names {
		for i, known := range ColumnNames {
			if n == known {
				c |= 1 << i
			}
		}
	}
	return c
}

// Project keeps only the columns c of s, with its id.
func (s Summary) Project(c Columns) Summary {
	out := Summary{ID: s.ID}
	if c&ColName != 0 {
		out.Name = s.Name
	}
	if c&ColDomain != 0 {
		out.Domain = s.Domain
	}
	if c&ColCountry != 0 {
		out.CountryCode = s.CountryCode
	}
	if c&ColCity != 0 {
		out.City = s.City
	}
	if c&ColCategories != 0 {
		out.Categories = s.Categories
	}
	if c&ColEmployees != 0 {
		out.EmployeeCount = s.EmployeeCount
	}
	if c&ColFounded != 0 {
		out.FoundedYear = s.FoundedYear
	}
	if c&ColDescription != 0 {
		out.description = s.description
	}
	return out
}

// Description is the summary's whole description, for an export.
func (s Summary) Description() string { return s.description }
