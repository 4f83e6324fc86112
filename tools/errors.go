package tools

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/companyintel/mcp-server/auth"
	"github.com/companyintel/mcp-server/graphql"
)

// Class is what kind of failure a call met. Each asks the caller for a
// different reaction, so it is reported in every failed result, in the text
// and as structuredContent.error.code.
type Class string

// The error classes of the design, and what each asks of the caller.
const (
	InvalidArguments   Class = "invalid_arguments"   // fix the arguments named
	MutationsDisabled  Class = "mutations_disabled"  // this server does not write
	RateLimited        Class = "rate_limited"        // wait retry_after_s
	Unauthorized       Class = "unauthorized"        // credentials refused or expired
	Forbidden          Class = "forbidden"           // these credentials may not do this
	NotFound           Class = "not_found"           // no such thing
	BackendTimeout     Class = "backend_timeout"     // busy: wait and retry
	BackendUnreachable Class = "backend_unreachable" // down or misaddressed: investigate
	BackendError       Class = "backend_error"       // the backend failed otherwise
)

// MutationsDisabledMessage is the refusal of every write tool when writes are off.
const MutationsDisabledMessage = "mutations are disabled; start the server with --allow-mutations to enable write operations"

// Error is a failed call as its caller sees it. Tools return it (or any error,
// which Classify turns into one); the pipeline renders it as an isError result.
type Error struct {
	Class Class
	// Message is a sentence for the caller; the pipeline prefixes the tool's name.
	Message string
	// Fields lists each bad argument, for invalid_arguments.
	Fields []FieldError
	// Retryable says whether the same call may succeed later.
	Retryable bool
	// RetryAfter, when set, is how long to wait first.
	RetryAfter time.Duration
	// Backend is what the backend said, when it said something.
	Backend *BackendDetail
	// Partial is data that arrived together with the errors, already shaped.
	Partial any
	// Err is the underlying error, for logs only: never shown to the caller.
	Err error
}

// Error returns the class and message.
func (e *Error) Error() string { return string(e.Class) + ": " + e.Message }

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// BackendDetail keeps the backend's own words.
type BackendDetail struct {
	// Status is the HTTP status, when a response came.
	Status int `json:"status,omitempty"`
	// Errors are the GraphQL errors, in the backend's words.
	Errors []BackendGQLError `json:"errors,omitempty"`
	// Body is an excerpt of a body that was not GraphQL.
	Body string `json:"body,omitempty"`
	// Cause names a network failure.
	Cause string `json:"cause,omitempty"`
}

// BackendGQLError is one GraphQL error as AppSync gave it.
type BackendGQLError struct {
	ErrorType string `json:"errorType,omitempty"`
	Message   string `json:"message"`
	Path      string `json:"path,omitempty"`
}

// ErrorType returns the first errorType the backend gave, or "".
func (b *BackendDetail) ErrorType() string {
	if b == nil {
		return ""
	}
	for _, e := range b.Errors {
		if e.ErrorType != "" {
			return e.ErrorType
		}
	}
	return ""
}

// Invalid reports bad arguments that only the tool itself can judge, such as
// an unknown country; it is an invalid_arguments error naming the field.
func Invalid(field, problem string) *Error {
	return &Error{
		Class:   InvalidArguments,
		Message: "invalid arguments: " + field + ": " + problem,
		Fields:  []FieldError{{Field: field, Problem: problem}},
	}
}

// NotFoundf reports that what was asked for does not exist.
func NotFoundf(format string, args ...any) *Error {
	return &Error{Class: NotFound, Message: fmt.Sprintf(format, args...)}
}

// invalidFields turns a validation failure into one error listing every field.
func invalidFields(fields []FieldError) *Error {
	parts := make([]string, len(fields))
	for i, f := range fields {
		parts[i] = f.Field + ": " + f.Problem
	}
	return &Error{
		Class:   InvalidArguments,
		Message: "invalid arguments: " + strings.Join(parts, "; "),
		Fields:  fields,
	}
}

