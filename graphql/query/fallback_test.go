package query_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/graphql"
	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/graphql/query/v1backend"
)

// These tests run Reader through the real Client over HTTP, against a
// backend that refuses the extended documents as the original schema's
// AppSync (or graphql-js, or gqlgen) would.

// canned answers each request with the first body for its operation name in
// answers (status 200 unless given), and records the operations asked for.
type canned struct {
	mu  sync.Mutex
	ops []string
}

type answer struct {
	status int
	body   string
}

func (c *canned) start(t *testing.T, answers map[string]answer) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var req struct {
			OperationName string `json:"operationName"`
		}
		require.NoError(t, json.Unmarshal(b, &req))
		c.mu.Lock()
		c.ops = append(c.ops, req.OperationName)
		c.mu.Unlock()
		a, ok := answers[req.OperationName]
		if !ok {
			http.Error(w, "unexpected operation "+req.OperationName, http.StatusTeapot)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(max(a.status, http.StatusOK))
		io.WriteString(w, a.body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func (c *canned) sent() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.ops...)
}

func newReader(url string) query.Reader {
	c := graphql.NewClient(url, nil, 0)
	c.SetRetry(graphql.NoRetry)
	return query.NewReader(c)
}

const basePage = `{"data":{"searchCompanies":{"items":[],"nextToken":null,"total":7}}}`

// Each spelling of "this schema has no such field or argument" makes the
// Reader send the base operation, once, and only the base one afterwards.
func TestEachUnknownFieldOrArgumentSpellingFallsBackToTheBaseOperation(t *testing.T) {
	refusals := map[string]answer{
		"AppSync FieldUndefined": {body: `{"data":null,"errors":[{"path":null,"locations":[{"line":9,"column":5,"sourceName":null}],` +
			`"message":"Validation error of type FieldUndefined: Field 'totalIsLowerBound' in type 'CompanyConnection' is undefined @ 'searchCompanies/totalIsLowerBound'"}]}`},
		"AppSync UnknownArgument": {body: `{"data":null,"errors":[{"path":null,"locations":[{"line":2,"column":3,"sourceName":null}],` +
			`"message":"Validation error of type UnknownArgument: Unknown field argument minEmployees @ 'searchCompanies'"}]}`},
		"AppSync with status 400": {status: http.StatusBadRequest, body: `{"errors":[{"locations":[{"line":2,"column":3}],` +
			`"message":"Validation error of type UnknownArgument: Unknown field argument foundedAfter @ 'searchCompanies'"}]}`},
		"graphql-js unknown field": {body: `{"errors":[{"message":"Cannot query field \"totalIsLowerBound\" on type \"CompanyConnection\". Did you mean \"total\"?","locations":[{"line":9,"column":5}]}]}`},
		"gqlgen unknown argument": {status: http.StatusUnprocessableEntity, body: `{"errors":[{"message":"Unknown argument \"maxEmployees\" on field \"Query.searchCompanies\".",` +
			`"locations":[{"line":2,"column":3}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}],"data":null}`},
	}
	for name, refusal := range refusals {
		t.Run(name, func(t *testing.T) {
			var c canned
			r := newReader(c.start(t, map[string]answer{"SearchCompanies": refusal, "SearchCompaniesBase": {body: basePage}}))
			kw := "robotics"
			for range 2 {
				page, err := r.SearchCompanies(context.Background(), &kw, nil, query.Bounds{}, nil, nil)
				require.NoError(t, err)
				assert.Equal(t, 7, page.Total)
				assert.False(t, page.TotalIsLowerBound, "an old backend's total is as it gave it")
			}
			assert.Equal(t, []string{"SearchCompanies", "SearchCompaniesBase", "SearchCompaniesBase"}, c.sent(),
				"one try of the extended document, then only the base one")
		})
	}
}

