package country

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLookup(t *testing.T) {
	tests := []struct {
		in   string
		want string // alpha-2
	}{
		// United States: codes, names, informal forms, demonym.
		{"US", "US"},
		{"us", "US"},
		{"USA", "US"},
		{"usa", "US"},
		{"United States", "US"},
		{"united states of america", "US"},
		{"U.S.", "US"},
		{"U.S.A.", "US"},
		{"America", "US"},
		{"American", "US"},
		{"the United States", "US"},

		// United Kingdom: "UK" is not ISO but must work.
		{"UK", "GB"},
		{"U.K.", "GB"},
		{"the UK", "GB"},
		{"GB", "GB"},
		{"GBR", "GB"},
		{"Britain", "GB"},
		{"Great Britain", "GB"},
		{"England", "GB"},
		{"Scotland", "GB"},
		{"Northern Ireland", "GB"},
		{"British", "GB"},
		{"United Kingdom of Great Britain and Northern Ireland", "GB"},

		{"DE", "DE"},
		{"DEU", "DE"},
		{"Germany", "DE"},
		{"Deutschland", "DE"},
		{"German", "DE"},
		{"Federal Republic of Germany", "DE"},

		{"Türkiye", "TR"},
		{"turkiye", "TR"},
		{"TÜRKIYE", "TR"},
		{"Turkey", "TR"},
		{"TR", "TR"},

		{"Côte d'Ivoire", "CI"},
		{"Cote d'Ivoire", "CI"},
		{"Côte d’Ivoire", "CI"},       // typographic apostrophe
		{"Co\u0302te d'Ivoire", "CI"}, // decomposed (NFD) input
		{"cote divoire", "CI"},
		{"CI", "CI"},
		{"Ivory Coast", "CI"},

		{"Korea", "KR"},
		{"Republic of Korea", "KR"},
		{"Korea, Republic of", "KR"},
		{"Korea (Republic of)", "KR"},
		{"Korea, South", "KR"},
		{"The Bahamas", "BS"},
		{"Bahamas, The", "BS"},
		{"North Korea", "KP"},
		{"Holland", "NL"},
		{"The Netherlands", "NL"},
		{"Dutch", "NL"},
		{"Czech Republic", "CZ"},
		{"UAE", "AE"},
		{"Russian Federation", "RU"},
		{"Islamic Republic of Iran", "IR"},
		{"Iran, Islamic Republic of", "IR"},
		{"Viet Nam", "VN"},
		{"Bolivia (Plurinational State of)", "BO"},
		{"Guinea Bissau", "GW"},
		{"Bosnia & Herzegovina", "BA"},
		{"St. Lucia", "LC"},
		{"St Kitts & Nevis", "KN"},
		{"Åland Islands", "AX"},
		{"Aland Islands", "AX"},
		{"Sao Tome and Principe", "ST"},
		{"Congo", "CG"},
		{"DRC", "CD"},

		// Whitespace and case noise.
		{"  united   STATES  ", "US"},
		{"\tgermany\n", "DE"},
		{"sOuTh KoReA", "KR"},
		{" de ", "DE"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			c, ok := Lookup(tt.in)
			require.True(t, ok, "Lookup(%q) not found", tt.in)
			assert.Equal(t, tt.want, c.Alpha2, "Lookup(%q) = %+v", tt.in, c)
		})
	}
}

func TestLookupNotFound(t *testing.T) {
	for _, in := range []string{
		"Germny", "Untied States", "Atlantis", "", "   ", "X", "...",
		"XX", "XXX", "the", "Virgin Islands", "Dominican",
		strings.Repeat("united states ", 10000),
	} {
		t.Run(in[:min(len(in), 20)], func(t *testing.T) {
			c, ok := Lookup(in)
			assert.False(t, ok, "Lookup(%q) = %+v, want not found", in, c)
			assert.Zero(t, c)
		})
	}
}

