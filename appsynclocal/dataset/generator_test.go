package dataset_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/appsynclocal/dataset"
)

func TestSameSeedSameCompanies(t *testing.T) {
	a, err := dataset.New(7, 2000)
	require.NoError(t, err)
	b, err := dataset.New(7, 2000)
	require.NoError(t, err)
	for i := 0; i < 2000; i++ {
		require.Equal(t, a.Company(i), b.Company(i), "company %d", i)
	}
}

func TestDifferentSeedDifferentCompanies(t *testing.T) {
	a, _ := dataset.New(1, 100)
	b, _ := dataset.New(2, 100)
	same := 0
	for i := 0; i < 100; i++ {
		if a.Company(i).Name == b.Company(i).Name {
			same++
		}
	}
	assert.Less(t, same, 10, "seeds 1 and 2 should give different names")
}

func TestCompanyDoesNotDependOnDataSetSize(t *testing.T) {
	small, _ := dataset.New(3, 1000)
	large, _ := dataset.New(3, 1_000_000)
	for _, i := range []int{0, 1, 500, 999} {
		assert.Equal(t, small.Company(i), large.Company(i))
	}
}

func TestCompaniesAreWellFormed(t *testing.T) {
	g, _ := dataset.New(1, 5000)
	domains := map[string]bool{}
	countries := map[string]int{}
	for i := 0; i < g.Len(); i++ {
		c := g.Company(i)
		require.True(t, strings.HasSuffix(c.Domain, ".example"), c.Domain)
		require.False(t, domains[c.Domain], "duplicate domain %s", c.Domain)
		domains[c.Domain] = true
		require.Equal(t, "https://www."+c.Domain, c.Website)
		require.GreaterOrEqual(t, c.Employees, 1)
		require.LessOrEqual(t, c.Employees, 100_000)
		require.GreaterOrEqual(t, c.Founded, 1950)
		require.LessOrEqual(t, c.Founded, 2025)
		require.NotEmpty(t, c.Categories)
		require.LessOrEqual(t, len(c.Categories), 3)
		require.Zero(t, c.UpdatedAt.Nanosecond()%1_000_000, "updatedAt has sub-millisecond precision")
		_, ok := dataset.CountryByCode(c.CountryCode)
		require.True(t, ok, c.CountryCode)
		countries[c.CountryCode]++
	}
	assert.Greater(t, countries["US"], countries["GB"], "the US should dominate")
	assert.Greater(t, countries["GB"], countries["EE"])
}

func TestIDsRoundTrip(t *testing.T) {
	g, _ := dataset.New(1, 20000)
	assert.Equal(t, "cmp_000123", g.ID(123))
	n, ok := g.Num("cmp_000123")
	assert.True(t, ok)
	assert.Equal(t, 123, n)
	for _, bad := range []string{"cmp_123", "cmp_020000", "cmp_+00012", "cmp_-00012", "xyz_000001", "", "cmp_0000001"} {
		_, ok := g.Num(bad)
		assert.False(t, ok, bad)
	}
	big, _ := dataset.New(1, 1_000_000)
	assert.Equal(t, "cmp_999999", big.ID(999_999))
	huge, _ := dataset.New(1, 2_000_000)
	assert.Equal(t, "cmp_1999999", huge.ID(1_999_999))
}

func TestContactsAreDeterministicAndUnderTheDomain(t *testing.T) {
	g, _ := dataset.New(1, 100)
	c := g.Company(5)
	a := g.Contacts(c, 42, []string{"CFO", "CTO"})
	assert.Equal(t, a, g.Contacts(c, 42, []string{"CFO", "CTO"}))
	require.Len(t, a, 2)
	assert.Equal(t, "CFO", a[0].Role)
	for _, x := range a {
		assert.True(t, strings.HasSuffix(x.Email, "@"+c.Domain))
		assert.GreaterOrEqual(t, x.Confidence, 0.6)
		assert.LessOrEqual(t, x.Confidence, 0.99)
	}
	d := g.Contacts(c, 43, nil)
	assert.GreaterOrEqual(t, len(d), 1)
	assert.LessOrEqual(t, len(d), 3)
}

// BenchmarkCompany measures generating one company, the cost a database
// build pays per row (20,000 for the demo, 1,000,000 for benchmarks).
func BenchmarkCompany(b *testing.B) {
	g, err := dataset.New(1, 1_000_000)
	require.NoError(b, err)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		_ = g.Company(i % g.Len())
	}
}