// Classify turns any error a tool returned into an *Error. unauthorizedHint,
// when not empty, says how to fix refused credentials for the method in use;
// authMethod is that method ("apikey", "oidc", "sigv4").
func Classify(err error, unauthorizedHint, authMethod string) *Error {
	var te *Error
	if errors.As(err, &te) {
		return te
	}
	// The transport could not obtain credentials (a token endpoint down, a
	// token file gone): nothing was sent, and the fix is the operator's.
	var ae *auth.Error
	if errors.As(err, &ae) {
		msg := "no valid credentials to send: " + ae.Error()
		if unauthorizedHint != "" {
			msg += ". " + unauthorizedHint
		}
		return &Error{Class: Unauthorized, Message: msg, Err: err}
	}
	var ge *graphql.Error
	if !errors.As(err, &ge) {
		// Not the caller's fault and not the backend's words: a server bug.
		return &Error{Class: BackendError, Message: "internal error in the MCP server; the server log has the detail", Err: err}
	}
	e := &Error{Err: err, Backend: detail(ge), RetryAfter: ge.RetryAfter}
	switch ge.Kind {
	case graphql.KindTimeout:
		e.Class, e.Retryable = BackendTimeout, true
		e.Message = "the data API did not answer in time; it is busy, so wait and retry"
		return e
	case graphql.KindUnreachable:
		e.Class = BackendUnreachable
		e.Message = "the data API could not be reached (" + ge.Cause + "); check that it is running and that --endpoint is right"
		return e
	case graphql.KindCanceled:
		e.Class = BackendError
		e.Message = "the call was canceled before the data API answered"
		return e
	case graphql.KindMalformed:
		e.Class, e.Retryable = BackendError, true
		e.Message = "the data API answered with a body that is not a GraphQL response: " + ge.Error()
		return e
	}

	// The backend answered: keep its words, and choose the class from its
	// errorType first (AppSync's own classification), then the HTTP status.
	words := ge.Error()
	switch t := errorTypeOf(ge); {
	case t == "UnauthorizedException" || ge.StatusCode == http.StatusUnauthorized:
		e.Class = Unauthorized
		e.Message = "the data API refused the credentials: " + words
		if unauthorizedHint != "" {
			e.Message += ". " + unauthorizedHint
		}
	case t == "Unauthorized":
		// AppSync's field-level refusal: the credentials are valid but their
		// auth mode may not read this field. With an API key that is always
		// the cause: a key has no user, so it cannot reach collections.
		e.Class = Unauthorized
		e.Message = "these credentials may not use this operation: " + words
		if authMethod == "apikey" {
			e.Message += ". Collections and writes belong to a user: authenticate with OIDC or IAM, not an API key"
		}
	case t == "AccessDeniedException" || t == "ForbiddenException" || ge.StatusCode == http.StatusForbidden:
		e.Class = Forbidden
		e.Message = "the data API forbids this call: " + words
	case t == "NotFoundException" || t == "NotFound":
		e.Class = NotFound
		e.Message = words
	case t == "BadRequestException" || t == "ValidationError" || ge.StatusCode == http.StatusBadRequest:
		e.Class = InvalidArguments
		e.Message = "the data API rejected the request: " + words
	case strings.Contains(t, "Throttl") || strings.Contains(t, "TooManyRequests") || ge.StatusCode == http.StatusTooManyRequests:
		e.Class, e.Retryable = RateLimited, true
		if e.RetryAfter == 0 {
			e.RetryAfter = time.Second
		}
		e.Message = "the data API is throttling requests: " + words
	case t == "ExecutionTimeout" || ge.StatusCode == http.StatusGatewayTimeout:
		e.Class, e.Retryable = BackendTimeout, true
		e.Message = "the data API timed out: " + words
	case ge.StatusCode == http.StatusNotFound:
		e.Class = BackendUnreachable
		e.Message = "the endpoint answered 404: " + words + "; check --endpoint (an AppSync GraphQL URL ends in /graphql)"
	default:
		e.Class = BackendError
		e.Retryable = ge.StatusCode >= 500
		e.Message = "the data API failed: " + words
	}
	return e
}

func errorTypeOf(ge *graphql.Error) string {
	for _, e := range ge.Errors {
		if e.ErrorType != "" {
			return e.ErrorType
		}
	}
	return ""
}

func detail(ge *graphql.Error) *BackendDetail {
	d := &BackendDetail{Status: ge.StatusCode, Body: ge.Body, Cause: ge.Cause}
	for _, e := range ge.Errors {
		d.Errors = append(d.Errors, BackendGQLError{ErrorType: e.ErrorType, Message: e.Message, Path: e.PathString()})
	}
	return d
}
