package interpret_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/companyintel/mcp-server/appsynclocal/interpret"
)

// reading is what a sentence must be read as. Nil slices are checked as
// empty: a filter, keyword or not-applied entry nobody expected fails.
type reading struct {
	filters    []string
	excluded   []string // ExcludeFilters
	keywords   []string
	notApplied []string
	overridden []string
	min, max   int
	from, to   int
	says       []string // the interpretation sentence contains each
}

func checkReadings(t *testing.T, table map[string]reading) {
	t.Helper()
	for sentence, want := range table {
		t.Run(sentence, func(t *testing.T) {
			q := interpret.Parse(sentence)
			assert.ElementsMatch(t, want.filters, q.Filters(), "filters")
			assert.ElementsMatch(t, want.excluded, q.ExcludeFilters(), "excluded")
			assert.ElementsMatch(t, want.keywords, q.Keywords, "keywords")
			assert.ElementsMatch(t, want.notApplied, q.NotApplied, "not applied")
			assert.ElementsMatch(t, want.overridden, q.Overridden, "overridden")
			assert.Equal(t, [2]int{want.min, want.max}, [2]int{q.MinEmployees, q.MaxEmployees}, "employees")
			assert.Equal(t, [2]int{want.from, want.to}, [2]int{q.FoundedFrom, q.FoundedTo}, "founded")
			said := q.Describe()
			for _, s := range want.says {
				assert.Contains(t, said, s)
			}
			assertSound(t, q)
		})
	}
}

// assertSound checks what holds for every reading: no empty range reaches
// the search, and nothing excluded is also applied.
func assertSound(t *testing.T, q interpret.Query) {
	t.Helper()
	assert.False(t, q.MinEmployees > 0 && q.MaxEmployees > 0 && q.MinEmployees > q.MaxEmployees,
		"employees %d > %d", q.MinEmployees, q.MaxEmployees)
	assert.False(t, q.FoundedFrom > 0 && q.FoundedTo > 0 && q.FoundedFrom > q.FoundedTo,
		"founded %d > %d", q.FoundedFrom, q.FoundedTo)
	for _, f := range q.Filters() {
		assert.NotContains(t, q.NotApplied, "not "+f, "%s is both applied and excluded", f)
		assert.NotContains(t, q.ExcludeFilters(), f, "%s is both applied and excluded", f)
	}
	for _, k := range q.Keywords {
		assert.NotContains(t, []string{"not", "no", "non", "outside", "except", "excluding", "exclude", "other", "than",
			"without", "neither", "nor", "apart", "rather"}, k, "a negating word became a keyword")
	}
}

const notApplied = "Not applied: excluding "

// Issue 38: a negated country, region or category is an exclusion, never a
// filter for it and never merely a note.
func TestNegatedCountriesAreExcluded(t *testing.T) {
	de, fr := []string{"countries;Germany"}, []string{"countries;Germany", "countries;France"}
	checkReadings(t, map[string]reading{
		"fintech companies not in Germany": {filters: []string{"categories;Fintech"}, excluded: de,
			says: []string{"Companies in Fintech, not based in Germany."}},
		"Not in Germany: fintech companies":       {filters: []string{"categories;Fintech"}, excluded: de},
		"companies outside the UK doing payments": {filters: []string{"categories;Fintech"}, excluded: []string{"countries;United Kingdom"}},
		"excluding France, software firms with over 100 employees": {filters: []string{"categories;Software"}, min: 101,
			excluded: []string{"countries;France"}},
		"software firms except those in India":           {filters: []string{"categories;Software"}, excluded: []string{"countries;India"}},
		"non-US robotics companies":                      {filters: []string{"categories;Robotics"}, excluded: []string{"countries;United States"}},
		"robotics companies other than Japanese ones":    {filters: []string{"categories;Robotics"}, excluded: []string{"countries;Japan"}},
		"AI startups, but not American":                  {filters: []string{"categories;AI & Machine Learning"}, max: 49, excluded: []string{"countries;United States"}},
		"Companies that aren't in Canada":                {excluded: []string{"countries;Canada"}},
		"neither German nor French biotech":              {filters: []string{"categories;Biotech"}, excluded: fr},
		"logistics companies in DACH apart from Germany": {filters: []string{"categories;Logistics", "countries;Austria", "countries;Switzerland"}, excluded: de},
		// In Spain is not in Germany or France: nothing more to exclude.
		"payments companies not in Germany or France but in Spain": {filters: []string{"categories;Fintech", "countries;Spain"}},
		"edtech in Germany excluding Berlin": {filters: []string{"categories;Education", "countries;Germany"},
			notApplied: []string{`not "berlin"`}, says: []string{notApplied + `"berlin" — no filter expresses that exclusion`}},
		"robotics firms not in Germany or the Nordics": {filters: []string{"categories;Robotics"},
			excluded: []string{"countries;Germany", "countries;Sweden", "countries;Denmark", "countries;Norway", "countries;Finland"}},
	})
}

