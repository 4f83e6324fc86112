package tools

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/companyintel/mcp-server/auth"
	"github.com/companyintel/mcp-server/graphql"
	"github.com/companyintel/mcp-server/internal/untrusted"
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

// LimitStoreUnavailable is a limited tool refused because the shared
// rate-limit store (Redis) did not answer: serving it unchecked would make
// the limit no limit. Wait retry_after_s; tools without a limit still work.
const LimitStoreUnavailable Class = "limit_store_unavailable"

// MutationsDisabledMessage is the refusal of a write tool when writes are
// off. It is a setting of the server that only whoever runs it can change,
// so the message says how and tells the model to hand it to the user rather
// than retry.
func MutationsDisabledMessage(tool string) string {
	return "writes are disabled on this server, a setting only whoever runs it can change: " +
		"restart it with --allow-mutations (env ALLOW_MUTATIONS=true), or --allow-mutations=" + tool + " for this tool alone. " +
		"Tell the user; retrying will not help"
}

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

// CollectionNextStep is the way on from a collection the backend did not
// find, for the tools that take a collection_id: ids come from
// list_collections, and another user's collection is not found too.
func CollectionNextStep(e *Error) string {
	if e.Class != NotFound {
		return ""
	}
	return "list_collections lists your collections and their ids (another user's collections are not visible)"
}

// NotFoundf reports that what was asked for does not exist.
func NotFoundf(format string, args ...any) *Error {
	return &Error{Class: NotFound, Message: fmt.Sprintf(format, args...)}
}

