package ratelimit_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/ratelimit"
	"github.com/companyintel/mcp-server/ratelimit/redistest"
)

// TestRedisDecidesAsMemory replays one random sequence of calls against
// both stores on one clock: every decision and every RetryAfter must agree,
// including limits whose interval is not a whole microsecond (7 per 90 s).
func TestRedisDecidesAsMemory(t *testing.T) {
	srv := redistest.Start(t)
	for _, spec := range []string{"5/m", "10/h", "7/90s", "3/7s"} {
		t.Run(spec, func(t *testing.T) {
			srv.Flush()
			lim, err := ratelimit.ParseLimit(spec)
			require.NoError(t, err)
			limits := map[string]ratelimit.Limit{"tool": lim}
			clock := ratelimit.NewFakeClock()
			memory := ratelimit.New(limits, ratelimit.WithClock(clock.Now))
			shared := newRedis(t, srv, limits, ratelimit.WithClock(clock.Now))

			rng := rand.New(rand.NewPCG(3, 4))
			interval := lim.Period / time.Duration(lim.Count)
			refused := 0
			for i := range 1000 {
				// Two callers each calling about three times faster than
				// their buckets refill; steps of whole microseconds, the
				// Redis clock having no finer grain.
				clock.Advance(time.Duration(rng.Int64N(int64(interval/time.Microsecond)/3)) * time.Microsecond)
				caller := fmt.Sprint("caller-", rng.IntN(2))
				want := allow(memory, "tool", caller)
				got := allow(shared, "tool", caller)
				require.Equal(t, want, got, "call %d by %s", i, caller)
				if !got.Allowed {
					refused++
				}
			}
			assert.Greater(t, refused, 250, "the sequence must meet the limit often")
		})
	}
}

func TestRedisKeyIsToolAndHashedCaller(t *testing.T) {
	srv := redistest.Start(t)
	l := newRedis(t, srv, defaults())
	rdb := srv.Client()
	ctx := context.Background()

	caller := "https://issuer.example/ user:{42}"
	sum := sha256.Sum256([]byte(caller))
	key := "ai_search:" + hex.EncodeToString(sum[:])
	assert.Equal(t, key, ratelimit.Key("ai_search", caller))

	require.True(t, allow(l, "ai_search", caller).Allowed)
	keys, err := rdb.Keys(ctx, "*").Result()
	require.NoError(t, err)
	assert.Equal(t, []string{key}, keys)

	// The key lives until the bucket is full again: one interval (12 s)
	// after one call, on the Redis server's clock.
	ttl, err := rdb.PTTL(ctx, key).Result()
	require.NoError(t, err)
	assert.Greater(t, ttl, time.Duration(0))
	assert.LessOrEqual(t, ttl, 12*time.Second)

	// A refusal writes nothing.
	for range 4 {
		require.True(t, allow(l, "ai_search", caller).Allowed)
	}
	before, err := rdb.Get(ctx, key).Result()
	require.NoError(t, err)
	for range 10 {
		require.False(t, allow(l, "ai_search", caller).Allowed)
	}
	after, err := rdb.Get(ctx, key).Result()
	require.NoError(t, err)
	assert.Equal(t, before, after)

	// An unlimited tool stores nothing.
	allow(l, "search_companies", caller)
	n, err := rdb.DBSize(ctx).Result()
	require.NoError(t, err)
	assert.EqualValues(t, 1, n)
}

