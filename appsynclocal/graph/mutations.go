package graph

import (
	"context"
	"errors"

	"github.com/companyintel/mcp-server/appsynclocal/graph/model"
	"github.com/companyintel/mcp-server/appsynclocal/store"
)

// CreateCollection creates a collection, or returns the caller's existing
// one of that name with created false.
func (r *mutationResolver) CreateCollection(ctx context.Context, name string, description *string) (*model.CreateCollectionResult, error) {
	who, err := owner(ctx)
	if err != nil {
		return nil, err
	}
	c, created, err := r.store.CreateCollection(ctx, who, name, description)
	if err != nil {
		return nil, r.fail(ctx, "createCollection", err)
	}
	return &model.CreateCollectionResult{Collection: toCollection(c), Created: created}, nil
}

// AddToCollection adds companies to one of the caller's collections.
func (r *mutationResolver) AddToCollection(ctx context.Context, collectionID string, companyIds []string) (*model.AddToCollectionResult, error) {
	who, err := owner(ctx)
	if err != nil {
		return nil, err
	}
	res, err := r.store.AddToCollection(ctx, who, collectionID, companyIds)
	if errors.Is(err, store.ErrNotFound) {
		return nil, collectionNotFound(collectionID)
	}
	if err != nil {
		return nil, r.fail(ctx, "addToCollection", err)
	}
	return &model.AddToCollectionResult{
		Collection:     toCollection(&res.Collection),
		Added:          res.Added,
		AlreadyPresent: res.AlreadyPresent,
		NotFound:       res.NotFound,
	}, nil
}

// RemoveFromCollection removes companies from one of the caller's
// collections; an id not in it is reported in notPresent, not refused.
func (r *mutationResolver) RemoveFromCollection(ctx context.Context, collectionID string, companyIds []string) (*model.RemoveFromCollectionResult, error) {
	who, err := owner(ctx)
	if err != nil {
		return nil, err
	}
	res, err := r.store.RemoveFromCollection(ctx, who, collectionID, companyIds)
	if errors.Is(err, store.ErrNotFound) {
		return nil, collectionNotFound(collectionID)
	}
	if err != nil {
		return nil, r.fail(ctx, "removeFromCollection", err)
	}
	return &model.RemoveFromCollectionResult{
		Collection: toCollection(&res.Collection),
		Removed:    res.Removed,
		NotPresent: res.NotPresent,
	}, nil
}

// RequestEmailDiscovery starts an email-discovery job for a company.
func (r *mutationResolver) RequestEmailDiscovery(ctx context.Context, companyID string, roles []string) (*model.EmailDiscoveryJob, error) {
	who, err := owner(ctx)
	if err != nil {
		return nil, err
	}
	job, err := r.store.RequestEmailDiscovery(ctx, who, companyID, roles)
	if errors.Is(err, store.ErrNotFound) {
		return nil, notFound("company %q not found", companyID)
	}
	if err != nil {
		return nil, r.fail(ctx, "requestEmailDiscovery", err)
	}
	return toJob(job), nil
}
