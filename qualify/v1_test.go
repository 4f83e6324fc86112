package qualify

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/graphql/query/v1backend"
)

// The suite qualifies the server against an endpoint on the API's original
// schema too (the embedded backend behind v1backend, which refuses every
// document that does not fit that schema): the server and the suite's own
// direct requests both do without the optional extensions. Each of
// search_companies' extended arguments is then a case that passes: sort,
// exclusions and count_only reported in not_applied (never refused or
// dropped unsaid) with the answer the original search gives, several
// countries, fields and export answered as on the extended backend.
func TestQualifiesAgainstTheOriginalSchema(t *testing.T) {
	b, err := startBackend(Options{Companies: 2000, DataDir: t.TempDir()})
	require.NoError(t, err)
	defer b.Close()
	v1, err := v1backend.Start(b.url)
	require.NoError(t, err)
	defer v1.Close()
	var out strings.Builder
	r, err := Run(context.Background(), Options{Endpoint: v1.URL(), Getenv: b.getenv(nil), Repeat: 1, Out: &out, Commit: "test"})
	require.NoError(t, err)
	assert.True(t, r.OK(), "not qualified:\n%s", out.String())
	assert.Empty(t, r.Uncovered)
	assert.Equal(t, 1, v1.Count("AiSearch"), "the server tried the extended AI search once: %v", v1.Operations())
	assert.Equal(t, 2, v1.Count("SearchCompanies"), "each server (read-only, writes on) tried the extended search once: %v", v1.Operations())
	assertEverySearchArgumentQualified(t, r)
}
