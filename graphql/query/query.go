// Package query runs the API's read operations. Reader is the whole of it:
// seven queries and nothing that can change anything. The generated code
// lives in query/internal/gen, so nothing outside this package can call a
// generated function directly; the types a caller needs are re-exported below
// under the same names.
//
// This package and everything it imports contain no GraphQL mutation, which
// is what lets package tools/read depend on it; app's architecture test checks
// that on the resolved package graph.
package query

import (
	"context"

	"github.com/companyintel/mcp-server/graphql"
	"github.com/companyintel/mcp-server/graphql/query/internal/gen"
)

// Reader runs the API's queries. It has no method that can change anything.
type Reader interface {
	SearchCompanies(ctx context.Context, keyword *string, filters []string, bounds Bounds, limit *int, nextToken *string) (*CompanyPage, error)
	GetCompany(ctx context.Context, id string) (*Company, error)
	GetCompanies(ctx context.Context, ids []string) ([]*Company, error)
	AiSearch(ctx context.Context, query string, limit *int) (*AiSearchResult, error)
	FilterVocabulary(ctx context.Context) (*Vocabulary, error)
	ListCollections(ctx context.Context, limit *int, nextToken *string) (*CollectionPage, error)
	GetCollectionItems(ctx context.Context, collectionID string, limit *int, nextToken *string) (*CollectionItemPage, error)
}

// Bounds are searchCompanies' inclusive range filters; nil means no bound.
type Bounds struct {
	MinEmployees, MaxEmployees *int
	// FoundedAfter and FoundedBefore are founding years, both inclusive.
	FoundedAfter, FoundedBefore *int
}

// NewReader returns a Reader over c.
func NewReader(c *graphql.Client) Reader { return reader{c} }

// reader holds the client unexported, so nothing outside can reach it.
type reader struct{ c *graphql.Client }

// Each method returns whatever data arrived even when err is a GraphQL error
// with partial data, so the caller can show both.

func (r reader) SearchCompanies(ctx context.Context, keyword *string, filters []string, bounds Bounds, limit *int, nextToken *string) (*CompanyPage, error) {
	resp, err := gen.SearchCompanies(ctx, r.c, keyword, filters, bounds.MinEmployees, bounds.MaxEmployees, bounds.FoundedAfter, bounds.FoundedBefore, limit, nextToken)
	return &resp.SearchCompanies, err
}

func (r reader) GetCompany(ctx context.Context, id string) (*Company, error) {
	resp, err := gen.GetCompany(ctx, r.c, id)
	return resp.GetCompany, err
}

func (r reader) GetCompanies(ctx context.Context, ids []string) ([]*Company, error) {
	resp, err := gen.GetCompanies(ctx, r.c, ids)
	return resp.GetCompanies, err
}

func (r reader) AiSearch(ctx context.Context, query string, limit *int) (*AiSearchResult, error) {
	resp, err := gen.AiSearch(ctx, r.c, query, limit)
	return &resp.AiSearch, err
}

func (r reader) FilterVocabulary(ctx context.Context) (*Vocabulary, error) {
	resp, err := gen.FilterVocabulary(ctx, r.c)
	return &resp.FilterVocabulary, err
}

func (r reader) ListCollections(ctx context.Context, limit *int, nextToken *string) (*CollectionPage, error) {
	resp, err := gen.ListCollections(ctx, r.c, limit, nextToken)
	return &resp.ListCollections, err
}

func (r reader) GetCollectionItems(ctx context.Context, collectionID string, limit *int, nextToken *string) (*CollectionItemPage, error) {
	resp, err := gen.GetCollectionItems(ctx, r.c, collectionID, limit, nextToken)
	return &resp.GetCollectionItems, err
}
