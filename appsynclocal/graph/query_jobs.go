package graph

import (
	"context"
	"errors"

	"github.com/companyintel/mcp-server/appsynclocal/graph/model"
	"github.com/companyintel/mcp-server/appsynclocal/store"
)

// GetEmailDiscoveryJob returns one of the caller's email-discovery jobs, or
// null when the caller has none of that id (another user's job included).
func (r *queryResolver) GetEmailDiscoveryJob(ctx context.Context, id string) (*model.EmailDiscoveryJob, error) {
	who, err := owner(ctx)
	if err != nil {
		return nil, err
	}
	job, err := r.store.EmailDiscoveryJob(ctx, who, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, r.fail(ctx, "getEmailDiscoveryJob", err)
	}
	return toJob(job), nil
}
