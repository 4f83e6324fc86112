package store

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestJobWithoutDelayCompletesAtOnce(t *testing.T) {
	s, _ := openTest(t, Options{})
	ctx := context.Background()
	job, err := s.RequestEmailDiscovery(ctx, "alice", "cmp_000007", []string{"CFO", " cfo ", "CTO"})
	require.NoError(t, err)
	assert.Equal(t, JobCompleted, job.Status)
	assert.Equal(t, []string{"CFO", "CTO"}, job.Roles, "trimmed, repeated roles dropped")
	require.Len(t, job.Contacts, 2)
	assert.Equal(t, "CFO", job.Contacts[0].Role)

	c, err := s.Company(ctx, "cmp_000007")
	require.NoError(t, err)
	require.Len(t, c.Contacts, 2)
	for _, ct := range c.Contacts {
		assert.True(t, strings.HasSuffix(ct.Email, "@"+c.Domain), ct.Email)
	}
}

func TestJobCompletesWhenReadAfterItsDelay(t *testing.T) {
	clk := newClock()
	s, _ := openTest(t, Options{Now: clk.Now, JobDelay: 2 * time.Second})
	ctx := context.Background()
	job, err := s.RequestEmailDiscovery(ctx, "alice", "cmp_000008", nil)
	require.NoError(t, err)
	assert.Equal(t, JobPending, job.Status)
	assert.Empty(t, job.Contacts)
	assert.Nil(t, job.CompletedAt)
	assert.Equal(t, clk.Now(), job.RequestedAt)

	clk.Advance(1999 * time.Millisecond)
	c, err := s.Company(ctx, "cmp_000008")
	require.NoError(t, err)
	assert.Empty(t, c.Contacts, "not yet due")

	clk.Advance(time.Millisecond)
	c, err = s.Company(ctx, "cmp_000008")
	require.NoError(t, err)
	require.NotEmpty(t, c.Contacts)
	assert.LessOrEqual(t, len(c.Contacts), 3)
	assert.Equal(t, job.RequestedAt.Add(2*time.Second), c.Contacts[0].DiscoveredAt)
	assert.Equal(t, "CEO", c.Contacts[0].Role, "default roles when none asked")
}

func TestJobForUnknownCompanyIsNotFound(t *testing.T) {
	s, _ := openTest(t, Options{})
	_, err := s.RequestEmailDiscovery(context.Background(), "alice", "cmp_999999", nil)
	assert.ErrorIs(t, err, ErrNotFound)
	_, err = s.RequestEmailDiscovery(context.Background(), "alice", "cmp_000001", make([]string, 11))
	var inv *InvalidError
	assert.ErrorAs(t, err, &inv)
}

func TestJobIsReadByItsOwnerAndSettlesOnTheClock(t *testing.T) {
	clk := newClock()
	s, _ := openTest(t, Options{Now: clk.Now, JobDelay: time.Minute})
	ctx := context.Background()
	job, err := s.RequestEmailDiscovery(ctx, "alice", "cmp_000009", []string{"CTO"})
	require.NoError(t, err)

	got, err := s.EmailDiscoveryJob(ctx, "alice", job.ID)
	require.NoError(t, err)
	assert.Equal(t, JobPending, got.Status)
	assert.Empty(t, got.Contacts)
	_, err = s.EmailDiscoveryJob(ctx, "bob", job.ID)
	assert.ErrorIs(t, err, ErrNotFound, "another owner's job is not found")
	_, err = s.EmailDiscoveryJob(ctx, "alice", "job_none")
	assert.ErrorIs(t, err, ErrNotFound)

	clk.Advance(time.Minute)
	got, err = s.EmailDiscoveryJob(ctx, "alice", job.ID)
	require.NoError(t, err)
	assert.Equal(t, JobCompleted, got.Status, "reading the job settles it once due")
	require.NotNil(t, got.CompletedAt)
	assert.Equal(t, job.RequestedAt.Add(time.Minute), *got.CompletedAt)
	require.NotEmpty(t, got.Contacts)
	assert.Equal(t, "CTO", got.Contacts[0].Role)
}
