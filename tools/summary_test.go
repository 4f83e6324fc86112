package tools

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestShorten(t *testing.T) {
	assert.Equal(t, "short", Shorten("short", 20))
	two := "Acme builds robots for warehouses. It also sells software for farms and much more besides."
	assert.Equal(t, "Acme builds robots for warehouses. …", Shorten(two, 60), "a whole sentence when it keeps half")
	words := "Acme builds robots for warehouses and sells software for farms and much more besides"
	got := Shorten(words, 40)
	assert.Equal(t, "Acme builds robots for warehouses and…", got, "else a word boundary")
	for _, n := range []int{10, 40, 120} {
		s := Shorten(strings.Repeat("ü ", 200), n)
		assert.LessOrEqual(t, utf8.RuneCountInString(s), n)
		assert.True(t, utf8.ValidString(s))
	}
	assert.Equal(t, "…", Shorten("Acme", 1), "room for the ellipsis alone")
	assert.Empty(t, Shorten("Acme", 0))
	exact := strings.Repeat("ü", 40)
	assert.Equal(t, exact, Shorten(exact, 40), "n runes fit in n, however many bytes")
	over := Shorten(exact+"ü", 40)
	assert.Equal(t, strings.Repeat("ü", 39)+"…", over, "one rune over: n-1 runes and the ellipsis")
}

func TestSummaryLine(t *testing.T) {
	emp, year := 250, 2012
	c := Company{ID: "cmp_7", Name: "Acme", Domain: "acme.example", Website: "https://acme.example", Country: "Germany", CountryCode: "DE",
		City: "Berlin", Categories: []string{"Robotics", "Logistics"}, EmployeeCount: &emp, FoundedYear: &year,
		Description: "Acme builds\nrobots.", UpdatedAt: "2026-01-02T00:00:00Z"}
	s := SummaryOf(c, DetailSummary)
	assert.Equal(t, "cmp_7 | Acme | acme.example | Berlin, DE | Robotics, Logistics | 250 employees | founded 2012 | \"Acme builds robots.\"", s.Line())
	ids := SummaryOf(c, DetailIDs)
	assert.Equal(t, Summary{ID: "cmp_7", Name: "Acme"}, ids)
	assert.Equal(t, "cmp_7 | Acme", ids.Line())
	assert.Equal(t, "cmp_7 | Acme | acme.example | Berlin, DE | Robotics, Logistics | 250 employees | founded 2012 | \"Acme builds robots.\" | updated 2026-01-02T00:00:00Z",
		c.Line(), "a full profile: the website is the domain's, so it is left out")
}

func TestSummaryLineLeavesOutEmptyParts(t *testing.T) {
	zero := 0
	for _, tt := range []struct {
		s    Summary
		want string
	}{
		{Summary{ID: "c", Name: "N", City: "Paris"}, "c | N | Paris"},
		{Summary{ID: "c", Name: "N", CountryCode: "FR"}, "c | N | FR"},
		{Summary{ID: "c", Name: "N", Categories: []string{""}}, "c | N"},
		{Summary{ID: "c", Name: "N", Categories: []string{"", "AI"}}, "c | N | , AI"},
		{Summary{ID: "c", Name: "N", EmployeeCount: &zero}, "c | N | 0 employees"},
		{Summary{ID: "c", Name: "N", FoundedYear: &zero, description: "tab\there"}, `c | N | founded 0 | "tab here"`},
	} {
		assert.Equal(t, tt.want, tt.s.Line())
	}
}
