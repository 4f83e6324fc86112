package app

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/graphql/query"
)

// vocabularySource answers FilterVocabulary, counting the calls; nothing
// else of query.Reader is used by the cache.
type vocabularySource struct {
	query.Reader
	calls int
	err   error
}

func (s *vocabularySource) FilterVocabulary(ctx context.Context) (*query.Vocabulary, error) {
	s.calls++
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if s.err != nil {
		return nil, s.err
	}
	return &query.Vocabulary{}, nil
}

// A backend failure is remembered for vocabularyRetry, so that searches do
// not each wait on it; then the vocabulary is asked for again.
func TestVocabularyCacheRemembersABackendFailureForAWhile(t *testing.T) {
	src := &vocabularySource{err: errors.New("backend down")}
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	c := &vocabularyCache{r: src, now: func() time.Time { return now }}

	_, err := c.FilterVocabulary(context.Background())
	require.Error(t, err)
	_, err = c.FilterVocabulary(context.Background())
	assert.EqualError(t, err, "backend down")
	assert.Equal(t, 1, src.calls, "the failure is remembered")

	src.err = nil
	now = now.Add(vocabularyRetry)
	_, err = c.FilterVocabulary(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 2, src.calls)
}

// A caller that gave up (its context cancelled) leaves nothing behind: the
// next caller's read reaches the backend.
func TestVocabularyCacheForgetsACallersCancellation(t *testing.T) {
	src := &vocabularySource{}
	c := &vocabularyCache{r: src, now: func() time.Time { return time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC) }}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()

	_, err := c.FilterVocabulary(cancelled)
	require.ErrorIs(t, err, context.Canceled)
	v, err := c.FilterVocabulary(context.Background())
	require.NoError(t, err)
	assert.NotNil(t, v)
	assert.Equal(t, 2, src.calls)
}
