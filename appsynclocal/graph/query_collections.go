package graph

import (
	"context"
	"errors"

	"github.com/companyintel/mcp-server/appsynclocal/graph/model"
	"github.com/companyintel/mcp-server/appsynclocal/store"
)

// ListCollections lists the caller's collections, newest first.
func (r *queryResolver) ListCollections(ctx context.Context, limit *int, nextToken *string) (*model.CollectionConnection, error) {
	who, err := owner(ctx)
	if err != nil {
		return nil, err
	}
	n, err := store.CollectionsLimit.Resolve(limit)
	if err != nil {
		return nil, r.fail(ctx, "listCollections", err)
	}
	page, err := r.store.ListCollections(ctx, who, n, deref(nextToken))
	if err != nil {
		return nil, r.fail(ctx, "listCollections", err)
	}
	out := &model.CollectionConnection{Items: make([]*model.Collection, len(page.Items)), NextToken: token(page.NextToken), Total: page.Total}
	for i := range page.Items {
		out.Items[i] = toCollection(&page.Items[i])
	}
	return out, nil
}

// GetCollectionItems pages through one of the caller's collections.
func (r *queryResolver) GetCollectionItems(ctx context.Context, collectionID string, limit *int, nextToken *string) (*model.CollectionItemConnection, error) {
	who, err := owner(ctx)
	if err != nil {
		return nil, err
	}
	n, err := store.CollectionsLimit.Resolve(limit)
	if err != nil {
		return nil, r.fail(ctx, "getCollectionItems", err)
	}
	page, err := r.store.CollectionItems(ctx, who, collectionID, n, deref(nextToken))
	if errors.Is(err, store.ErrNotFound) {
		return nil, collectionNotFound(collectionID)
	}
	if err != nil {
		return nil, r.fail(ctx, "getCollectionItems", err)
	}
	out := &model.CollectionItemConnection{
		Collection: toCollection(&page.Collection),
		Items:      make([]*model.CollectionItem, len(page.Items)),
		NextToken:  token(page.NextToken),
		Total:      page.Total,
	}
	for i, it := range page.Items {
		out.Items[i] = &model.CollectionItem{Company: toCompany(&it.Company), AddedAt: it.AddedAt}
	}
	return out, nil
}

// collectionNotFound is the same whether the collection does not exist or
// belongs to someone else, so its existence is never revealed.
func collectionNotFound(id string) error {
	return notFound("collection %q not found", id)
}
