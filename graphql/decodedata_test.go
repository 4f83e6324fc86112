package graphql

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
)

// decodeTarget has the kinds of fields genqlient generates: strings,
// optional numbers, lists, nested objects and pointers to them.
type decodeTarget struct {
	Page struct {
		Items []struct {
			ID         string   `json:"id"`
			Name       string   `json:"name"`
			Employees  *int     `json:"employeeCount"`
			Categories []string `json:"categories"`
			Parent     *struct {
				ID string `json:"id"`
			} `json:"parent"`
		} `json:"items"`
		Total     int     `json:"total"`
		NextToken *string `json:"nextToken"`
	} `json:"page"`
}

// reference is what the careful path would make of raw: the envelope and
// then the data, each with encoding/json. ok is false when it would not
// take the answer as data without errors.
func reference(raw []byte) (decodeTarget, bool) {
	var env struct {
		Data   json.RawMessage `json:"data"`
		Errors []GraphQLError  `json:"errors"`
	}
	var got decodeTarget
	if json.Unmarshal(raw, &env) != nil || len(env.Errors) > 0 || len(env.Data) == 0 || string(env.Data) == "null" {
		return got, false
	}
	if json.Unmarshal(env.Data, &got) != nil {
		return got, false
	}
	return got, !reflect.ValueOf(got).IsZero()
}

// decodeSeeds are answers at the edges of JSON where two decoders could
// disagree.
var decodeSeeds = []string{
	`{"data":{"page":{"items":[{"id":"c1","name":"Acme","employeeCount":5,"categories":["AI","R&D"]}],"total":1,"nextToken":"t"}}}`,
	`{"data":{"page":{"items":[{"id":"c\u00e9\ud83d\ude00","name":"\u003cb\u003e \"q\" \\ \/ \b\f\n\r\t"}],"total":1}}}`,
	"{\"data\":{\"page\":{\"items\":[{\"id\":\"\xff\xfe invalid utf-8\",\"name\":\"\\ud800 lone\"}],\"total\":1}}}",
	`{"data":{"page":{"items":[{"ID":"upper","NAME":"case"}],"TOTAL":2}}}`,
	`{"data":{"page":{"items":[{"id":"a","id":"b"}],"total":1,"total":3}}}`,
	`{"data":{"page":{"items":[{"id":"x","unknown":{"deep":[1,2,{"a":null}]}}],"total":1}}}`,
	`{"data":{"page":{"items":[{"id":"x","employeeCount":1.5}],"total":1}}}`,
	`{"data":{"page":{"items":[{"id":"x","employeeCount":1e2}],"total":1}}}`,
	`{"data":{"page":{"items":[],"total":99999999999999999999}}}`,
	`{"data":{"page":{"items":[{"id":null,"name":"n","employeeCount":null,"categories":null,"parent":null}],"total":1}}}`,
	`{"data":{"page":{"items":[{"id":"x","parent":{"id":"p"}}],"total":-1,"nextToken":null}}}`,
	`{"data":{"page":{"items":[{"id":"x","categories":"not a list"}],"total":1}}}`,
	`{"data":{"page":{"items":[{"id":"x"}],"total":"1"}}}`,
	`{"data":{"page":null}}`,
	`{"data":{}}`,
	`{"data":null,"errors":[{"message":"boom"}]}`,
	`{"errors":[],"data":{"page":{"items":[{"id":"x"}],"total":1}}}`,
	`{"data":{"page":{"items":[{"id":"x"}],"total":1}},"errors":[{"message":"partial"}]}`,
	`{"data":{"page":{"items":[{"id":"x"}],"total":1}}} trailing`,
	`{"data":{"page":{"items":[{"id":"x"}],"total":1}}`,
	` {"data" : { "page" : { "items" : [ { "id" : "x" } ] , "total" : 1 } } } `,
	`[]`,
	`{"data":{"page":{"items":[{"id":"x\u0000y"}],"total":1}}}`,
}

// TestDecodeDataAgreesWithEncodingJSON holds the fast decoder to
// encoding/json: whenever decodeData takes an answer, it decoded exactly
// what encoding/json would have; otherwise the careful path (encoding/json)
// decides.
func TestDecodeDataAgreesWithEncodingJSON(t *testing.T) {
	for _, raw := range decodeSeeds {
		checkDecodeData(t, []byte(raw))
	}
}

func FuzzDecodeDataAgreesWithEncodingJSON(f *testing.F) {
	for _, raw := range decodeSeeds {
		f.Add([]byte(raw))
	}
	f.Fuzz(checkDecodeData)
}

func checkDecodeData(t *testing.T, raw []byte) {
	want, wantOK := reference(raw)
	var got decodeTarget
	ok := decodeData(raw, &got)
	if ok {
		assert.True(t, wantOK, "decodeData took an answer encoding/json refuses: %q", raw)
		assert.Equal(t, want, got, "%q", raw)
	}
}
