package tools

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/companyintel/mcp-server/auth"
	"github.com/companyintel/mcp-server/graphql"
)

func TestClassifyKeepsTheBackendsWords(t *testing.T) {
	gqlErr := func(status int, typ, msg string) *graphql.Error {
		return &graphql.Error{Operation: "ListCollections", Kind: graphql.KindGraphQL, StatusCode: status,
			Errors: []graphql.GraphQLError{{ErrorType: typ, Message: msg, Path: []any{"listCollections"}}}}
	}
	tests := []struct {
		name      string
		err       error
		class     Class
		retryable bool
		mentions  []string
	}{
		{"401 names the method's fix", &graphql.Error{Operation: "GetCompany", Kind: graphql.KindHTTP, StatusCode: 401,
			Errors: []graphql.GraphQLError{{ErrorType: "UnauthorizedException", Message: "You are not authorized to make this call."}}},
			Unauthorized, false, []string{"UnauthorizedException", "not authorized to make this call", "HINT", "tell the user"}},
		{"field-level refusal explains API keys", gqlErr(200, "Unauthorized", "Not Authorized to access listCollections on type Query"),
			Unauthorized, false, []string{"Not Authorized to access listCollections on type Query", "path listCollections", "OIDC or IAM"}},
		{"not found", gqlErr(200, "NotFoundException", "collection col_9 not found"), NotFound, false, []string{"col_9"}},
		{"a schema this server was not built for", &graphql.Error{Operation: "GetCompany", Kind: graphql.KindGraphQL, StatusCode: 400,
			Errors: []graphql.GraphQLError{{Message: "Validation error of type FieldUndefined: Field 'foundedAfter' in type 'AiSearchResult' is undefined"}}},
			BackendError, false, []string{"FieldUndefined", "check --endpoint", "tell the user"}},
		{"bad request", gqlErr(200, "BadRequestException", "limit must be 1-100"), InvalidArguments, false, []string{"limit must be 1-100"}},
		{"throttled", &graphql.Error{Operation: "AiSearch", Kind: graphql.KindHTTP, StatusCode: 429, RetryAfter: 7 * time.Second,
			Errors: []graphql.GraphQLError{{ErrorType: "TooManyRequestsException", Message: "slow down"}}},
			RateLimited, true, []string{"slow down", "HTTP 429"}},
		{"5xx with a non-JSON body", &graphql.Error{Operation: "GetCompany", Kind: graphql.KindHTTP, StatusCode: 502, Body: "<html>Bad Gateway</html>"},
			BackendError, true, []string{"HTTP 502", "Bad Gateway"}},
		{"timeout", &graphql.Error{Operation: "GetCompany", Kind: graphql.KindTimeout, Cause: "timeout: no answer before the deadline"},
			BackendTimeout, true, []string{"wait and retry"}},
		{"refused connection", &graphql.Error{Operation: "GetCompany", Kind: graphql.KindUnreachable, Cause: "connection refused"},
			BackendUnreachable, false, []string{"connection refused", "--endpoint", "only whoever runs this server can fix this, so tell the user"}},
		{"malformed body", &graphql.Error{Operation: "GetCompany", Kind: graphql.KindMalformed, StatusCode: 200, Body: `{"data":`},
			BackendError, true, []string{"not a GraphQL response", `{\\"data\\":`}},
		{"404 means a wrong endpoint", &graphql.Error{Operation: "GetCompany", Kind: graphql.KindHTTP, StatusCode: http.StatusNotFound, Body: "no route"},
			BackendUnreachable, false, []string{"--endpoint", "tell the user"}},
		{"the transport had no credentials to send", &graphql.Error{Operation: "GetCompany", Kind: graphql.KindUnreachable, Cause: "connection failed",
			Err: &auth.Error{Method: auth.OIDC, Msg: "token endpoint unreachable; the token expired at 2026-11-30T03:00:00Z"}},
			Unauthorized, false, []string{"auth oidc: token endpoint unreachable", "HINT", "tell the user"}},
		{"a Go error is an internal error without its text", errors.New("secret-ish internal detail"),
			BackendError, false, []string{"internal error"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := Classify(tt.err, "HINT", "apikey")
			assert.Equal(t, tt.class, e.Class)
			assert.Equal(t, tt.retryable, e.Retryable)
			for _, m := range tt.mentions {
				assert.Contains(t, e.Message, m)
			}
			assert.NotContains(t, e.Message, "secret-ish", "a Go error's text is for the log only")
			assert.NotContains(t, e.Message, "*graphql", "no Go type names")
		})
	}
}

func TestFieldRefusalExplainsAPIKeysOnlyToAPIKeys(t *testing.T) {
	ge := &graphql.Error{Operation: "ListCollections", Kind: graphql.KindGraphQL, StatusCode: 200,
		Errors: []graphql.GraphQLError{{ErrorType: "Unauthorized", Message: "Not Authorized to access listCollections on type Query"}}}
	assert.Contains(t, Classify(ge, "", "apikey").Message, "not an API key")
	e := Classify(ge, "", "oidc")
	assert.Equal(t, Unauthorized, e.Class)
	assert.NotContains(t, e.Message, "API key", "an OIDC caller was not using a key")
	assert.Contains(t, e.Message, "Not Authorized to access listCollections on type Query")
}

func TestThrottlingKeepsRetryAfter(t *testing.T) {
	e := Classify(&graphql.Error{Operation: "AiSearch", Kind: graphql.KindHTTP, StatusCode: 429, RetryAfter: 7 * time.Second}, "", "oidc")
	assert.Equal(t, 7*time.Second, e.RetryAfter)
	e = Classify(&graphql.Error{Operation: "AiSearch", Kind: graphql.KindHTTP, StatusCode: 429}, "", "oidc")
	assert.Equal(t, time.Second, e.RetryAfter, "a throttle without Retry-After still tells the caller to wait")
}
