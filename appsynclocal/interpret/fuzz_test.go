package interpret_test

import (
	"testing"
	"unicode/utf8"

	"github.com/companyintel/mcp-server/appsynclocal/interpret"
)

// FuzzParse checks that no sentence panics or yields nonsense bounds: no
// negative bound and no range whose minimum exceeds its maximum, whatever
// the sentence combines.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"fintech startups in Germany", "over 99999999999999999999999 employees", "between 5 and 2 staff",
		"founded before 0000", "U.S.A.-based e-commerce", "’’’", "",
		"startups with 50 to 200 employees", "not in Germany or France but in Spain", "non-US fintech", "§ not §",
		"tiny multinationals", "founded after 2020 and founded before 2010", "not under 5 staff",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		q := interpret.Parse(s)
		if q.MinEmployees < 0 || q.MaxEmployees < 0 || (q.MaxEmployees > 0 && q.MinEmployees > q.MaxEmployees) {
			t.Fatalf("%q: employee bounds %d..%d", s, q.MinEmployees, q.MaxEmployees)
		}
		if q.FoundedFrom < 0 || q.FoundedTo < 0 || (q.FoundedTo > 0 && q.FoundedFrom > q.FoundedTo) {
			t.Fatalf("%q: founding-year bounds %d..%d", s, q.FoundedFrom, q.FoundedTo)
		}
		_ = q.Describe()
		_ = q.Filters()
	})
}
