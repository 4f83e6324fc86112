// Package mutationtest holds a testify mock of mutation.Writer, for unit tests
// that assert the exact arguments a write tool sends to each operation.
package mutationtest

import (
	"context"

	"github.com/stretchr/testify/mock"

	"github.com/companyintel/mcp-server/graphql/mutation"
)

// Writer is a mock mutation.Writer. Set expectations with On("CreateCollection", …).
type Writer struct{ mock.Mock }

var _ mutation.Writer = (*Writer)(nil)

// result reads a typed return value that may be nil.
func result[T any](args mock.Arguments, i int) T {
	var zero T
	if v, ok := args.Get(i).(T); ok {
		return v
	}
	return zero
}

// CreateCollection records the call.
func (m *Writer) CreateCollection(ctx context.Context, name string, description *string) (*mutation.CreateCollectionResult, error) {
	a := m.Called(ctx, name, description)
	return result[*mutation.CreateCollectionResult](a, 0), a.Error(1)
}

// AddToCollection records the call.
func (m *Writer) AddToCollection(ctx context.Context, collectionID string, companyIDs []string) (*mutation.AddToCollectionResult, error) {
	a := m.Called(ctx, collectionID, companyIDs)
	return result[*mutation.AddToCollectionResult](a, 0), a.Error(1)
}

// RemoveFromCollection records the call.
func (m *Writer) RemoveFromCollection(ctx context.Context, collectionID string, companyIDs []string) (*mutation.RemoveFromCollectionResult, error) {
	a := m.Called(ctx, collectionID, companyIDs)
	return result[*mutation.RemoveFromCollectionResult](a, 0), a.Error(1)
}

// RequestEmailDiscovery records the call.
func (m *Writer) RequestEmailDiscovery(ctx context.Context, companyID string, roles []string) (*mutation.EmailDiscoveryJob, error) {
	a := m.Called(ctx, companyID, roles)
	return result[*mutation.EmailDiscoveryJob](a, 0), a.Error(1)
}