// TestReplicasShareOneLimit is three replicas, each with its own limiter
// and connections, in front of one Redis.
func TestReplicasShareOneLimit(t *testing.T) {
	srv := redistest.Start(t)
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&syncWriter{w: &logs}, nil))
	var replicas []*ratelimit.Redis
	for range 3 {
		replicas = append(replicas, newRedis(t, srv, defaults(), ratelimit.WithLogger(logger)))
	}
	ctx := context.Background()

	// calls makes n concurrent ai_search calls by caller, spread over the
	// replicas, and counts the answers.
	calls := func(caller string, n int) (allowed, refused int, errs []error) {
		var mu sync.Mutex
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range n {
			wg.Go(func() {
				<-start
				d, err := replicas[i%len(replicas)].Allow(ctx, "ai_search", caller)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err != nil:
					errs = append(errs, err)
				case d.Allowed:
					allowed++
				default:
					refused++
				}
			})
		}
		close(start)
		wg.Wait()
		return allowed, refused, errs
	}

	t.Run("one user's 50 concurrent calls: exactly the limit passes", func(t *testing.T) {
		allowed, refused, errs := calls("alice", 50)
		require.Empty(t, errs, "Redis is up; no call may fail")
		assert.Equal(t, 5, allowed)
		assert.Equal(t, 45, refused)
	})

	t.Run("a second user is unaffected", func(t *testing.T) {
		allowed, refused, errs := calls("bob", 50)
		require.Empty(t, errs)
		assert.Equal(t, 5, allowed)
		assert.Equal(t, 45, refused)
	})

	t.Run("Redis killed: limited tools refused with a store error, others served", func(t *testing.T) {
		srv.Kill()
		// More failed calls than a client's pool size, so the clients also
		// go through go-redis's "stop dialing" state.
		allowed, refused, errs := calls("carol", 60)
		assert.Zero(t, allowed, "never unlimited")
		assert.Zero(t, refused)
		require.Len(t, errs, 60)
		for _, err := range errs {
			var se *ratelimit.StoreError
			require.True(t, errors.As(err, &se), "%v", err)
			assert.Equal(t, "Redis refused the connection", se.Cause)
		}
		for _, r := range replicas {
			d, err := r.Allow(ctx, "search_companies", "carol")
			require.NoError(t, err, "a tool without a limit never asks Redis")
			assert.True(t, d.Allowed)
			assert.Error(t, r.Ping(ctx))
		}
		assert.Equal(t, 3, strings.Count(logs.String(), "rate-limit store unavailable"),
			"one line per replica per outage, not one per call:\n%s", logs.String())
	})

	t.Run("Redis back: limits work again, with nothing reset by hand", func(t *testing.T) {
		srv.Restart()
		// go-redis stops dialing after a run of failures and tries again in
		// the background; wait for each replica to reach Redis again.
		for _, r := range replicas {
			require.Eventually(t, func() bool { return r.Ping(ctx) == nil }, 20*time.Second, 10*time.Millisecond)
		}
		// The restarted Redis kept nothing (no persistence), so carol starts
		// with a full bucket: exactly the limit again.
		allowed, refused, errs := calls("carol", 50)
		require.Empty(t, errs)
		assert.Equal(t, 5, allowed)
		assert.Equal(t, 45, refused)
		assert.Equal(t, 3, strings.Count(logs.String(), "rate-limit store available again"))
	})
}

func TestRedisThatDoesNotAnswerFailsClosed(t *testing.T) {
	srv := redistest.Start(t)
	ro, err := ratelimit.ParseRedisURL(srv.URL())
	require.NoError(t, err)
	l := ratelimit.NewRedis(ro, defaults(), ratelimit.WithLogger(slog.New(slog.DiscardHandler)))
	t.Cleanup(func() { _ = l.Close() })
	ctx := context.Background()
	// succeeds waits until a check by caller passes. The deadline is the
	// default 50 ms, which a busy machine can miss while dialing; what is
	// asserted is that checks pass again, not how soon.
	succeeds := func(caller string) {
		require.Eventually(t, func() bool {
			d, err := l.Allow(ctx, "ai_search", caller)
			return err == nil && d.Allowed
		}, 20*time.Second, 10*time.Millisecond)
	}
	succeeds("alice") // a connection is open

	srv.Pause()
	d, err := l.Allow(ctx, "ai_search", "alice")
	var se *ratelimit.StoreError
	require.True(t, errors.As(err, &se), "%v", err)
	assert.Equal(t, "Redis did not answer within 50ms", se.Cause)
	assert.False(t, d.Allowed)
	assert.Equal(t, ratelimit.Limit{Count: 5, Period: time.Minute}, d.Limit, "the refusal can name the limit")
	d, err = l.Allow(ctx, "get_company", "alice")
	require.NoError(t, err)
	assert.True(t, d.Allowed)

	srv.Resume()
	// bob, not alice: alice's timed-out script may still run once Redis
	// resumes, spending a token nobody was given (failing closed, never open).
	succeeds("bob")
}

func TestParseRedisURL(t *testing.T) {
	for _, ok := range []string{
		"redis://127.0.0.1:6379",
		"redis://localhost/2",
		"redis://:secret@127.0.0.1:6379/0",
		"redis://user:secret@[::1]:6379",
		"rediss://user:secret@redis.internal.example:6380/1",
		"redis://redis.internal.example:6379",
		"unix:///run/redis.sock",
	} {
		_, err := ratelimit.ParseRedisURL(ok)
		assert.NoError(t, err, ok)
	}
	for _, tt := range []struct{ url, want string }{
		{"http://127.0.0.1:6379", "invalid URL scheme: http"},
		{"redis://:s3cret@127.0.0.1:notaport", "invalid port"},
		{"redis://:s3cret@127.0.0.1:6379/zero", `invalid database number: "zero"`},
		{"redis://127.0.0.1:6379?dial_timeout=soon", "dial_timeout"},
		{"redis://:s3cret@redis.internal.example:6379", "sends a password in the clear to redis.internal.example:6379; use rediss://"},
		{"127.0.0.1:6379", "not a usable Redis URL"},
	} {
		_, err := ratelimit.ParseRedisURL(tt.url)
		require.Error(t, err, tt.url)
		assert.Contains(t, err.Error(), tt.want, tt.url)
		assert.NotContains(t, err.Error(), "s3cret", "an error never repeats the password")
	}
}

// syncWriter lets several replicas' loggers share one buffer.
type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