func TestSuggest(t *testing.T) {
	tests := []struct {
		in    string
		n     int
		first string // alpha-2 of the first suggestion; "" for none
	}{
		{"Germny", 3, "DE"},
		{"Untied States", 3, "US"},
		{"Frnace", 3, "FR"},
		{"Swizerland", 3, "CH"},
		{"Brazill", 1, "BR"},
		{"Phillipines", 3, "PH"},
		{"Atlantis", 3, ""},
		{"X", 3, ""}, // one edit from a code is another code, not a typo
		{"Korea Suoth", 3, "KR"},
		{"", 3, ""},
		{"Germany", 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got := Suggest(tt.in, tt.n)
			assert.LessOrEqual(t, len(got), max(tt.n, 0))
			if tt.first == "" {
				assert.Empty(t, got)
				return
			}
			require.NotEmpty(t, got)
			assert.Equal(t, tt.first, got[0].Alpha2, "Suggest(%q) = %v", tt.in, got)
		})
	}
}

func TestSuggestPrefixFirst(t *testing.T) {
	// "united" starts several names and aliases; those come first, the
	// shortest (closest) first, ahead of anything merely within edit range.
	got := Suggest("united", 10)
	var names []string
	for _, c := range got {
		names = append(names, c.Name)
	}
	require.GreaterOrEqual(t, len(names), 6, names)
	assert.Equal(t, []string{"United States", "United Kingdom", "United Arab Emirates"}, names[:3])
	// Prefixes of aliases count too: "United Mexican States" and "United
	// Republic of Tanzania".
	assert.Subset(t, names, []string{"Mexico", "Tanzania", "United States Minor Outlying Islands"})
}

func TestSuggestNoDuplicates(t *testing.T) {
	// Germany has several keys close to "germ"; it must appear once.
	got := Suggest("germ", 10)
	seen := map[string]bool{}
	for _, c := range got {
		assert.False(t, seen[c.Alpha2], "%s suggested twice in %v", c.Alpha2, got)
		seen[c.Alpha2] = true
	}
	require.NotEmpty(t, got)
	assert.Equal(t, "DE", got[0].Alpha2)
}

func TestSuggestLongInput(t *testing.T) {
	assert.Empty(t, Suggest(strings.Repeat("a", 1<<20), 3))
}

func TestByAlpha2(t *testing.T) {
	for in, want := range map[string]string{"DE": "Germany", "de": "Germany", " gb ": "United Kingdom"} {
		c, ok := ByAlpha2(in)
		require.True(t, ok, in)
		assert.Equal(t, want, c.Name)
	}
	for _, in := range []string{"UK", "DEU", "Germany", "", "XX"} {
		_, ok := ByAlpha2(in)
		assert.False(t, ok, "ByAlpha2(%q) found", in)
	}
}

func TestFacet(t *testing.T) {
	c, ok := Lookup("usa")
	require.True(t, ok)
	assert.Equal(t, "countries;United States", c.Facet())
}

func TestAll(t *testing.T) {
	all := All()
	require.Len(t, all, 249)
	for i := 1; i < len(all); i++ {
		assert.Less(t, normalize(all[i-1].Name), normalize(all[i].Name), "All not sorted at %d", i)
	}
	assert.Equal(t, "Afghanistan", all[0].Name)
	assert.Equal(t, "Åland Islands", all[1].Name, "diacritics should not push Åland after Zimbabwe")

	// The caller owns the copy.
	all[0].Name = "changed"
	assert.Equal(t, "Afghanistan", All()[0].Name)
}

// TestTable checks the data itself, independently of buildIndex.
func TestTable(t *testing.T) {
	require.Len(t, countries, 249)
	alpha2 := map[string]string{}
	alpha3 := map[string]string{}
	names := map[string]string{}
	for _, c := range countries {
		assert.Regexp(t, `^[A-Z]{2}$`, c.Alpha2, c.Name)
		assert.Regexp(t, `^[A-Z]{3}$`, c.Alpha3, c.Name)
		assert.Equal(t, strings.TrimSpace(c.Name), c.Name)
		assert.NotEmpty(t, c.Name)
		for m, k := range map[*map[string]string]string{&alpha2: c.Alpha2, &alpha3: c.Alpha3, &names: c.Name} {
			if prev, ok := (*m)[k]; ok {
				t.Errorf("%q used by both %s and %s", k, prev, c.Name)
			}
			(*m)[k] = c.Name
		}
		// Every entry is reachable by each of its own keys.
		for _, k := range []string{c.Alpha2, c.Alpha3, c.Name, strings.ToLower(c.Name)} {
			got, ok := Lookup(k)
			assert.True(t, ok && got == c, "Lookup(%q) = %+v, %v; want %+v", k, got, ok, c)
		}
		got, ok := ByAlpha2(c.Alpha2)
		assert.True(t, ok && got == c, "ByAlpha2(%q) = %+v", c.Alpha2, got)
	}
}