// A validation error about an argument's value refuses the call, not the
// document: it is returned as it is, and the extended operation stays in use.
func TestArgumentValueRefusalDoesNotFallBack(t *testing.T) {
	refusals := map[string]string{
		"AppSync WrongType": `{"data":null,"errors":[{"path":null,"locations":[{"line":1,"column":1,"sourceName":null}],` +
			`"message":"Validation error of type WrongType: argument 'limit' with value 'StringValue{value='x'}' is not a valid 'Int' @ 'searchCompanies'"}]}`,
		"AppSync variable": `{"data":null,"errors":[{"path":null,"locations":[{"line":1,"column":1,"sourceName":null}],` +
			`"message":"Variable 'limit' has an invalid value: Expected type 'Int' but was 'String'."}]}`,
		"graphql-js variable": `{"errors":[{"message":"Variable \"$limit\" got invalid value \"x\"; Int cannot represent non-integer value: \"x\"","locations":[{"line":1,"column":60}]}]}`,
	}
	for name, body := range refusals {
		t.Run(name, func(t *testing.T) {
			var c canned
			r := newReader(c.start(t, map[string]answer{"SearchCompanies": {body: body}, "SearchCompaniesBase": {body: basePage}}))
			kw := "robotics"
			for range 2 {
				_, err := r.SearchCompanies(context.Background(), &kw, nil, query.Bounds{}, nil, nil)
				var ge *graphql.Error
				require.ErrorAs(t, err, &ge)
				assert.False(t, graphql.UnknownToSchema(err))
			}
			assert.Equal(t, []string{"SearchCompanies", "SearchCompanies"}, c.sent(), "the base operation is never sent")
		})
	}
}

// A search with bounds against the original schema is refused, never run
// without them; once the backend is known to lack them, the refusal costs no
// request at all.
func TestBoundsOnAnOriginalSchemaBackendAreRefusedNotDropped(t *testing.T) {
	var c canned
	target := c.start(t, map[string]answer{"SearchCompaniesBase": {body: basePage}})
	v1, err := v1backend.Start(target)
	require.NoError(t, err)
	t.Cleanup(v1.Close)
	r := newReader(v1.URL())
	knows := r.(interface{ SearchBoundsUnsupported() bool })
	assert.False(t, knows.SearchBoundsUnsupported(), "nothing is known before the first search")
	min := 50
	for range 2 {
		_, err := r.SearchCompanies(context.Background(), nil, nil, query.Bounds{MinEmployees: &min}, nil, nil)
		require.ErrorIs(t, err, query.ErrBoundsUnsupported)
	}
	assert.Equal(t, []string{"SearchCompanies"}, v1.Operations(), "one refused try, then nothing sent")
	assert.Empty(t, c.sent(), "nothing reached the data")
	assert.True(t, knows.SearchBoundsUnsupported())

	kw := "robotics"
	page, err := r.SearchCompanies(context.Background(), &kw, nil, query.Bounds{}, nil, nil)
	require.NoError(t, err)
	assert.Equal(t, 7, page.Total, "a search without bounds still works")
	assert.Equal(t, []string{"SearchCompanies", "SearchCompaniesBase"}, v1.Operations())
}

