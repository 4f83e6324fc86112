package dataset_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/appsynclocal"
	"github.com/companyintel/mcp-server/appsynclocal/dataset"
)

// maxMaskedDuplicates is the share of descriptions that may read word for
// word like another company's once what differs by nature (the company's
// name, its city and country, its founding year and head count) is masked
// (issue 38).
const maxMaskedDuplicates = 0.10

var numberRE = regexp.MustCompile(`\d[\d,]*`)

// masked is a description with the company's name, place, years and
// numbers replaced by placeholders.
func masked(c dataset.Company) string {
	d := c.Description
	base := strings.TrimSpace(strings.TrimSuffix(c.Name, dataset.LegalSuffix(c.CountryCode)))
	d = strings.ReplaceAll(d, c.Name, "<name>")
	d = strings.ReplaceAll(d, base, "<name>")
	d = strings.ReplaceAll(d, c.City, "<city>")
	d = strings.ReplaceAll(d, c.Country().Name, "<country>")
	return numberRE.ReplaceAllString(d, "<n>")
}

// maskedDuplicateRate is the share of companies whose masked description is
// also another company's.
func maskedDuplicateRate(cs []dataset.Company) float64 {
	seen := map[string]int{}
	for _, c := range cs {
		seen[masked(c)]++
	}
	dup := 0
	for _, n := range seen {
		if n > 1 {
			dup += n
		}
	}
	return float64(dup) / float64(len(cs))
}

func TestDescriptionsAreRarelyAnotherCompanysOnceMasked(t *testing.T) {
	g, err := dataset.New(appsynclocal.DefaultSeed, appsynclocal.DefaultCompanies)
	require.NoError(t, err)
	cs := make([]dataset.Company, g.Len())
	for i := range cs {
		cs[i] = g.Company(i)
	}
	rate := maskedDuplicateRate(cs)
	t.Logf("masked-description duplicate rate over the %d companies: %.2f%%", len(cs), 100*rate)
	assert.LessOrEqual(t, rate, maxMaskedDuplicates)

	// The check catches a data set whose descriptions repeat.
	same := make([]dataset.Company, 10)
	for i := range same {
		same[i] = cs[0]
		same[i].Num = i
	}
	assert.Greater(t, maskedDuplicateRate(same), maxMaskedDuplicates)
}

// minHubShare is the least share of companies of an industry with hubs
// (finance, energy, software, pharma, freight, manufacturing, media) that
// are based in one of their country's hubs for it.
const minHubShare = 0.5

// hubShare is the share of companies with hubs in their country based in one.
func hubShare(cs []dataset.Company) float64 {
	with, in := 0, 0
	for _, c := range cs {
		if h := dataset.Hubs(dataset.Lines[c.Lines[0]], c.CountryCode); len(h) > 0 {
			with++
			if slices.Contains(h, c.City) {
				in++
			}
		}
	}
	return float64(in) / float64(max(with, 1))
}

func TestCitiesFollowIndustries(t *testing.T) {
	g, err := dataset.New(appsynclocal.DefaultSeed, appsynclocal.DefaultCompanies)
	require.NoError(t, err)
	cs := make([]dataset.Company, g.Len())
	for i := range cs {
		cs[i] = g.Company(i)
	}
	share := hubShare(cs)
	t.Logf("companies in their industry's hubs: %.1f%%", 100*share)
	assert.GreaterOrEqual(t, share, minHubShare)

	// The check catches cities drawn without regard to industry.
	for i := range cs {
		if h := dataset.Hubs(dataset.Lines[cs[i].Lines[0]], cs[i].CountryCode); len(h) > 0 {
			for _, city := range cs[i].Country().Cities {
				if !slices.Contains(h, city) {
					cs[i].City = city
					break
				}
			}
		}
	}
	assert.Less(t, hubShare(cs), minHubShare)
}
