package ratelimit_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/ratelimit"
)

var knownTools = []string{
	"search_companies", "get_company", "get_companies_batch", "ai_search",
	"list_collections", "get_collection_items", "create_collection",
	"add_to_collection", "request_email_discovery",
}

// defaults are limits like the tools' own defaults (their Facts), which
// app merges the configured limits over.
func defaults() map[string]ratelimit.Limit {
	return map[string]ratelimit.Limit{
		"ai_search":                 {Count: 5, Period: time.Minute},
		"request_email_discovery":   {Count: 10, Period: time.Hour},
		"report_missing_capability": {Count: 20, Period: time.Hour},
	}
}

func TestParseSpecs(t *testing.T) {
	minute := func(n int) ratelimit.Limit { return ratelimit.Limit{Count: n, Period: time.Minute} }
	tests := []struct {
		name  string
		specs []string
		known []string
		want  map[string]ratelimit.Limit
	}{
		{"flags", []string{"ai_search=5/m", "search_companies=120/m"}, knownTools,
			map[string]ratelimit.Limit{"ai_search": minute(5), "search_companies": minute(120)}},
		{"comma list in one flag", []string{"ai_search=5/m, search_companies=120/m,"}, knownTools,
			map[string]ratelimit.Limit{"ai_search": minute(5), "search_companies": minute(120)}},
		{"off keeps a zero limit", []string{"ai_search=off"}, knownTools,
			map[string]ratelimit.Limit{"ai_search": {}}},
		{"spaces", []string{" ai_search = 10/h "}, knownTools,
			map[string]ratelimit.Limit{"ai_search": {Count: 10, Period: time.Hour}}},
		{"no known list accepts any tool", []string{"anything=2/s"}, nil,
			map[string]ratelimit.Limit{"anything": {Count: 2, Period: time.Second}}},
		{"none", nil, knownTools, map[string]ratelimit.Limit{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ratelimit.ParseSpecs(tt.specs, tt.known)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestParseSpecList(t *testing.T) {
	got, err := ratelimit.ParseSpecList("ai_search=5/m,search_companies=120/m", knownTools)
	require.NoError(t, err)
	assert.Equal(t, map[string]ratelimit.Limit{
		"ai_search":        {Count: 5, Period: time.Minute},
		"search_companies": {Count: 120, Period: time.Minute},
	}, got)

	got, err = ratelimit.ParseSpecList("", knownTools)
	require.NoError(t, err)
	assert.Empty(t, got)
}

func TestParseSpecsErrors(t *testing.T) {
	tests := []struct {
		name  string
		specs []string
		want  []string // substrings of the message
	}{
		{"unknown tool", []string{"ai_serch=5/m"},
			[]string{`unknown tool "ai_serch"`, `"ai_serch=5/m"`,
				"known tools: add_to_collection, ai_search, create_collection, get_collection_items, " +
					"get_companies_batch, get_company, list_collections, request_email_discovery, search_companies"}},
		{"bad limit", []string{"ai_search=5/x"},
			[]string{`invalid spec "ai_search=5/x"`, "period", "5/m, 10/h, 2/s or 100/1h"}},
		{"no equals", []string{"ai_search:5/m"},
			[]string{`invalid spec "ai_search:5/m"`, "TOOL=LIMIT"}},
		{"no tool", []string{"=5/m"}, []string{`invalid spec "=5/m"`, "TOOL=LIMIT"}},
		{"twice", []string{"ai_search=5/m", "ai_search=50/m"},
			[]string{`tool "ai_search" has more than one rate limit`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ratelimit.ParseSpecs(tt.specs, knownTools)
			require.Error(t, err)
			assert.Nil(t, got)
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}

func TestMerge(t *testing.T) {
	env, err := ratelimit.ParseSpecList("ai_search=10/m,search_companies=120/m", knownTools)
	require.NoError(t, err)
	flags, err := ratelimit.ParseSpecs([]string{"ai_search=3/m", "request_email_discovery=off"}, knownTools)
	require.NoError(t, err)
	base := defaults()

	got := ratelimit.Merge(base, env, flags)
	assert.Equal(t, map[string]ratelimit.Limit{
		"ai_search":                 {Count: 3, Period: time.Minute}, // flag beats environment
		"search_companies":          {Count: 120, Period: time.Minute},
		"request_email_discovery":   {},                             // switched off
		"report_missing_capability": {Count: 20, Period: time.Hour}, // the default kept
	}, got)
	assert.Equal(t, defaults(), base, "base is not changed")
	assert.NotNil(t, ratelimit.Merge(nil))

	l := ratelimit.New(got)
	assert.True(t, l.Limit("request_email_discovery").Unlimited())
	assert.Equal(t, "", l.Describe("request_email_discovery"))
}
