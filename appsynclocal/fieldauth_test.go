package appsynclocal_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/appsynclocal"
)

func TestAPIKeyCannotReachUserFields(t *testing.T) {
	srv := start(t, appsynclocal.Config{})
	for field, query := range map[string]string{
		"listCollections":       `{ listCollections { total } }`,
		"getCollectionItems":    `{ getCollectionItems(collectionId: "c") { total } }`,
		"createCollection":      `mutation { createCollection(name: "x") { created } }`,
		"addToCollection":       `mutation { addToCollection(collectionId: "c", companyIds: ["cmp_000001"]) { added } }`,
		"removeFromCollection":  `mutation { removeFromCollection(collectionId: "c", companyIds: ["cmp_000001"]) { removed } }`,
		"requestEmailDiscovery": `mutation { requestEmailDiscovery(companyId: "cmp_000001") { id } }`,
	} {
		a := asKey(t, srv.URL(), query)
		assert.Equal(t, http.StatusOK, a.Status, field)
		require.Len(t, a.Errors, 1, field)
		e := a.Errors[0]
		assert.Equal(t, "Unauthorized", e.ErrorType, field)
		typ := "Query"
		if field == "createCollection" || field == "addToCollection" || field == "removeFromCollection" || field == "requestEmailDiscovery" {
			typ = "Mutation"
		}
		assert.Equal(t, "Not Authorized to access "+field+" on type "+typ, e.Message)
		assert.Equal(t, []any{field}, e.Path)
		assert.JSONEq(t, "null", string(a.Data), field)
	}
}

func TestAuthorizedFieldsResolveBesideUnauthorizedOnes(t *testing.T) {
	srv := start(t, appsynclocal.Config{})
	a := asKey(t, srv.URL(), `{ getCompany(id: "cmp_000001") { id } listCollections { total } }`)
	require.Len(t, a.Errors, 1)
	assert.Equal(t, []any{"listCollections"}, a.Errors[0].Path)
	// listCollections is non-null, so AppSync nulls the whole data.
	assert.JSONEq(t, "null", string(a.Data))

	a = asKey(t, srv.URL(), `{ getCompany(id: "cmp_000001") { id } }`)
	assert.Empty(t, a.Errors)
}

func TestUserIdentitiesReachEverything(t *testing.T) {
	srv := start(t, appsynclocal.Config{Authenticators: []appsynclocal.Authenticator{
		appsynclocal.StaticAuthenticator{},
		appsynclocal.StaticAuthenticator{Header: "x-iam-user", Method: appsynclocal.MethodIAM},
	}})
	for _, headers := range [][]string{{"x-test-user", "alice"}, {"x-iam-user", "arn:aws:iam::1:user/bob"}} {
		a := post(t, srv.URL(), `{ listCollections { total } searchCompanies(limit: 1) { total } }`, headers...)
		assert.Empty(t, a.Errors, headers)
	}
}

func TestUnknownAuthModeReachesNothing(t *testing.T) {
	srv := start(t, appsynclocal.Config{Authenticators: []appsynclocal.Authenticator{
		appsynclocal.StaticAuthenticator{Header: "x-lambda", Method: "lambda"},
	}})
	a := post(t, srv.URL(), `{ getCompany(id: "cmp_000001") { id } }`, "x-lambda", "fn")
	require.Len(t, a.Errors, 1)
	assert.Equal(t, "Not Authorized to access getCompany on type Query", a.Errors[0].Message)
}