// InvalidFields turns a validation failure into one error listing every field.
func InvalidFields(fields []FieldError) *Error {
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

// forOperator ends the messages of failures that only whoever runs the
// server can fix (its credentials, its --endpoint): a model cannot, so its
// next step is to tell the user rather than retry or change arguments.
const forOperator = "; only whoever runs this server can fix this, so tell the user"

// Classifier turns any error a tool returned into an *Error.
type Classifier struct {
	// Classes are the operator's errorType mappings (--error-class),
	// consulted before the families.
	Classes ErrorClasses
	// Hint, when not empty, says how to fix refused credentials for the
	// method in use.
	Hint string
	// AuthMethod is that method ("apikey", "oidc", "sigv4").
	AuthMethod string
}

// Classify turns any error a tool returned into an *Error, with the errorType
// families alone (no operator mappings).
func Classify(err error, unauthorizedHint, authMethod string) *Error {
	return Classifier{Hint: unauthorizedHint, AuthMethod: authMethod}.Classify(err)
}

// Classify turns any error a tool returned into an *Error.
func (c Classifier) Classify(err error) *Error {
	var te *Error
	if errors.As(err, &te) {
		return te
	}
	// The transport could not obtain credentials (a token endpoint down, a
	// token file gone, a token past its expiry): nothing was sent, and the
	// fix is the operator's.
	var ae *auth.Error
	if errors.As(err, &ae) {
		msg := "no valid credentials to send: " + ae.Error()
		if c.Hint != "" {
			msg += ". " + c.Hint
		}
		return &Error{Class: Unauthorized, Message: msg + forOperator, Err: err}
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
		e.Message = "the data API could not be reached (" + untrusted.Inline(ge.Cause) + "); check that it is running and that --endpoint is right" + forOperator
		return e
	case graphql.KindCanceled:
		e.Class = BackendError
		e.Message = "the call was canceled before the data API answered"
		return e
	case graphql.KindMalformed:
		e.Class, e.Retryable = BackendError, true
		e.Message = "the data API answered with a body that is not a GraphQL response: " + untrusted.Inline(ge.Error())
		return e
	}
	// The backend answered: keep its words, and choose the class from what
	// it said — the operator's mapping of an errorType first, then the
	// errorType's family, then the HTTP status.
	// The backend's words are untrusted text (internal/untrusted): kept,
	// on the error's one line, with markup escaped.
	words := untrusted.Inline(ge.Error())
	if class, ok := c.operatorClass(ge); ok {
		c.byClass(e, class, words, ge.StatusCode)
		return e
	}
	c.byFamily(e, decideFamily(ge), words, ge.StatusCode)
	return e
}

// operatorClass returns the operator's class for the first errorType it maps.
func (c Classifier) operatorClass(ge *graphql.Error) (Class, bool) {
	for _, g := range ge.Errors {
		if class, ok := c.Classes.lookup(g.ErrorType); ok {
			return class, true
		}
	}
	return c.Classes.lookup(ge.HeaderErrorType)
}

// decision is the family chosen for an answer, and what it rests on.
type decision struct {
	family    typeFamily
	retryable bool // a resolver failure that is a throttle or an outage
	// validation is set when the errors refuse the query document or a
	// variable rather than report a failed resolver.
	validation, variable bool
}

// decideFamily reads the answer: a 401 is refused credentials whatever the
// body says; otherwise the first error whose family asks the caller for
// something (fix credentials, fix arguments, wait) decides, then a
// resolver's failure, then validation errors, then the status.
func decideFamily(ge *graphql.Error) decision {
	if ge.StatusCode == http.StatusUnauthorized {
		return decision{family: familyCredentials}
	}
	var resolver, validation *decision
	types := make([]string, 0, len(ge.Errors)+1)
	for _, g := range ge.Errors {
		types = append(types, g.ErrorType)
		if g.IsValidation() && validation == nil {
			v := strings.Contains(strings.ToLower(g.Message), "variable") || strings.Contains(g.Message, "WrongType") || g.Code() == "BAD_USER_INPUT"
			validation = &decision{validation: true, variable: v}
		}
	}
	types = append(types, ge.HeaderErrorType)
	for _, t := range types {
		f, retry := familyOf(t)
		switch f {
		case familyUnknown:
			continue
		case familyResolver:
			if resolver == nil {
				resolver = &decision{family: f, retryable: retry}
			}
			continue
		}
		return decision{family: f}
	}
	switch {
	case resolver != nil:
		return *resolver
	case validation != nil:
		return *validation
	}
	return decision{family: httpFamily(ge.StatusCode)}
}

// httpFamily reads a status that came without a recognised errorType. A 404
// is not "not found": the endpoint URL is wrong (see byFamily).
func httpFamily(status int) typeFamily {
	switch status {
	case http.StatusBadRequest:
		return familyInvalid
	case http.StatusForbidden:
		return familyForbidden
	case http.StatusTooManyRequests:
		return familyThrottled
	case http.StatusGatewayTimeout:
		return familyTimeout
	case http.StatusBadGateway, http.StatusServiceUnavailable:
		return familyUnavailable
	}
	return familyUnknown
}

// byFamily sets the class, retryability and message for a family.
func (c Classifier) byFamily(e *Error, d decision, words string, status int) {
	switch {
	case d.validation && d.variable:
		e.Class = InvalidArguments
		e.Message = "the data API refused an argument's value: " + words
		return
	case d.validation:
		e.Class = BackendError
		e.Message = "the data API refused this server's query as invalid for its schema: " + words +
			"; the endpoint serves a different schema than this server was built for: check --endpoint" + forOperator
		return
	}
	switch d.family {
	case familyCredentials:
		c.byClass(e, Unauthorized, words, http.StatusUnauthorized)
	case familyPermission:
		c.byClass(e, Unauthorized, words, status)
	case familyForbidden:
		c.byClass(e, Forbidden, words, status)
	case familyNotFound:
		c.byClass(e, NotFound, words, status)
	case familyInvalid:
		c.byClass(e, InvalidArguments, words, status)
	case familyThrottled:
		c.byClass(e, RateLimited, words, status)
	case familyTimeout:
		c.byClass(e, BackendTimeout, words, status)
	case familyUnavailable:
		e.Class, e.Retryable = BackendError, true
		e.Message = "the data API is unavailable for now: " + words + "; retry shortly"
	case familyResolver:
		e.Class, e.Retryable = BackendError, d.retryable
		e.Message = "a resolver of the data API failed: " + words
		if d.retryable {
			e.Message += "; it was throttled or unavailable, so retry shortly"
		}
	default:
		if status == http.StatusNotFound {
			e.Class = BackendUnreachable
			e.Message = "the endpoint answered 404: " + words + "; check --endpoint (an AppSync GraphQL URL ends in /graphql)" + forOperator
			return
		}
		c.byClass(e, BackendError, words, status)
	}
}

// byClass sets the message and retry advice of a class the backend's answer
// was given, by family or by the operator's mapping.
func (c Classifier) byClass(e *Error, class Class, words string, status int) {
	e.Class = class
	switch class {
	case Unauthorized:
		if status == http.StatusUnauthorized {
			e.Message = "the data API refused the credentials: " + words
			if c.Hint != "" {
				e.Message += ". " + c.Hint
			}
			e.Message += forOperator
			return
		}
		// A refusal of one field or operation: the credentials are valid
		// but their auth mode may not do this. With an API key that is
		// always the cause: a key has no user, so it cannot reach
		// collections.
		e.Message = "these credentials may not use this operation: " + words
		if c.AuthMethod == "apikey" {
			e.Message += ". Collections and writes belong to a user: authenticate with OIDC or IAM, not an API key"
		}
	case Forbidden:
		e.Message = "the data API forbids this call: " + words
	case NotFound:
		e.Message = words
	case InvalidArguments:
		e.Message = "the data API rejected the request: " + words
	case RateLimited:
		e.Retryable = true
		if e.RetryAfter == 0 {
			e.RetryAfter = time.Second
		}
		e.Message = "the data API is throttling requests: " + words
	case BackendTimeout:
		e.Retryable = true
		e.Message = "the data API timed out: " + words
	case BackendUnreachable:
		e.Message = "the data API could not serve this call: " + words + "; check that --endpoint is right" + forOperator
	default:
		e.Class = BackendError
		e.Retryable = status >= 500
		e.Message = "the data API failed: " + words
	}
}

func detail(ge *graphql.Error) *BackendDetail {
	d := &BackendDetail{Status: ge.StatusCode, Body: untrusted.Clean(ge.Body), Cause: untrusted.Clean(ge.Cause)}
	for _, e := range ge.Errors[:min(len(ge.Errors), graphql.MaxErrorsShown)] {
		d.Errors = append(d.Errors, BackendGQLError{
			ErrorType: untrusted.Clean(graphql.Cut(e.ErrorType, 100)),
			Message:   untrusted.Clean(graphql.Cut(e.Message, graphql.MaxMessageLen)),
			Path:      untrusted.Clean(graphql.Cut(e.PathString(), 200)),
		})
	}
	return d
}
