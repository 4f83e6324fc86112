// Package graphqltest holds testify mocks of graphql.Reader and
// graphql.Writer, for unit tests that assert the exact arguments a tool sends
// to each operation.
package graphqltest

import (
	"context"

	"github.com/stretchr/testify/mock"

	"github.com/companyintel/mcp-server/graphql"
)

// Reader is a mock graphql.Reader. Set expectations with On("SearchCompanies", …).
type Reader struct{ mock.Mock }

// Writer is a mock graphql.Writer. Set expectations with On("CreateCollection", …).
type Writer struct{ mock.Mock }

var (
	_ graphql.Reader = (*Reader)(nil)
	_ graphql.Writer = (*Writer)(nil)
)

// result reads a typed return value that may be nil.
func result[T any](args mock.Arguments, i int) T {
	var zero T
	if v, ok := args.Get(i).(T); ok {
		return v
	}
	return zero
}

// SearchCompanies records the call.
func (m *Reader) SearchCompanies(ctx context.Context, keyword *string, filters []string, limit *int, nextToken *string) (*graphql.CompanyPage, error) {
	a := m.Called(ctx, keyword, filters, limit, nextToken)
	return result[*graphql.CompanyPage](a, 0), a.Error(1)
}

// GetCompany records the call.
func (m *Reader) GetCompany(ctx context.Context, id string) (*graphql.Company, error) {
	a := m.Called(ctx, id)
	return result[*graphql.Company](a, 0), a.Error(1)
}

// GetCompanies records the call.
func (m *Reader) GetCompanies(ctx context.Context, ids []string) ([]*graphql.Company, error) {
	a := m.Called(ctx, ids)
	return result[[]*graphql.Company](a, 0), a.Error(1)
}

// AiSearch records the call.
func (m *Reader) AiSearch(ctx context.Context, query string, limit *int) (*graphql.AiSearchResult, error) {
	a := m.Called(ctx, query, limit)
	return result[*graphql.AiSearchResult](a, 0), a.Error(1)
}

// FilterVocabulary records the call.
func (m *Reader) FilterVocabulary(ctx context.Context) (*graphql.Vocabulary, error) {
	a := m.Called(ctx)
	return result[*graphql.Vocabulary](a, 0), a.Error(1)
}

// ListCollections records the call.
func (m *Reader) ListCollections(ctx context.Context, limit *int, nextToken *string) (*graphql.CollectionPage, error) {
	a := m.Called(ctx, limit, nextToken)
	return result[*graphql.CollectionPage](a, 0), a.Error(1)
}

// GetCollectionItems records the call.
func (m *Reader) GetCollectionItems(ctx context.Context, collectionID string, limit *int, nextToken *string) (*graphql.CollectionItemPage, error) {
	a := m.Called(ctx, collectionID, limit, nextToken)
	return result[*graphql.CollectionItemPage](a, 0), a.Error(1)
}

// CreateCollection records the call.
func (m *Writer) CreateCollection(ctx context.Context, name string, description *string) (*graphql.CreateCollectionResult, error) {
	a := m.Called(ctx, name, description)
	return result[*graphql.CreateCollectionResult](a, 0), a.Error(1)
}

// AddToCollection records the call.
func (m *Writer) AddToCollection(ctx context.Context, collectionID string, companyIDs []string) (*graphql.AddToCollectionResult, error) {
	a := m.Called(ctx, collectionID, companyIDs)
	return result[*graphql.AddToCollectionResult](a, 0), a.Error(1)
}

// RequestEmailDiscovery records the call.
func (m *Writer) RequestEmailDiscovery(ctx context.Context, companyID string, roles []string) (*graphql.EmailDiscoveryJob, error) {
	a := m.Called(ctx, companyID, roles)
	return result[*graphql.EmailDiscoveryJob](a, 0), a.Error(1)
}
