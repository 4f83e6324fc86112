package graphql

import "context"

// Writer runs the API's mutations. Only tools/write holds one.
type Writer interface {
	CreateCollection(ctx context.Context, name string, description *string) (*CreateCollectionResult, error)
	AddToCollection(ctx context.Context, collectionID string, companyIDs []string) (*AddToCollectionResult, error)
	RequestEmailDiscovery(ctx context.Context, companyID string, roles []string) (*EmailDiscoveryJob, error)
}

// NewWriter returns a Writer over c.
func NewWriter(c *Client) Writer { return writer{c} }

type writer struct{ c *Client }

func (w writer) CreateCollection(ctx context.Context, name string, description *string) (*CreateCollectionResult, error) {
	resp, err := CreateCollection(ctx, w.c, name, description)
	return &resp.CreateCollection, err
}

func (w writer) AddToCollection(ctx context.Context, collectionID string, companyIDs []string) (*AddToCollectionResult, error) {
	resp, err := AddToCollection(ctx, w.c, collectionID, companyIDs)
	return &resp.AddToCollection, err
}

func (w writer) RequestEmailDiscovery(ctx context.Context, companyID string, roles []string) (*EmailDiscoveryJob, error) {
	resp, err := RequestEmailDiscovery(ctx, w.c, companyID, roles)
	return &resp.RequestEmailDiscovery, err
}
