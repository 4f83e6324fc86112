package country_test

import (
	"fmt"

	"github.com/companyintel/mcp-server/internal/country"
)

func ExampleLookup() {
	c, ok := country.Lookup("U.K.")
	fmt.Println(c.Name, c.Alpha2, c.Alpha3, ok)
	fmt.Println(c.Facet())
	// Output:
	// United Kingdom GB GBR true
	// countries;United Kingdom
}

func ExampleSuggest() {
	in := "Germny"
	if _, ok := country.Lookup(in); !ok {
		if s := country.Suggest(in, 3); len(s) > 0 {
			fmt.Printf("unknown country %q; did you mean %s?\n", in, s[0].Name)
		}
	}
	// Output:
	// unknown country "Germny"; did you mean Germany?
}
