package app

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/graphql"
	"github.com/companyintel/mcp-server/graphql/mutation"
	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/internal/untrusted"
	"github.com/companyintel/mcp-server/ratelimit"
	"github.com/companyintel/mcp-server/tools"
)

// appsyncAnswer is one answer an AppSync backend may give, in the shapes
// AppSync documents (errorType, message, path, locations, data and errorInfo
// at the top level of each error), spelled as different resolvers spell it.
type appsyncAnswer struct {
	name   string
	status int
	header string // x-amzn-ErrorType, when set
	body   string
}

// fieldError is getCompany failing with errorType t and message msg, as
// AppSync answers a resolver's $util.error: 200, the field null, the error
// with path, locations, data and errorInfo.
func fieldError(t, msg string) appsyncAnswer {
	typ := "null"
	if t != "" {
		typ = fmt.Sprintf("%q", t)
	}
	return appsyncAnswer{name: t, status: 200, body: fmt.Sprintf(`{"data":{"getCompany":null},"errors":[{"path":["getCompany"],"data":null,"errorType":%s,"errorInfo":null,"locations":[{"line":2,"column":3,"sourceName":null}],"message":%q}]}`, typ, msg)}
}

// serveAnswer starts a backend that gives a the same answer to every request.
func serveAnswer(t *testing.T, a appsyncAnswer) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if a.header != "" {
			w.Header().Set("x-amzn-ErrorType", a.header)
		}
		w.WriteHeader(a.status)
		fmt.Fprint(w, a.body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// callAgainst makes one get_company call through a server wired to url with
// the given operator mappings, and returns structuredContent.error.
func callAgainst(t *testing.T, url string, classes tools.ErrorClasses) map[string]any {
	t.Helper()
	client := instantRetries(graphql.NewClient(url, nil, 0))
	s, _ := NewMCPServer(Parts{
		Reader:  query.NewReader(client),
		Writer:  mutation.NewWriter(client),
		Limiter: ratelimit.New(nil),
		Runtime: tools.Runtime{Logger: slog.New(slog.DiscardHandler), ErrorClasses: classes},
		Version: "test",
	})
	msg := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":` + modernMeta + `,"name":"get_company","arguments":{"id":"cmp_000001"}}}`
	resp := s.HandleMessage(tools.WithCaller(context.Background(), tools.Caller{ID: "it", AuthMethod: "oidc"}), json.RawMessage(msg))
	b, err := json.Marshal(resp)
	require.NoError(t, err)
	var out struct {
		Result struct {
			IsError bool           `json:"isError"`
			Meta    map[string]any `json:"_meta"`
		} `json:"result"`
	}
	require.NoError(t, json.Unmarshal(b, &out), "%s", b)
	require.True(t, out.Result.IsError, "%s", b)
	return obj(out.Result.Meta[tools.ErrorMetaKey])
}

// TestSameCallSameClassAcrossSpellings serves the same refusal spelled as
// AppSync, Amplify's simulator, Lambda resolvers and $util.error each spell
// it, and checks that get_company reports one class for each family, with the
// backend's own words kept.
func TestSameCallSameClassAcrossSpellings(t *testing.T) {
	families := []struct {
		class     string
		retryable bool
		answers   []appsyncAnswer
	}{
		{"unauthorized", false, []appsyncAnswer{
			{name: "AppSync 401", status: 401, header: "UnauthorizedException", body: `{"errors":[{"errorType":"UnauthorizedException","message":"You are not authorized to make this call."}]}`},
			{name: "401 without errorType", status: 401, body: `{"errors":[{"message":"You are not authorized to make this call."}]}`},
			fieldError("Unauthorized", "Not Authorized to access getCompany on type Query"),
			fieldError("UnauthorizedException", "Not Authorized to access getCompany on type Query"),
			fieldError("AccessDenied", "caller may not read companies"),
			fieldError("AccessDeniedException", "caller may not read companies"),
			fieldError("UNAUTHORIZED", "caller may not read companies"),
		}},
		{"not_found", false, []appsyncAnswer{
			fieldError("NotFound", "company cmp_000001 does not exist"),
			fieldError("NotFoundException", "company cmp_000001 does not exist"),
			fieldError("ResourceNotFoundException", "company cmp_000001 does not exist"),
			fieldError("DataNotFound", "No data returned from the resolver"),
			fieldError("404", "company cmp_000001 does not exist"),
		}},
		{"invalid_arguments", false, []appsyncAnswer{
			fieldError("BadRequest", "id is malformed"),
			fieldError("BadRequestException", "id is malformed"),
			fieldError("ValidationError", "id is malformed"),
			fieldError("ValidationException", "id is malformed"),
			fieldError("InvalidInput", "id is malformed"),
			fieldError("400", "id is malformed"),
			{name: "variable refused, no errorType", status: 200, body: `{"data":null,"errors":[{"path":null,"locations":[{"line":1,"column":17,"sourceName":null}],"message":"Variable 'id' has an invalid value: id is malformed"}]}`},
		}},
		{"rate_limited", true, []appsyncAnswer{
			fieldError("Throttling", "Rate exceeded"),
			fieldError("ThrottlingException", "Rate exceeded"),
			fieldError("LimitExceeded", "Rate exceeded"),
			fieldError("LimitExceededError", "Rate exceeded"),
			fieldError("TooManyRequestsException", "Rate exceeded"),
			{name: "429 with a non-GraphQL body", status: 429, body: `Rate exceeded`},
		}},
		{"backend_error", false, []appsyncAnswer{
			// The AppSync developer guide's MappingTemplate example.
			fieldError("MappingTemplate", "Value for field '$[operation]' not found."),
			fieldError("Lambda:Unhandled", "Rate exceeded"),
			fieldError("Lambda:IllegalArgument", "Rate exceeded"),
			fieldError("DynamoDB:ConditionalCheckFailedException", "The conditional request failed (Service: DynamoDb, Status Code: 400)"),
			fieldError("DynamoDB:DynamoDbException", "Rate exceeded"),
			fieldError("OrderStateConflict", "Rate exceeded"),
			{name: "query invalid for the schema", status: 200, body: `{"data":null,"errors":[{"path":null,"locations":[{"line":3,"column":5,"sourceName":null}],"message":"Validation error of type FieldUndefined: Field 'foundedYear' in type 'Company' is undefined @ 'getCompany/foundedYear'"}]}`},
		}},
	}
	for _, f := range families {
		for _, a := range f.answers {
			t.Run(f.class+"/"+a.name, func(t *testing.T) {
				e := callAgainst(t, serveAnswer(t, a), tools.ErrorClasses{})
				assert.Equal(t, f.class, e["code"], "%v", e)
				assert.Equal(t, f.retryable, e["retryable"], "%v", e)
				assert.Equal(t, "get_company", e["tool"])
				var words struct {
					Errors []struct{ Message string } `json:"errors"`
				}
				if json.Unmarshal([]byte(a.body), &words) == nil && len(words.Errors) > 0 {
					assert.Contains(t, e["message"], untrusted.Inline(words.Errors[0].Message), "the backend's own words are kept, markup escaped")
				}
			})
		}
	}
}

// TestOperatorMapsAResolversOwnTypes: --error-class gives a resolver's own
// errorType a class, exactly or by prefix, ahead of the families.
func TestOperatorMapsAResolversOwnTypes(t *testing.T) {
	classes, err := tools.ParseErrorClasses([]string{"OrderStateConflict=not_found", "dynamodb:*=rate_limited", "Unauthorized=forbidden"})
	require.NoError(t, err)
	for answer, class := range map[appsyncAnswer]string{
		fieldError("OrderStateConflict", "no such order"):                          "not_found",
		fieldError("DynamoDB:ProvisionedThroughputExceededException", "slow down"): "rate_limited",
		fieldError("Unauthorized", "Not Authorized to access getCompany"):          "forbidden",
		fieldError("NotFoundException", "unmapped types keep their family"):        "not_found",
	} {
		e := callAgainst(t, serveAnswer(t, answer), classes)
		assert.Equal(t, class, e["code"], "%s: %v", answer.name, e)
	}
}

func TestErrorClassSpecsAreChecked(t *testing.T) {
	for spec, mention := range map[string]string{
		"OrderStateConflict=gone": `unknown class "gone"; use one of invalid_arguments`,
		"=not_found":              "expected TYPE=CLASS",
		"OrderStateConflict":      "expected TYPE=CLASS",
		"X=mutations_disabled":    `unknown class "mutations_disabled"`,
	} {
		_, err := tools.ParseErrorClasses([]string{spec})
		require.Error(t, err, spec)
		assert.Contains(t, err.Error(), mention)
	}
	_, err := tools.ParseErrorClasses([]string{"X=not_found", "x=backend_error"})
	assert.ErrorContains(t, err, "already mapped to not_found")
}
