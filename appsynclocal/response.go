package appsynclocal

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// errorThrottled is the errorType AppSync uses when it throttles a caller
// ("Rate exceeded"), as its clients match it: aws-appsync-realtime-client-ios
// PR #67 and aws-amplify/amplify-android PR #3425.
const errorThrottled = "LimitExceededError"

// errorMalformedRequest is AppSync's errorType for a body that is not a
// GraphQL request (graphql/graphql-over-http#81, written by the AppSync team).
const errorMalformedRequest = "MalformedHttpRequestException"

// wireError is one entry of "errors" in AppSync's shape: errorType at the top
// level, never under extensions.
type wireError struct {
	ErrorType string              `json:"errorType,omitempty"`
	Message   string              `json:"message"`
	Path      []any               `json:"path,omitempty"`
	Locations []gqlerror.Location `json:"locations,omitempty"`
}

// wireResponse is a whole answer. Data is absent when the request was
// refused before GraphQL (auth, malformed body), and null when validation
// failed or execution nulled it.
type wireResponse struct {
	Data   json.RawMessage `json:"data,omitempty"`
	Errors []wireError     `json:"errors,omitempty"`
}

// errorTypeKey is where the error presenter leaves a resolver error's
// errorType on the gqlerror, for toWire to lift out.
const errorTypeKey = "errorType"

// toWire converts gqlgen's response, always with a "data" member. Errors
// gqlgen raised itself (parsing, validation, coercion) carry no errorType, as
// AppSync's validation errors carry none.
func toWire(resp *graphql.Response) wireResponse {
	out := wireResponse{Data: resp.Data}
	if len(out.Data) == 0 {
		out.Data = json.RawMessage("null")
	}
	for _, e := range resp.Errors {
		we := wireError{Message: e.Message, Locations: e.Locations}
		if t, ok := e.Extensions[errorTypeKey].(string); ok {
			we.ErrorType = t
		}
		for _, p := range e.Path {
			we.Path = append(we.Path, p)
		}
		out.Errors = append(out.Errors, we)
	}
	return out
}

// encode marshals v without escaping <, > and & into \u003c and the like,
// which JSON does not need and which makes messages hard to read.
func encode(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// writeJSON writes v with AppSync's content type.
func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := encode(v)
	if err != nil {
		// Only a bug can get here: everything written is built above.
		body, status = []byte(`{"errors":[{"errorType":"InternalFailureException","message":"the answer could not be encoded"}]}`), http.StatusInternalServerError
	}
	writeBody(w, status, body)
}

// writeBody writes an already encoded JSON body.
func writeBody(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(status)
	w.Write(body)
}

// writeErrors answers with a single error and no data, as AppSync does for
// requests it refuses before running them; like AppSync it also names the
// errorType in the x-amzn-ErrorType header.
func writeErrors(w http.ResponseWriter, status int, errorType, message string) {
	w.Header().Set("x-amzn-ErrorType", errorType)
	writeJSON(w, status, wireResponse{Errors: []wireError{{ErrorType: errorType, Message: message}}})
}
