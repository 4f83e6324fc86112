package graphql

import (
	"encoding/json"
	"testing"

	"github.com/Khan/genqlient/graphql"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// getCompanyDocument stands for a generated document: a query with its
// fragments, tabs and newlines, about the size of the real GetCompany (which
// this package cannot import: graphql/query imports it).
const getCompanyDocument = "\nquery GetCompany ($id: ID!) {\n\tgetCompany(id: $id) {\n\t\t... Company\n\t}\n}\n" +
	"fragment Company on Company {\n\tid\n\tname\n\tdomain\n\twebsite\n\tdescription\n\tcountry\n\tcountryCode\n\tcity\n" +
	"\tcategories\n\temployeeCount\n\tfoundedYear\n\tupdatedAt\n\tcontacts {\n\t\t... Contact\n\t}\n}\n" +
	"fragment Contact on Contact {\n\temail\n\trole\n\tconfidence\n\tdiscoveredAt\n}\n"

func TestRequestBodyIsWhatEncodingJSONWrites(t *testing.T) {
	type vars struct {
		ID     string   `json:"id"`
		Filter *string  `json:"filter"`
		Tags   []string `json:"tags,omitempty"`
	}
	var nilVars *vars
	for _, req := range []*graphql.Request{
		{Query: getCompanyDocument, OpName: "GetCompany", Variables: &vars{ID: "cmp_000001"}},
		{Query: getCompanyDocument, OpName: "GetCompany", Variables: &vars{ID: "R&D <x> \"q\" \u2028 ü", Tags: []string{"a"}}},
		{Query: "query Ping { __typename }", OpName: "Ping"},
		{Query: getCompanyDocument, OpName: "AnotherName"}, // the same document under another name
		{Query: "query Odd { f(s: \"<&>\\n\") }\t\u00e9", OpName: "Odd <&>", Variables: nilVars},
		{Query: "", OpName: ""},
	} {
		want, err := json.Marshal(req)
		require.NoError(t, err)
		for range 2 { // the second time from the cache
			got, err := requestBody(req)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got))
		}
	}
}

func BenchmarkRequestBody(b *testing.B) {
	req := &graphql.Request{Query: getCompanyDocument, OpName: "GetCompany", Variables: &struct {
		ID string `json:"id"`
	}{"cmp_000001"}}
	b.Run("encoding/json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = json.Marshal(req)
		}
	})
	b.Run("requestBody", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = requestBody(req)
		}
	})
}
