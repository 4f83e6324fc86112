// Package mutation runs the API's write operations through Writer. The
// generated code lives in mutation/internal/gen, so only this package can
// call it; the result types a caller needs are re-exported below.
//
// Only tools/write (and app, which wires it) may depend on this package:
// app's architecture test fails if anything tools/read depends on contains a
// GraphQL mutation.
package mutation

import (
	"context"
	"errors"

	"github.com/companyintel/mcp-server/graphql"
	"github.com/companyintel/mcp-server/graphql/mutation/internal/gen"
)

// Writer runs the API's mutations. Only tools/write holds one.
type Writer interface {
	CreateCollection(ctx context.Context, name string, description *string) (*CreateCollectionResult, error)
	AddToCollection(ctx context.Context, collectionID string, companyIDs []string) (*AddToCollectionResult, error)
	// RemoveFromCollection answers ErrRemoveUnsupported from a backend on
	// the API's original schema, which has no removeFromCollection.
	RemoveFromCollection(ctx context.Context, collectionID string, companyIDs []string) (*RemoveFromCollectionResult, error)
	RequestEmailDiscovery(ctx context.Context, companyID string, roles []string) (*EmailDiscoveryJob, error)
}

// NewWriter returns a Writer over c.
func NewWriter(c *graphql.Client) Writer { return writer{c} }

type writer struct{ c *graphql.Client }

func (w writer) CreateCollection(ctx context.Context, name string, description *string) (*CreateCollectionResult, error) {
	resp, err := gen.CreateCollection(ctx, w.c, name, description)
	return &resp.CreateCollection, err
}

func (w writer) AddToCollection(ctx context.Context, collectionID string, companyIDs []string) (*AddToCollectionResult, error) {
	resp, err := gen.AddToCollection(ctx, w.c, collectionID, companyIDs)
	return &resp.AddToCollection, err
}

// ErrRemoveUnsupported is RemoveFromCollection's answer when the backend's
// schema has no removeFromCollection (an extension of the original schema):
// the backend refused the document, so nothing was removed.
var ErrRemoveUnsupported = errors.New("the data API has no removeFromCollection: it serves the original schema, which cannot remove companies from a collection")

func (w writer) RemoveFromCollection(ctx context.Context, collectionID string, companyIDs []string) (*RemoveFromCollectionResult, error) {
	resp, err := gen.RemoveFromCollection(ctx, w.c, collectionID, companyIDs)
	if graphql.UnknownToSchema(err) {
		return &RemoveFromCollectionResult{}, errors.Join(ErrRemoveUnsupported, err)
	}
	return &resp.RemoveFromCollection, err
}

func (w writer) RequestEmailDiscovery(ctx context.Context, companyID string, roles []string) (*EmailDiscoveryJob, error) {
	resp, err := gen.RequestEmailDiscovery(ctx, w.c, companyID, roles)
	return &resp.RequestEmailDiscovery, err
}
