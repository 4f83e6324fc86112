package appsynclocal_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/appsynclocal"
)

func TestOnlyPostIsServed(t *testing.T) {
	srv := start(t, appsynclocal.Config{})
	resp, err := http.Get(srv.URL())
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
	assert.Equal(t, "POST", resp.Header.Get("Allow"))

	resp, err = http.Post(strings.TrimSuffix(srv.URL(), "/graphql")+"/other", "application/json", strings.NewReader("{}"))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
}

func TestMissingOrWrongCredentialsGetAppSyncs401(t *testing.T) {
	srv := start(t, appsynclocal.Config{})
	const want = `{"errors":[{"errorType":"UnauthorizedException","message":"You are not authorized to make this call."}]}`
	for name, headers := range map[string][]string{
		"none":        nil,
		"wrong key":   {"x-api-key", "da2-wrong"},
		"empty user":  {"x-test-user", " "},
		"bearer only": {"Authorization", "Bearer nonsense"},
	} {
		a := post(t, srv.URL(), "{ getCompany(id: \"cmp_000001\") { name } }", headers...)
		assert.Equal(t, http.StatusUnauthorized, a.Status, name)
		assert.JSONEq(t, want, a.Raw, name)
		assert.Equal(t, "application/json; charset=UTF-8", a.Header.Get("Content-Type"), name)
		assert.Equal(t, "UnauthorizedException", a.Header.Get("x-amzn-ErrorType"), name)
	}
}

func TestAuthenticatorErrorBecomesThe401Message(t *testing.T) {
	srv := start(t, appsynclocal.Config{Authenticators: []appsynclocal.Authenticator{refuseAll{}}})
	a := post(t, srv.URL(), "{ filterVocabulary { countries { value } } }", "Authorization", "x")
	assert.Equal(t, http.StatusUnauthorized, a.Status)
	require.Len(t, a.Errors, 1)
	assert.Equal(t, "UnauthorizedException", a.Errors[0].ErrorType)
	assert.Equal(t, "Token has expired.", a.Errors[0].Message)
}

// refuseAll carries credentials on every request with an Authorization
// header and refuses them.
type refuseAll struct{}

func (refuseAll) Authenticate(r *http.Request, _ []byte) (appsynclocal.Identity, bool, error) {
	if r.Header.Get("Authorization") == "" {
		return appsynclocal.Identity{}, false, nil
	}
	return appsynclocal.Identity{}, true, errString("Token has expired.")
}

type errString string

func (e errString) Error() string { return string(e) }

func TestResolverErrorsHaveErrorTypeAtTheTopLevel(t *testing.T) {
	srv := start(t, appsynclocal.Config{})
	a := asKey(t, srv.URL(), "{ searchCompanies(limit: 101) { total } }")
	assert.Equal(t, http.StatusOK, a.Status)
	assert.JSONEq(t, "null", string(a.Data))
	require.Len(t, a.Errors, 1)
	e := a.Errors[0]
	assert.Equal(t, "BadRequestException", e.ErrorType)
	assert.Equal(t, "limit must be between 1 and 100, got 101", e.Message)
	assert.Equal(t, []any{"searchCompanies"}, e.Path)
	assert.NotEmpty(t, e.Locations)
	assert.Nil(t, e.Extensions, "errorType is not under extensions")
	assert.NotEmpty(t, a.Header.Get("x-amzn-RequestId"))
}

func TestEveryLimitIsEnforced(t *testing.T) {
	srv := start(t, appsynclocal.Config{})
	for query, want := range map[string]string{
		`{ searchCompanies(limit: 0) { total } }`:                                     "between 1 and 100",
		`{ aiSearch(query: "robots", limit: 51) { total } }`:                          "between 1 and 50",
		`{ listCollections(limit: 101) { total } }`:                                   "between 1 and 100",
		`{ getCollectionItems(collectionId: "x", limit: 0) { total } }`:               "between 1 and 100",
		`{ getCompanies(ids: [` + strings.Repeat(`"cmp_000001",`, 51) + `]) { id } }`: "at most 50",
		`{ searchCompanies(nextToken: "forged") { total } }`:                          "nextToken is invalid",
	} {
		a := asUser(t, srv.URL(), "alice", query)
		require.Len(t, a.Errors, 1, query)
		assert.Equal(t, "BadRequestException", a.Errors[0].ErrorType, query)
		assert.Contains(t, a.Errors[0].Message, want, query)
	}
}

