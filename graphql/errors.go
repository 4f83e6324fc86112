package graphql

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Kind says how a call to the backend failed. Each kind asks the caller for a
// different reaction, so the kinds are kept apart all the way to the user.
type Kind int

const (
	// KindGraphQL: the backend answered 200 with GraphQL errors, possibly
	// alongside partial data.
	KindGraphQL Kind = iota + 1
	// KindHTTP: the backend answered with a non-2xx status.
	KindHTTP
	// KindMalformed: the body was not a GraphQL response.
	KindMalformed
	// KindTimeout: the call's deadline passed before an answer came.
	KindTimeout
	// KindUnreachable: no connection could be made (refused, DNS, reset).
	KindUnreachable
	// KindCanceled: the caller gave up on the call.
	KindCanceled
)

// String returns the kind's name as it appears in messages.
func (k Kind) String() string {
	switch k {
	case KindGraphQL:
		return "graphql"
	case KindHTTP:
		return "http"
	case KindMalformed:
		return "malformed"
	case KindTimeout:
		return "timeout"
	case KindUnreachable:
		return "unreachable"
	case KindCanceled:
		return "canceled"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// GraphQLError is one entry of a response's "errors" array in AppSync's shape.
type GraphQLError struct {
	// ErrorType is AppSync's classification, such as "UnauthorizedException",
	// "Unauthorized" or "DynamoDB:ConditionalCheckFailedException".
	ErrorType string `json:"errorType,omitempty"`
	// Message is the backend's own words.
	Message string `json:"message"`
	// Path is the response path the error belongs to, e.g. ["listCollections"].
	Path []any `json:"path,omitempty"`
	// Locations point into the query document. Errors with locations but no
	// errorType and no path are validation errors: the query itself, or a
	// variable's value, was refused before anything was resolved.
	Locations []Location `json:"locations,omitempty"`
	// Extensions are the GraphQL spec's free-form additions; only their
	// "code" (GRAPHQL_VALIDATION_FAILED, BAD_USER_INPUT…) is read, from
	// servers that are not AppSync.
	Extensions struct {
		Code any `json:"code,omitempty"`
	} `json:"extensions,omitzero"`
}

// Location is a line and column in the query document.
type Location struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// Code returns extensions.code when it is a string, else "".
func (e GraphQLError) Code() string {
	s, _ := e.Extensions.Code.(string)
	return s
}

// IsValidation reports whether the error refuses the query or its variables
// rather than reporting a failed resolver: no errorType, and either the
// "Validation error of type …" words of AppSync (graphql-java), a
// validation or parse code in extensions, or locations without a path.
func (e GraphQLError) IsValidation() bool {
	if e.ErrorType != "" {
		return false
	}
	switch e.Code() {
	case "GRAPHQL_VALIDATION_FAILED", "GRAPHQL_PARSE_FAILED", "BAD_USER_INPUT":
		return true
	}
	return strings.HasPrefix(e.Message, "Validation error") ||
		strings.HasPrefix(e.Message, "Variable '") ||
		(len(e.Locations) > 0 && len(e.Path) == 0)
}

// IsUnknownToSchema reports whether the error is a validation error that
// refuses the query document for naming a field or an argument the backend's
// schema does not have: a backend on an older schema, without an optional
// extension this server asks for. It is IsValidation narrowed to those two
// rules, in the spellings of AppSync (graphql-java: "Validation error of
// type FieldUndefined: …", "… of type UnknownArgument: …") and of graphql-js
// and gqlgen ("Cannot query field …", "Unknown argument …"). A refused
// argument value (WrongType, a variable's value) is not one: the document is
// valid, the value is not.
func (e GraphQLError) IsUnknownToSchema() bool {
	if !e.IsValidation() {
		return false
	}
	m := e.Message
	return strings.HasPrefix(m, "Validation error of type FieldUndefined:") ||
		strings.HasPrefix(m, "Validation error of type UnknownArgument:") ||
		strings.HasPrefix(m, "Cannot query field ") ||
		strings.HasPrefix(m, "Unknown argument ")
}

// String renders the error as "errorType: message (path a.b)".
func (e GraphQLError) String() string {
	var b strings.Builder
	if e.ErrorType != "" {
		b.WriteString(Cut(e.ErrorType, 100))
		b.WriteString(": ")
	}
	b.WriteString(Cut(e.Message, MaxMessageLen))
	if p := e.PathString(); p != "" {
		b.WriteString(" (path ")
		b.WriteString(p)
		b.WriteString(")")
	}
	return b.String()
}

// PathString joins the path with dots, e.g. "getCollectionItems.items.0".
func (e GraphQLError) PathString() string {
	parts := make([]string, len(e.Path))
	for i, p := range e.Path {
		parts[i] = fmt.Sprint(p)
	}
	return strings.Join(parts, ".")
}

// A backend may quote a request back in its messages, or answer with many
// errors: what is repeated to a caller is bounded, whatever it said.
const (
	// MaxErrorsShown is how many GraphQL errors a message lists.
	MaxErrorsShown = 5
	// MaxMessageLen is how many characters of one error message are kept.
	MaxMessageLen = 500
)

// Cut keeps the first n characters of s, marking the cut.
func Cut(s string, n int) string {
	if len(s) <= n || utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

// Error is a failed call to the backend. It keeps everything the backend said,
// so that whoever reports it can use the backend's own words.
type Error struct {
	// Operation is the GraphQL operation name, e.g. "SearchCompanies".
	Operation string
	// Kind says how the call failed.
	Kind Kind
	// StatusCode is the HTTP status, or 0 when no response came.
	StatusCode int
	// Errors holds the GraphQL errors, from a 200 or a non-2xx body alike.
	Errors []GraphQLError
	// PartialData is true when data came back together with the errors and
	// every root field of it is non-null: there is something to keep. A null
	// root field with errors is a failed call, whatever else came back.
	PartialData bool
	// Body is an excerpt of a body that was not a GraphQL response.
	Body string
	// Cause names a network failure: "timeout", "connection refused",
	// "DNS lookup failed", "connection reset", "connection failed".
	Cause string
	// RetryAfter is the backend's Retry-After hint, or 0.
	RetryAfter time.Duration
	// Attempts is how many times the request was sent, when more than once.
	Attempts int
	// HeaderErrorType is the x-amzn-ErrorType response header, which AppSync
	// sets on refused requests; it stands in for a body without errorType.
	HeaderErrorType string
	// Err is the underlying Go error, for errors.Is/As. It is never shown to a
	// user: it may carry addresses and type names.
	Err error
}

// Error describes the failure with the backend's own words.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Operation)
	b.WriteString(": ")
	switch e.Kind {
	case KindTimeout, KindUnreachable, KindCanceled:
		b.WriteString(e.Cause)
		e.writeAttempts(&b)
		return b.String()
	}
	if e.StatusCode != 0 && e.StatusCode/100 != 2 {
		fmt.Fprintf(&b, "HTTP %d", e.StatusCode)
		if len(e.Errors) > 0 || e.Body != "" {
			b.WriteString(": ")
		}
	}
	if len(e.Errors) > 0 {
		shown := e.Errors[:min(len(e.Errors), MaxErrorsShown)]
		msgs := make([]string, len(shown))
		for i, ge := range shown {
			msgs[i] = ge.String()
		}
		b.WriteString(strings.Join(msgs, "; "))
		if more := len(e.Errors) - len(shown); more > 0 {
			fmt.Fprintf(&b, "; and %d more errors", more)
		}
	} else if e.Body != "" {
		if e.Kind == KindMalformed {
			b.WriteString("response is not GraphQL JSON: ")
		}
		fmt.Fprintf(&b, "%q", e.Body)
	}
	e.writeAttempts(&b)
	return b.String()
}

func (e *Error) writeAttempts(b *strings.Builder) {
	if e.Attempts > 1 {
		fmt.Fprintf(b, " (after %d attempts)", e.Attempts)
	}
}

// Unwrap returns the underlying Go error, if any.
func (e *Error) Unwrap() error { return e.Err }

// HasErrorType reports whether any GraphQL error carries the given errorType.
func (e *Error) HasErrorType(t string) bool {
	for _, ge := range e.Errors {
		if ge.ErrorType == t {
			return true
		}
	}
	return false
}

// UnknownToSchema reports whether err is the backend's refusal of a query
// document that names a field or argument its schema lacks (see
// GraphQLError.IsUnknownToSchema), whether it came with status 200 or 400.
// Nothing was resolved, so sending a document without them is safe.
func UnknownToSchema(err error) bool {
	e, ok := errors.AsType[*Error](err)
	if !ok || (e.Kind != KindGraphQL && e.Kind != KindHTTP) || e.PartialData {
		return false
	}
	for _, g := range e.Errors {
		if g.IsUnknownToSchema() {
			return true
		}
	}
	return false
}
