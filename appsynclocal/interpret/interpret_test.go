package interpret_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/companyintel/mcp-server/appsynclocal/interpret"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		sentence   string
		filters    []string
		min, max   int
		from, to   int
		keywords   []string
		summaryHas string
	}{
		{sentence: "fintech startups in Germany", filters: []string{"countries;Germany", "categories;Fintech"}, max: 49,
			summaryHas: `Companies in Fintech, based in Germany, with at most 49 employees (from "startups").`},
		{sentence: "German and French payments companies with over 500 employees",
			filters: []string{"countries;Germany", "countries;France", "categories;Fintech"}, min: 501},
		{sentence: "AI companies in the US with fewer than 200 employees", filters: []string{"countries;United States", "categories;AI & Machine Learning"}, max: 199},
		{sentence: "can you help us find machine learning firms in the UK", filters: []string{"countries;United Kingdom", "categories;AI & Machine Learning"}},
		{sentence: "SaaS companies in Britain between 50 and 200 employees", filters: []string{"countries;United Kingdom", "categories;Software"}, min: 50, max: 200},
		{sentence: "mid-sized logistics firms in the USA", filters: []string{"countries;United States", "categories;Logistics"}, min: 50, max: 1000},
		{sentence: "large enterprise software vendors", filters: []string{"categories;Software"}, min: 1001},
		{sentence: "warehouse robots companies founded after 2015", filters: []string{"categories;Robotics"}, from: 2016, keywords: []string{"warehouse"}},
		{sentence: "e-commerce brands in India founded between 2010 and 2015 with 1,000+ employees",
			filters: []string{"countries;India", "categories;E-commerce"}, from: 2010, to: 2015, min: 1000, keywords: []string{"brands"}},
		{sentence: "companies building carbon capture in the U.S.", filters: []string{"countries;United States", "categories;Climate Tech"}, keywords: []string{"capture"}},
		{sentence: "mid-sized logistics companies in Germany building warehouse software", filters: []string{"countries;Germany", "categories;Logistics", "categories;Software"},
			min: 50, max: 1000, keywords: []string{"warehouse"}, summaryHas: `ranked by relevance to "warehouse".`},
		{sentence: "firms that make chips", filters: []string{}, keywords: []string{"chips"}},
		{sentence: "smart building sensors", filters: []string{}, keywords: []string{"smart", "building", "sensors"}},
		{sentence: "building automation companies", filters: []string{"categories;Robotics"}, keywords: []string{"building"}},
		{sentence: "construction companies building in Poland", keywords: []string{"construction", "building"}, filters: []string{"countries;Poland"}},
		{sentence: "fintech startups in Germany with fewer than 20 employees", filters: []string{"countries;Germany", "categories;Fintech"}, max: 19,
			summaryHas: `with at most 19 employees (from "fewer than 20 employees", which overrides the size word "startups")`},
		{sentence: "companies with 2k-5k staff in Japan", filters: []string{"countries;Japan"}, min: 2000, max: 5000},
		{sentence: "quantum widgets", filters: []string{}, keywords: []string{"quantum", "widgets"},
			summaryHas: `Companies matching all of "quantum widgets", ranked by relevance.`},
		{sentence: "show me companies", filters: []string{},
			summaryHas: "All companies: no country"},
	} {
		t.Run(tc.sentence, func(t *testing.T) {
			q := interpret.Parse(tc.sentence)
			assert.ElementsMatch(t, tc.filters, q.Filters())
			assert.Equal(t, tc.min, q.MinEmployees, "min")
			assert.Equal(t, tc.max, q.MaxEmployees, "max")
			assert.Equal(t, tc.from, q.FoundedFrom, "from")
			assert.Equal(t, tc.to, q.FoundedTo, "to")
			if tc.keywords != nil {
				assert.Equal(t, tc.keywords, q.Keywords)
			}
			if tc.summaryHas != "" {
				assert.Contains(t, q.Describe(), tc.summaryHas)
			}
		})
	}
}

func TestLowerCaseUsIsNotACountry(t *testing.T) {
	assert.Empty(t, interpret.Parse("tell us about robotics").Countries)
	assert.Equal(t, []string{"US"}, interpret.Parse("robotics in the US").Countries)
	assert.Equal(t, []string{"US"}, interpret.Parse("robotics in the us").Countries, "after \"the\" it is a place")
	assert.Empty(t, interpret.Parse("show us robotics").Countries)
	assert.Contains(t, interpret.Parse("robotics in the US or the Netherlands").Describe(), "based in the United States or the Netherlands")
}

// A city has no filter: it stays a keyword, and NotApplied and the summary
// say so, so the caller checks each company's city (issue 13).
func TestACityIsSaidToBeAKeywordNotAFilter(t *testing.T) {
	q := interpret.Parse("robotics companies in Berlin")
	assert.Equal(t, []string{"categories;Robotics"}, q.Filters())
	assert.Equal(t, []string{"berlin"}, q.Keywords, "still searched, as a keyword")
	assert.Equal(t, []string{`city "Berlin" (a keyword)`}, q.NotApplied)
	assert.Contains(t, q.Describe(), "Not applied: a city filter for Berlin")

	q = interpret.Parse("fintech in New York not in Germany")
	assert.Equal(t, []string{`city "New York" (a keyword)`}, q.NotApplied)
	assert.Equal(t, []string{"countries;Germany"}, q.ExcludeFilters())

	assert.Empty(t, interpret.Parse("robotics companies in Germany").NotApplied, "a country is a filter")
}

// Runs of capitalised words that are not all places or categories may name
// a company; the words opening a request are not part of the name.
func TestNameCandidates(t *testing.T) {
	for sentence, want := range map[string][]string{
		"Is Kavora Health a fintech company?":       {"Kavora Health"},
		"tell me about Hartley & Moss Logistics":    {"Hartley & Moss Logistics"},
		"Show me Summit Robotics GmbH in Germany":   {"Summit Robotics GmbH"},
		"fintech companies in New York and Germany": nil,
		"AI startups in the UK":                     nil,
	} {
		assert.Equal(t, want, interpret.NameCandidates(sentence), sentence)
	}
	assert.Equal(t, []string{"hartley", "moss", "logistics"}, interpret.NameTerms("Hartley and Moss Logistics Ltd."))
}