func TestInvalidQueriesAre200WithNullDataAndNoErrorType(t *testing.T) {
	srv := start(t, appsynclocal.Config{})
	a := asKey(t, srv.URL(), "{ nope }")
	assert.Equal(t, http.StatusOK, a.Status, "AppSync answers validation errors with 200")
	require.Len(t, a.Errors, 1)
	assert.Empty(t, a.Errors[0].ErrorType, "AppSync's validation errors carry no errorType")
	assert.Contains(t, a.Errors[0].Message, `Cannot query field "nope"`)
	assert.NotEmpty(t, a.Errors[0].Locations)
	assert.JSONEq(t, "null", string(a.Data))
}

func TestMalformedBodiesAre400MalformedHttpRequest(t *testing.T) {
	srv := start(t, appsynclocal.Config{})
	for body, message := range map[string]string{
		"":            "Request body is empty.",
		"meow":        "Unable to parse GraphQL query.",
		"{}":          "Unable to parse GraphQL query.",
		"[]":          "Unable to parse GraphQL query.",
		`{"query":1}`: "Unable to parse GraphQL query.",
	} {
		req, _ := http.NewRequest(http.MethodPost, srv.URL(), strings.NewReader(body))
		req.Header.Set("x-api-key", testKey)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Equal(t, http.StatusBadRequest, resp.StatusCode, body)
		assert.Equal(t, "MalformedHttpRequestException", resp.Header.Get("x-amzn-ErrorType"), body)
		assert.JSONEq(t, `{"errors":[{"errorType":"MalformedHttpRequestException","message":"`+message+`"}]}`, string(raw), body)
	}
}

func TestDateTimesAreAppSyncShaped(t *testing.T) {
	srv := start(t, appsynclocal.Config{})
	a := asKey(t, srv.URL(), `{ getCompany(id: "cmp_000001") { updatedAt } }`)
	require.Empty(t, a.Errors)
	assert.Regexp(t, `^\{"getCompany":\{"updatedAt":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"\}\}$`, string(a.Data))
}

func TestIntrospectionIsAllowed(t *testing.T) {
	srv := start(t, appsynclocal.Config{})
	a := asKey(t, srv.URL(), `{ __schema { queryType { name } } }`)
	require.Empty(t, a.Errors)
	assert.JSONEq(t, `{"__schema":{"queryType":{"name":"Query"}}}`, string(a.Data))
}

func TestGeneratedAPIKeyIsAppSyncShaped(t *testing.T) {
	b, err := appsynclocal.New(appsynclocal.Config{DataDir: baseDir, Companies: testCompanies})
	require.NoError(t, err)
	defer b.Close()
	assert.Regexp(t, `^da2-[a-z2-7]{26}$`, b.APIKey())
	assert.NotEqual(t, b.APIKey(), appsynclocal.GenerateAPIKey())
}

func TestCloseTwiceIsSafe(t *testing.T) {
	srv, err := appsynclocal.Start(appsynclocal.Config{DataDir: t.TempDir(), Companies: 50, APIKey: testKey}, "127.0.0.1:0")
	require.NoError(t, err)
	require.NoError(t, srv.Close())
	require.NoError(t, srv.Close())
	require.NoError(t, srv.Backend().Close())
}

func TestOwnTempDirIsRemovedOnClose(t *testing.T) {
	b, err := appsynclocal.New(appsynclocal.Config{Companies: 50})
	require.NoError(t, err)
	require.NoError(t, b.Close())
}

func TestSearchTotalsSayWhenCountingStopped(t *testing.T) {
	srv := start(t, appsynclocal.Config{})
	for query, want := range map[string]string{
		`{ searchCompanies(keyword: "and") { total totalIsLowerBound } }`:                                      `{"searchCompanies":{"total":1000,"totalIsLowerBound":true}}`,
		`{ aiSearch(query: "companies with more than 1 employee") { total totalIsLowerBound } }`:               `{"aiSearch":{"total":1000,"totalIsLowerBound":true}}`,
		`{ searchCompanies(keyword: "robotics", filters: ["countries;France"]) { totalIsLowerBound } }`:        `{"searchCompanies":{"totalIsLowerBound":false}}`,
		`{ searchCompanies(filters: ["countries;United States", "countries;Germany"]) { totalIsLowerBound } }`: `{"searchCompanies":{"totalIsLowerBound":false}}`,
	} {
		a := asKey(t, srv.URL(), query)
		require.Empty(t, a.Errors, query)
		assert.JSONEq(t, want, string(a.Data), query)
	}
}