// TestAliases checks that every alias resolves to the country it is listed
// under, which also catches an alias that normalisation turns into another
// country's key.
func TestAliases(t *testing.T) {
	for code, list := range aliasTable() {
		for _, a := range list {
			c, ok := Lookup(a)
			assert.True(t, ok && c.Alpha2 == code, "Lookup(%q) = %+v, %v; want %s", a, c, ok, code)
		}
	}
}

func TestBuildIndex(t *testing.T) {
	_, err := buildIndex(countries, aliasTable())
	require.NoError(t, err)

	cs := []Country{
		{"Germany", "DE", "DEU"},
		{"France", "FR", "FRA"},
	}
	tests := []struct {
		name    string
		cs      []Country
		aliases map[string][]string
		wantErr string // substring; "" for success
	}{
		{"valid", cs, map[string][]string{"DE": {"Deutschland"}}, ""},
		{"repeat within one country", cs, map[string][]string{"DE": {"germany", "D.E."}}, ""},
		{"alias is another's name", cs, map[string][]string{"DE": {"France"}}, "names both"},
		{"alias equal after normalising", cs, map[string][]string{"DE": {"Gaul"}, "FR": {"GAUL."}}, "names both"},
		{"alias is another's alpha-3", cs, map[string][]string{"DE": {"fra"}}, "names both"},
		{"unknown code", cs, map[string][]string{"XX": {"Nowhere"}}, "unknown alpha-2"},
		{"empty alias", cs, map[string][]string{"DE": {" . "}}, "empty"},
		{"duplicate alpha-2", []Country{{"Germany", "DE", "DEU"}, {"Denmark", "DE", "DNK"}}, nil, "alpha-2 DE"},
		{"duplicate alpha-3", []Country{{"Germany", "DE", "DEU"}, {"Denmark", "DK", "DEU"}}, nil, "names both"},
		{"lower-case code", []Country{{"Germany", "de", "DEU"}}, nil, "malformed"},
		{"long alpha-3", []Country{{"Germany", "DE", "DEUT"}}, nil, "malformed"},
		{"no name", []Country{{"", "DE", "DEU"}}, nil, "malformed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ix, err := buildIndex(tt.cs, tt.aliases)
			if tt.wantErr == "" {
				require.NoError(t, err)
				assert.Len(t, ix.sorted, len(tt.cs))
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
			assert.Panics(t, func() { mustBuildIndex(tt.cs, tt.aliases) })
		})
	}
}

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"  Côte  d’Ivoire ":     "cote divoire",
		"U.S.A.":                "usa",
		"Guinea-Bissau":         "guinea bissau",
		"Trinidad & Tobago":     "trinidad and tobago",
		"St. Vincent":           "saint vincent",
		"The Gambia":            "gambia",
		"the":                   "the",
		"Korea, Republic of":    "korea republic of",
		"Cocos (Keeling) Isl.":  "cocos keeling isl",
		"Straße Øresund Łódź":   "strasse oresund lodz",
		"İSTANBUL":              "istanbul",
		"Curaçao":               "curacao",
		"São Tomé and Príncipe": "sao tome and principe",
	} {
		assert.Equal(t, want, normalize(in), "normalize(%q)", in)
	}
}

func BenchmarkLookup(b *testing.B) {
	inputs := []string{"US", "deu", "United Kingdom", "  Côte d'Ivoire ", "Atlantis"}
	for b.Loop() {
		for _, in := range inputs {
			Lookup(in)
		}
	}
}

func BenchmarkSuggest(b *testing.B) {
	for b.Loop() {
		Suggest("Untied States", 3)
	}
}
