package main

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/graphql/query"
)

func TestSummarizeNearestRank(t *testing.T) {
	var d []time.Duration
	for i := 100; i >= 1; i-- { // unsorted on purpose
		d = append(d, time.Duration(i)*time.Millisecond)
	}
	s := summarize(d)
	assert.Equal(t, 100, s.N)
	assert.Equal(t, time.Millisecond, s.Min)
	assert.Equal(t, 50*time.Millisecond, s.P50)
	assert.Equal(t, 90*time.Millisecond, s.P90)
	assert.Equal(t, 99*time.Millisecond, s.P99)
	assert.Equal(t, 100*time.Millisecond, s.Max)
	assert.Equal(t, 50500*time.Microsecond, s.Mean)
	assert.Equal(t, 100*time.Millisecond, d[0], "the sample is not sorted in place")

	one := summarize([]time.Duration{7})
	assert.Equal(t, time.Duration(7), one.P50)
	assert.Equal(t, time.Duration(7), one.P99)
	assert.Equal(t, dist{}, summarize(nil))
	assert.Equal(t, int64(2), median([]int64{3, 1, 2}))
}

func TestInlineVariablesOnTheServersOperation(t *testing.T) {
	q, err := inlineVariables(query.SearchCompaniesDocument, searchVars)
	require.NoError(t, err)
	assert.NotContains(t, q, "$")
	assert.Contains(t, q, "query SearchCompanies {")
	assert.Contains(t, q, `searchCompanies(keyword: "software", filters: ["countries;United States"], excludeFilters: null, minEmployees: null, maxEmployees: null, foundedAfter: null, foundedBefore: null, sort: null, exactCount: null, limit: 20, nextToken: null)`)
	// The selection set and fragments are the server's, untouched.
	_, rest, _ := strings.Cut(query.SearchCompaniesDocument, "{")
	_, got, _ := strings.Cut(q, "{")
	assert.Equal(t, strings.Count(rest, "\n"), strings.Count(got, "\n"))
	assert.Contains(t, q, "fragment CompanySummary on Company {")

	_, err = inlineVariables(query.SearchCompaniesDocument, map[string]any{"keyword": "x"})
	assert.ErrorContains(t, err, "$filters")
}

func TestParseProc(t *testing.T) {
	// Field 2 may hold spaces and parentheses; utime=150, stime=50 ticks.
	stat := "4242 (mcp (server) x) S 1 4242 4242 0 -1 4194560 1234 0 0 0 150 50 0 0 20 0 9 0 1000 1000000 2000 18446744073709551615"
	cpu, err := parseStatCPU(stat)
	require.NoError(t, err)
	assert.Equal(t, 2*time.Second, cpu)

	m, err := parseStatusMemory("Name:\tmcp-server\nVmHWM:\t   30000 kB\nVmRSS:\t   20000 kB\nThreads:\t9\n")
	require.NoError(t, err)
	assert.Equal(t, memory{RSS: 20000 << 10, HWM: 30000 << 10}, m)
	_, err = parseStatusMemory("Name:\tx\n")
	assert.Error(t, err)
}

func TestFormatting(t *testing.T) {
	assert.Equal(t, "0.412 ms", ms(412*time.Microsecond))
	assert.Equal(t, "1.23 ms", ms(1234*time.Microsecond))
	assert.Equal(t, "12.3 ms", ms(12340*time.Microsecond))
	assert.Equal(t, "123 ms", ms(123400*time.Microsecond))
	assert.Equal(t, "10,000", thousands(10000))
	assert.Equal(t, "1,000,000", thousands(1000000))
	assert.Equal(t, "999", thousands(999))
}

// A missing peer is a clear error before anything is built or started, not
// a panic in the clean-up (newEnvironment once stopped a nil environment).
func TestNewEnvironmentWithoutThePeerSaysHowToInstallIt(t *testing.T) {
	cfg := config{peerDir: t.TempDir()} // no node_modules here
	env, err := newEnvironment(t.Context(), cfg, t.TempDir())
	require.Error(t, err)
	assert.Nil(t, env)
	assert.Contains(t, err.Error(), "npm ci --prefix "+cfg.peerDir)
}
