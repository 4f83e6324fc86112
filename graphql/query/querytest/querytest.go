// Package querytest holds a testify mock of query.Reader, for unit tests that
// assert the exact arguments a read tool sends to each operation.
package querytest

import (
	"context"

	"github.com/stretchr/testify/mock"

	"github.com/companyintel/mcp-server/graphql/query"
)

// Reader is a mock query.Reader. Set expectations with On("SearchCompanies", …).
type Reader struct{ mock.Mock }

var _ query.Reader = (*Reader)(nil)

// result reads a typed return value that may be nil.
func result[T any](args mock.Arguments, i int) T {
	var zero T
	if v, ok := args.Get(i).(T); ok {
		return v
	}
	return zero
}

// SearchCompanies records the call.
func (m *Reader) SearchCompanies(ctx context.Context, keyword *string, filters []string, bounds query.Bounds, limit *int, nextToken *string) (*query.CompanyPage, error) {
	a := m.Called(ctx, keyword, filters, bounds, limit, nextToken)
	return result[*query.CompanyPage](a, 0), a.Error(1)
}

// GetCompany records the call.
func (m *Reader) GetCompany(ctx context.Context, id string) (*query.Company, error) {
	a := m.Called(ctx, id)
	return result[*query.Company](a, 0), a.Error(1)
}

// GetCompanies records the call.
func (m *Reader) GetCompanies(ctx context.Context, ids []string) ([]*query.Company, error) {
	a := m.Called(ctx, ids)
	return result[[]*query.Company](a, 0), a.Error(1)
}

// AiSearch records the call.
func (m *Reader) AiSearch(ctx context.Context, text string, limit *int) (*query.AiSearchResult, error) {
	a := m.Called(ctx, text, limit)
	return result[*query.AiSearchResult](a, 0), a.Error(1)
}

// FilterVocabulary records the call.
func (m *Reader) FilterVocabulary(ctx context.Context) (*query.Vocabulary, error) {
	a := m.Called(ctx)
	return result[*query.Vocabulary](a, 0), a.Error(1)
}

// ListCollections records the call.
func (m *Reader) ListCollections(ctx context.Context, limit *int, nextToken *string) (*query.CollectionPage, error) {
	a := m.Called(ctx, limit, nextToken)
	return result[*query.CollectionPage](a, 0), a.Error(1)
}

// GetCollectionItems records the call.
func (m *Reader) GetCollectionItems(ctx context.Context, collectionID string, limit *int, nextToken *string) (*query.CollectionItemPage, error) {
	a := m.Called(ctx, collectionID, limit, nextToken)
	return result[*query.CollectionItemPage](a, 0), a.Error(1)
}