func TestNegatedCategoriesAndSizesAreExcluded(t *testing.T) {
	checkReadings(t, map[string]reading{
		"companies in Germany that don't do fintech": {filters: []string{"countries;Germany"}, excluded: []string{"categories;Fintech"},
			says: []string{"Companies based in Germany, not in Fintech."}},
		"non-fintech startups in the UK": {filters: []string{"countries;United Kingdom"}, max: 49, excluded: []string{"categories;Fintech"}},
		// "software … excluding cybersecurity": a company in both is left out.
		"software companies excluding cybersecurity":         {filters: []string{"categories;Software"}, excluded: []string{"categories;Cybersecurity"}},
		"US companies in any industry other than healthcare": {filters: []string{"countries;United States"}, keywords: []string{"industry"}, excluded: []string{"categories;Healthcare"}},
		// A band open at one end has a complement that is one range.
		"German fintech companies that are not startups":        {filters: []string{"countries;Germany", "categories;Fintech"}, min: 50},
		"excluding companies with over 500 employees in the UK": {filters: []string{"countries;United Kingdom"}, max: 500},
		"UK logistics, not large enterprises":                   {filters: []string{"countries;United Kingdom", "categories;Logistics"}, max: 1000},
		// A band with two ends is not: it stays not applied.
		"fintech companies that are not mid-sized":                 {filters: []string{"categories;Fintech"}, notApplied: []string{`not employees 50-1000 ("mid-sized")`}},
		"companies outside the US with more than 10,000 employees": {min: 10_001, excluded: []string{"countries;United States"}},
		"companies outside the us with more than 10,000 employees": {min: 10_001, excluded: []string{"countries;United States"}},
		"not over 500 employees in Germany":                        {filters: []string{"countries;Germany"}, max: 500},
		"fintech with not more than 50 staff":                      {filters: []string{"categories;Fintech"}, max: 50},
		"fintech companies not doing crypto": {filters: []string{"categories;Fintech"},
			notApplied: []string{`not "crypto"`}, says: []string{notApplied + `"crypto"`}},
		"robotics firms not founded before 2000": {filters: []string{"categories;Robotics"},
			notApplied: []string{`not "founded before 2000"`}},
	})
}

func TestExplicitNumbersOverrideSizeWords(t *testing.T) {
	const overrides = `which overrides the size word "startups"`
	checkReadings(t, map[string]reading{
		"fintech startups in Germany with 50 to 200 employees": {filters: []string{"countries;Germany", "categories;Fintech"},
			min: 50, max: 200, overridden: []string{"startups"}, says: []string{"with 50 to 200 employees", overrides}},
		"with 20-200 employees, fintech startups in Germany": {filters: []string{"countries;Germany", "categories;Fintech"},
			min: 20, max: 200, overridden: []string{"startups"}, says: []string{overrides}},
		"startups with between 100 and 500 staff": {min: 100, max: 500, overridden: []string{"startups"}, says: []string{overrides}},
		"large companies with fewer than 100 employees": {max: 99, overridden: []string{"large"},
			says: []string{`which overrides the size word "large"`}},
		"big logistics firms with 10 to 50 people":         {filters: []string{"categories;Logistics"}, min: 10, max: 50, overridden: []string{"big"}},
		"mid-sized companies under 20 employees in France": {filters: []string{"countries;France"}, max: 19, overridden: []string{"mid-sized"}},
		"200+ employees small AI firms":                    {filters: []string{"categories;AI & Machine Learning"}, min: 200, overridden: []string{"small"}},
		"startups over 100 employees and under 300 employees": {min: 101, max: 299, overridden: []string{"startups"},
			says: []string{`which override the size word "startups"`}},
	})
}

func TestConflictingConstraintsAreReportedNotCombined(t *testing.T) {
	checkReadings(t, map[string]reading{
		"companies with over 500 employees and fewer than 100 employees": {
			notApplied: []string{`conflict: "over 500 employees" and "fewer than 100 employees"`},
			says:       []string{`Not applied: "over 500 employees" and "fewer than 100 employees" conflict, so no head-count bound was set.`}},
		"tiny multinationals in Japan": {filters: []string{"countries;Japan"},
			notApplied: []string{`conflict: "tiny" and "multinationals"`}},
		"fewer than 10 staff startups with at least 1,000 employees": {overridden: []string{"startups"},
			notApplied: []string{`conflict: "fewer than 10 staff" and "at least 1,000 employees"`}},
		"biotech founded after 2020 and founded before 2010": {filters: []string{"categories;Biotech"},
			notApplied: []string{`conflict: "founded after 2020" and "founded before 2010"`},
			says:       []string{"so no founding-year bound was set"}},
		// One phrase given backwards is a range, not a conflict.
		"between 500 and 50 employees":  {min: 50, max: 500},
		"founded between 2015 and 2010": {from: 2010, to: 2015},
		// Bounds that agree narrow each other.
		"large enterprises over 5,000 employees":     {min: 5001, overridden: []string{"large", "enterprises"}},
		"founded after 2010 and founded before 2020": {from: 2011, to: 2019},
	})
}

// TestEveryReadingIsSound runs the invariants over more phrasings, including
// ones whose exact reading is left open.
func TestEveryReadingIsSound(t *testing.T) {
	for _, s := range []string{
		"not not in Germany", "except except", "non-", "other than", "outside", "no startups no",
		"between 5 and 2 staff with over 10 staff", "under 1 employee", "over 99999999999999 employees under 5 employees",
		"startups that are not small", "not startups but large", "founded in 2010 founded in 2012",
		strings.Repeat("not in Germany ", 50),
	} {
		q := interpret.Parse(s)
		assertSound(t, q)
		assert.False(t, slices.Contains(q.Countries, "DE") && slices.Contains(q.NotApplied, "not countries;Germany"), s)
	}
}
