package interpret_test

import (
	"testing"
	"unicode/utf8"

	"github.com/companyintel/mcp-server/appsynclocal/interpret"
)

// FuzzParse checks that no sentence panics or yields nonsense bounds.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"fintech startups in Germany", "over 99999999999999999999999 employees", "between 5 and 2 staff",
		"founded before 0000", "U.S.A.-based e-commerce", "’’’", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		q := interpret.Parse(s)
		if q.MinEmployees < 0 || q.MaxEmployees < 0 || (q.MaxEmployees > 0 && q.MinEmployees > q.MaxEmployees && len(q.SizePhrases) == 0) {
			t.Fatalf("%q: bounds %d..%d", s, q.MinEmployees, q.MaxEmployees)
		}
		_ = q.Describe(false)
		_ = q.Filters()
	})
}
