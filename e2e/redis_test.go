package e2e

import (
	"context"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/ratelimit/redistest"
)

// TestTwoServersShareOneLimitThroughRedis: two server processes given the
// same --redis-url spend one user's ai_search budget together: ten calls
// alternating between them pass exactly five times. With Redis stopped,
// ai_search is refused as limit_store_unavailable, never served unlimited,
// while search_companies still works.
func TestTwoServersShareOneLimitThroughRedis(t *testing.T) {
	redis := redistest.Start(t)
	ctx := testContext(t)
	rev := revision{version: mcp.ProtocolVersion20260728}
	// A deadline generous for a busy machine: this test counts decisions.
	flags := []string{"--redis-url", redis.URL(), "--redis-timeout", "5s"}
	replicas := []*session{startSession(t, ctx, rev, flags...), startSession(t, ctx, rev, flags...)}

	assertOneSharedLimit(t, ctx, redis, replicas[0], replicas[1])
	require.Contains(t, replicas[0].stderr.String(), "rate-limit store unavailable", "the operator is told too")
}

// toolCaller is one replica as a test reaches it: over stdio or over HTTP.
type toolCaller interface {
	call(t *testing.T, ctx context.Context, tool string, args map[string]any) *mcp.CallToolResult
}

// assertOneSharedLimit holds two replicas sharing redis to one ai_search
// budget: ten calls alternating between them pass exactly five times. Then
// it stops Redis: ai_search is refused as limit_store_unavailable on both,
// never served unlimited, while search_companies still works.
func assertOneSharedLimit(t *testing.T, ctx context.Context, redis *redistest.Server, replicas ...toolCaller) {
	t.Helper()
	args := map[string]any{"query": "robotics companies in Germany", "limit": 1}
	outcomes := map[string]int{}
	for i := range 10 {
		res := replicas[i%len(replicas)].call(t, ctx, "ai_search", args)
		if !res.IsError {
			outcomes["ok"]++
			continue
		}
		e, text := decodeFailure(t, res)
		outcomes[e.Code]++
		if e.Code == "rate_limited" {
			assert.Positive(t, e.RetryAfterS, text)
		}
	}
	assert.Equal(t, map[string]int{"ok": 5, "rate_limited": 5}, outcomes)

	redis.Kill()
	for _, r := range replicas {
		e, text := decodeFailure(t, r.call(t, ctx, "ai_search", args))
		assert.Equal(t, "limit_store_unavailable", e.Code, text)
		assert.True(t, e.Retryable)
		assert.Equal(t, 5.0, e.RetryAfterS)
		assert.Contains(t, text, "ai_search failed [limit_store_unavailable]: the rate-limit store is unavailable: Redis refused the connection. "+
			"ai_search has a rate limit of 5 per minute per caller, so it is refused rather than served unlimited; retry after 5 s.")
		decodeOK[searchResult](t, r.call(t, ctx, "search_companies", map[string]any{"query": "robotics", "limit": 2}))
	}
}
