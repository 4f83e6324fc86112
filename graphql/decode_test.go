package graphql_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/graphql"
	"github.com/companyintel/mcp-server/graphql/query"
)

// TestAnswerShapes holds the client's reading of answer bodies the embedded
// backend never sends on its own: the common answer (data, no errors) is
// decoded in one pass, every other shape by the careful path, and the
// border between the two must not change an outcome. Each body is served
// over real HTTP exactly as written.
func TestAnswerShapes(t *testing.T) {
	const page = `{"searchCompanies":{"items":[{"id":"c1","name":"Acme Robotics"}],"total":1,"appliedFilters":[]}}`
	for _, tc := range []struct {
		name   string
		status int
		body   string
		// kind is the error's; 0 means success with the page above.
		kind    graphql.Kind
		partial bool
	}{
		{name: "data", status: 200, body: `{"data":` + page + `}`},
		{name: "data and an empty errors list", status: 200, body: `{"data":` + page + `,"errors":[]}`},
		{name: "errors before data", status: 200, body: `{"errors":null,"data":` + page + `}`},
		{name: "data and errors", status: 200, body: `{"data":` + page + `,"errors":[{"message":"boom"}]}`, kind: graphql.KindGraphQL, partial: true},
		{name: "errors and a null root", status: 200, body: `{"data":{"searchCompanies":null},"errors":[{"message":"boom"}]}`, kind: graphql.KindGraphQL},
		{name: "no data, no errors", status: 200, body: `{}`, kind: graphql.KindMalformed},
		{name: "null data", status: 200, body: `{"data":null}`, kind: graphql.KindMalformed},
		{name: "data of the wrong shape", status: 200, body: `{"data":{"searchCompanies":{"total":"many"}}}`, kind: graphql.KindMalformed},
		{name: "not JSON", status: 200, body: `{"data":`, kind: graphql.KindMalformed},
		{name: "data with a 5xx", status: 502, body: `{"data":` + page + `}`, kind: graphql.KindHTTP},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(tc.status)
				w.Write([]byte(tc.body))
			}))
			defer srv.Close()
			c := graphql.NewClient(srv.URL, srv.Client(), 0)
			c.SetRetry(graphql.NoRetry)
			got, err := query.NewReader(c).SearchCompanies(context.Background(), str("robotics"), nil, query.Bounds{}, num(1), nil)
			if tc.kind == 0 {
				require.NoError(t, err)
				require.Len(t, got.Items, 1)
				assert.Equal(t, "Acme Robotics", got.Items[0].Name)
				assert.Equal(t, 1, got.Total)
				return
			}
			e := asError(t, err)
			assert.Equal(t, tc.kind, e.Kind)
			assert.Equal(t, tc.status, e.StatusCode)
			assert.Equal(t, tc.partial, e.PartialData)
		})
	}
}

// TestAnswersStayIntactWhenTheReadBufferIsReused reads answers into one
// pooled buffer after another: what an earlier call returned must not
// change when a later answer overwrites the buffer it was read from.
func TestAnswersStayIntactWhenTheReadBufferIsReused(t *testing.T) {
	pages := []string{
		`{"data":{"searchCompanies":{"items":[{"id":"c1","name":"First Company With A Long Name","categories":["Robotics"]}],"total":1}}}`,
		`{"data":{"searchCompanies":{"items":[{"id":"c2","name":"Zweite","categories":["AI"]}],"total":1}}}`,
	}
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if n%2 == 1 {
			w.(http.Flusher).Flush() // no Content-Length: the buffer is grown as it reads
		}
		w.Write([]byte(pages[n%2]))
		n++
	}))
	defer srv.Close()
	c := graphql.NewClient(srv.URL, srv.Client(), 0)
	first, err := query.NewReader(c).SearchCompanies(context.Background(), str("x"), nil, query.Bounds{}, num(1), nil)
	require.NoError(t, err)
	for range 5 {
		_, err := query.NewReader(c).SearchCompanies(context.Background(), str("x"), nil, query.Bounds{}, num(1), nil)
		require.NoError(t, err)
	}
	require.Len(t, first.Items, 1)
	assert.Equal(t, "c1", first.Items[0].Id)
	assert.Equal(t, "First Company With A Long Name", first.Items[0].Name)
	assert.Equal(t, []string{"Robotics"}, first.Items[0].Categories)
}
