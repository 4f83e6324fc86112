package graphql

import "context"

// Reader runs the API's queries. It has no method that can change anything,
// and the value NewReader returns cannot be converted into a Writer: code that
// holds only a Reader cannot mutate.
type Reader interface {
	SearchCompanies(ctx context.Context, keyword *string, filters []string, limit *int, nextToken *string) (*CompanyPage, error)
	GetCompany(ctx context.Context, id string) (*Company, error)
	GetCompanies(ctx context.Context, ids []string) ([]*Company, error)
	AiSearch(ctx context.Context, query string, limit *int) (*AiSearchResult, error)
	FilterVocabulary(ctx context.Context) (*Vocabulary, error)
	ListCollections(ctx context.Context, limit *int, nextToken *string) (*CollectionPage, error)
	GetCollectionItems(ctx context.Context, collectionID string, limit *int, nextToken *string) (*CollectionItemPage, error)
}

// NewReader returns a Reader over c.
func NewReader(c *Client) Reader { return reader{c} }

// reader holds the client unexported, so a type assertion cannot reach the
// mutations through it.
type reader struct{ c *Client }

// Each method returns whatever data arrived even when err is a GraphQL error
// with partial data, so the caller can show both.

func (r reader) SearchCompanies(ctx context.Context, keyword *string, filters []string, limit *int, nextToken *string) (*CompanyPage, error) {
	resp, err := SearchCompanies(ctx, r.c, keyword, filters, limit, nextToken)
	return &resp.SearchCompanies, err
}

func (r reader) GetCompany(ctx context.Context, id string) (*Company, error) {
	resp, err := GetCompany(ctx, r.c, id)
	return resp.GetCompany, err
}

func (r reader) GetCompanies(ctx context.Context, ids []string) ([]*Company, error) {
	resp, err := GetCompanies(ctx, r.c, ids)
	return resp.GetCompanies, err
}

func (r reader) AiSearch(ctx context.Context, query string, limit *int) (*AiSearchResult, error) {
	resp, err := AiSearch(ctx, r.c, query, limit)
	return &resp.AiSearch, err
}

func (r reader) FilterVocabulary(ctx context.Context) (*Vocabulary, error) {
	resp, err := FilterVocabulary(ctx, r.c)
	return &resp.FilterVocabulary, err
}

func (r reader) ListCollections(ctx context.Context, limit *int, nextToken *string) (*CollectionPage, error) {
	resp, err := ListCollections(ctx, r.c, limit, nextToken)
	return &resp.ListCollections, err
}

func (r reader) GetCollectionItems(ctx context.Context, collectionID string, limit *int, nextToken *string) (*CollectionItemPage, error) {
	resp, err := GetCollectionItems(ctx, r.c, collectionID, limit, nextToken)
	return &resp.GetCollectionItems, err
}