// Concurrent first calls against an original-schema backend all succeed,
// and the memory of the missing extension is shared: afterwards only the
// base operation is sent. (Run with -race, this also checks the memory is
// safe for concurrent use.)
func TestConcurrentCallsShareWhatTheBackendLacks(t *testing.T) {
	var c canned
	target := c.start(t, map[string]answer{"FilterVocabularyBase": {body: `{"data":{"filterVocabulary":{"countries":[{"value":"Germany","code":"DE","count":3}],"categories":[]}}}`}})
	v1, err := v1backend.Start(target)
	require.NoError(t, err)
	t.Cleanup(v1.Close)
	r := newReader(v1.URL())
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() {
			v, err := r.FilterVocabulary(context.Background())
			if err == nil && (len(v.Countries) != 1 || v.ReferenceDate != nil) {
				err = assert.AnError
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	before := v1.Count("FilterVocabulary")
	assert.GreaterOrEqual(t, before, 1)
	assert.Equal(t, 8, v1.Count("FilterVocabularyBase"), "every call got its answer from the base operation")
	_, err = r.FilterVocabulary(context.Background())
	require.NoError(t, err)
	assert.Equal(t, before, v1.Count("FilterVocabulary"), "no extended try after the backend refused it")
}

// An AI search against the original schema answers with the fields it has,
// and empty ones for the rest.
func TestAiSearchOnTheOriginalSchemaLeavesTheExtensionsEmpty(t *testing.T) {
	var c canned
	target := c.start(t, map[string]answer{"AiSearchBase": {body: `{"data":{"aiSearch":{"items":[],"interpretation":"software in Germany",` +
		`"appliedFilters":["countries;Germany"],"keywords":"software","minEmployees":50,"maxEmployees":null,"total":12}}}`}})
	v1, err := v1backend.Start(target)
	require.NoError(t, err)
	t.Cleanup(v1.Close)
	res, err := newReader(v1.URL()).AiSearch(context.Background(), "software companies in Germany", nil)
	require.NoError(t, err)
	assert.Equal(t, 12, res.Total)
	assert.Equal(t, 50, *res.MinEmployees)
	assert.False(t, res.TotalIsLowerBound)
	assert.Empty(t, res.NotApplied)
	assert.Nil(t, res.FoundedAfter)
	assert.Nil(t, res.FoundedBefore)
	assert.Equal(t, []string{"AiSearch", "AiSearchBase"}, v1.Operations())
}

// Whoever runs the server learns, once per operation, that the backend lacks
// the extensions and what is sent instead, in the backend's words.
func TestTheFallbackIsLoggedOncePerOperation(t *testing.T) {
	var c canned
	target := c.start(t, map[string]answer{"SearchCompaniesBase": {body: basePage},
		"FilterVocabularyBase": {body: `{"data":{"filterVocabulary":{"countries":[],"categories":[]}}}`}})
	v1, err := v1backend.Start(target)
	require.NoError(t, err)
	t.Cleanup(v1.Close)
	var logs strings.Builder
	client := graphql.NewClient(v1.URL(), nil, 0)
	r := query.NewReader(client, query.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	kw := "robotics"
	for range 3 {
		_, err := r.SearchCompanies(context.Background(), &kw, nil, query.Bounds{}, nil, nil)
		require.NoError(t, err)
	}
	_, err = r.FilterVocabulary(context.Background())
	require.NoError(t, err)

	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	require.Len(t, lines, 2, logs.String())
	assert.Contains(t, lines[0], "level=WARN")
	assert.Contains(t, lines[0], "operation=SearchCompanies fallback=SearchCompaniesBase")
	assert.Contains(t, lines[0], "Validation error of type UnknownArgument: Unknown field argument minEmployees")
	assert.Contains(t, lines[1], "operation=FilterVocabulary fallback=FilterVocabularyBase")
	assert.Contains(t, lines[1], "Field 'referenceDate' in type 'FilterVocabulary' is undefined")
}

// Exclusions, an order and an exact count against the original schema are
// left out of the search that is made, and the Reader then says the backend
// lacks them, for the tool to report each as not applied.
func TestRefinementsOnAnOriginalSchemaBackendAreLeftOutAndKnown(t *testing.T) {
	var c canned
	target := c.start(t, map[string]answer{"SearchCompaniesBase": {body: basePage}})
	v1, err := v1backend.Start(target)
	require.NoError(t, err)
	t.Cleanup(v1.Close)
	r := newReader(v1.URL())
	knows := r.(interface{ SearchBoundsUnsupported() bool })
	kw := "robotics"
	page, err := r.SearchCompanies(context.Background(), &kw, nil,
		query.Bounds{Exclude: []string{"countries;Germany"}, Sort: query.SortEmployeesDesc, ExactCount: true}, nil, nil)
	require.NoError(t, err)
	assert.Equal(t, 7, page.Total)
	assert.True(t, knows.SearchBoundsUnsupported(), "the caller can learn what was left out")
	assert.Equal(t, []string{"SearchCompanies", "SearchCompaniesBase"}, v1.Operations())
}
