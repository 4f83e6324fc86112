package graph

import (
	"context"
	"errors"
	"fmt"

	"github.com/companyintel/mcp-server/appsynclocal/store"
)

// AppSync errorType values the resolvers answer with.
const (
	TypeBadRequest   = "BadRequestException"
	TypeNotFound     = "NotFoundException"
	TypeUnauthorized = "Unauthorized"
	TypeInternal     = "InternalFailureException"
)

// Error is a resolver error in AppSync's terms: the errorType and message
// the caller sees. The HTTP layer puts Type at the top level of the error, as
// AppSync does, not under extensions.
type Error struct {
	Type    string
	Message string
}

// Error returns the message, as the caller sees it.
func (e *Error) Error() string { return e.Message }

// badRequest is a BadRequestException.
func badRequest(format string, args ...any) error {
	return &Error{Type: TypeBadRequest, Message: fmt.Sprintf(format, args...)}
}

// notFound is a NotFoundException.
func notFound(format string, args ...any) error {
	return &Error{Type: TypeNotFound, Message: fmt.Sprintf(format, args...)}
}

// fail turns a store error into what the caller may see: the store's own
// message for a request it refused, and a generic message, with the detail
// logged, for anything else. Go error text never reaches a caller: it can
// name types, files and SQL.
func (r *Resolver) fail(ctx context.Context, op string, err error) error {
	var (
		inv *store.InvalidError
		ge  *Error
	)
	switch {
	case errors.As(err, &ge):
		return ge
	case errors.As(err, &inv):
		return &Error{Type: TypeBadRequest, Message: inv.Msg}
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return &Error{Type: TypeInternal, Message: "the request was cancelled before " + op + " finished"}
	}
	r.log.ErrorContext(ctx, "resolver failed", "op", op, "err", err)
	return &Error{Type: TypeInternal, Message: op + " failed because of an internal error; the backend log has the details"}
}
