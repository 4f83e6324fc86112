package v1backend

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2"
)

// The copy of AppSync's declarations is the one the server is built with.
func TestAppSyncDeclarationsMatchTheServers(t *testing.T) {
	want, err := os.ReadFile("../../appsync.graphql")
	require.NoError(t, err)
	assert.Equal(t, string(want), appsyncDecls)
}

// The original schema refuses the extensions, in AppSync's words, and
// accepts the original operations.
func TestTheOriginalSchemaRefusesTheExtensionsInAppSyncsWords(t *testing.T) {
	sch, err := schema()
	require.NoError(t, err)
	_, errs := gqlparser.LoadQueryWithRules(sch, `query Q { searchCompanies(keyword: "x", minEmployees: 5) { total totalIsLowerBound } }`, nil)
	var msgs []string
	for _, e := range errs {
		msgs = append(msgs, AppSyncMessage(e))
	}
	assert.Contains(t, msgs, "Validation error of type UnknownArgument: Unknown field argument minEmployees @ 'searchCompanies'")
	assert.Contains(t, msgs, "Validation error of type FieldUndefined: Field 'totalIsLowerBound' in type 'CompanyConnection' is undefined @ 'totalIsLowerBound'")

	_, errs = gqlparser.LoadQueryWithRules(sch, `query Q { searchCompanies(keyword: "x") { total } filterVocabulary { categories { value } } }`, nil)
	assert.Empty(t, errs)
	assert.False(t, strings.Contains(SchemaV1, "totalIsLowerBound"))
}
