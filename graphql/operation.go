package graphql

import "context"

type operationKey struct{}

// withOperation names the GraphQL operation a backend request carries, for
// transports below the client (metrics) that label requests by it.
func withOperation(ctx context.Context, op string) context.Context {
	return context.WithValue(ctx, operationKey{}, op)
}

// OperationName returns the GraphQL operation a backend request's context
// names, or "" outside a Client request.
func OperationName(ctx context.Context) string {
	op, _ := ctx.Value(operationKey{}).(string)
	return op
}
