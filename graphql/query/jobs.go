package query

import (
	"context"
	"errors"
	"sync/atomic"

	"github.com/companyintel/mcp-server/graphql"
	"github.com/companyintel/mcp-server/graphql/query/internal/gen"
)

// EmailDiscoveryJob is an email-discovery job as getEmailDiscoveryJob
// answers it: its status and, once completed, the contacts it found.
type EmailDiscoveryJob = gen.EmailDiscoveryJob

// Jobs reads the caller's email-discovery jobs. getEmailDiscoveryJob is an
// extension of the original schema, which has no way to ask after a job:
// against such a backend every read answers ErrJobsUnsupported.
type Jobs interface {
	// EmailDiscoveryJob returns the caller's job of that id, or nil (and
	// no error) when the caller has none.
	EmailDiscoveryJob(ctx context.Context, id string) (*EmailDiscoveryJob, error)
	// Unsupported reports whether the backend is known to lack
	// getEmailDiscoveryJob: it has refused it since Jobs was made.
	Unsupported() bool
}

// ErrJobsUnsupported is a job read from a backend whose schema has no
// getEmailDiscoveryJob.
var ErrJobsUnsupported = errors.New("the data API has no getEmailDiscoveryJob: it serves the original schema, which cannot report on a job once started")

// NewJobs returns Jobs over c.
func NewJobs(c *graphql.Client) Jobs { return &jobs{c: c} }

type jobs struct {
	c     *graphql.Client
	lacks atomic.Bool
}

func (j *jobs) Unsupported() bool { return j.lacks.Load() }

func (j *jobs) EmailDiscoveryJob(ctx context.Context, id string) (*EmailDiscoveryJob, error) {
	resp, err := gen.GetEmailDiscoveryJob(ctx, j.c, id)
	if graphql.UnknownToSchema(err) {
		j.lacks.Store(true)
		return nil, errors.Join(ErrJobsUnsupported, err)
	}
	return resp.GetEmailDiscoveryJob, err
}
