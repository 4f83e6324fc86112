package ratelimit_test

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/ratelimit"
	"github.com/companyintel/mcp-server/ratelimit/redistest"
)

// limits covers the defaults, common flags, and counts whose intervals
// x/time/rate's float64 arithmetic does not hit exactly.
var limits = []string{"5/m", "10/h", "120/m", "2/s", "100/1h", "1/d", "125/h", "625/h", "1000/h"}

// allower is what both limiters answer; every test below runs on both, so
// the Redis limiter is held to exactly the in-process limiter's answers.
type allower interface {
	Allow(ctx context.Context, tool, caller string) (ratelimit.Decision, error)
	Refund(ctx context.Context, tool, caller string) error
	Limit(tool string) ratelimit.Limit
	Describe(tool string) string
}

// maker makes a limiter with a store's buckets.
type maker func(limits map[string]ratelimit.Limit, opts ...ratelimit.Option) allower

// eachStore runs test once with in-process buckets and once with buckets in
// a real redis-server, emptied for every limiter made.
func eachStore(t *testing.T, test func(t *testing.T, mk maker)) {
	t.Run("memory", func(t *testing.T) {
		test(t, func(limits map[string]ratelimit.Limit, opts ...ratelimit.Option) allower {
			return ratelimit.New(limits, opts...)
		})
	})
	t.Run("redis", func(t *testing.T) {
		srv := redistest.Start(t)
		test(t, func(limits map[string]ratelimit.Limit, opts ...ratelimit.Option) allower {
			srv.Flush()
			return newRedis(t, srv, limits, opts...)
		})
	})
}

// newRedis makes a Redis limiter on srv, closed when the test ends. Its
// deadline is generous: these tests are about what it decides, on a
// machine that may be busy; the outage tests use the default.
func newRedis(t *testing.T, srv *redistest.Server, limits map[string]ratelimit.Limit, opts ...ratelimit.Option) *ratelimit.Redis {
	t.Helper()
	ro, err := ratelimit.ParseRedisURL(srv.URL())
	require.NoError(t, err)
	defaults := []ratelimit.Option{ratelimit.WithTimeout(5 * time.Second), ratelimit.WithLogger(slog.New(slog.DiscardHandler))}
	r := ratelimit.NewRedis(ro, limits, append(defaults, opts...)...)
	t.Cleanup(func() { _ = r.Close() })
	return r
}

func newLimiter(t *testing.T, mk maker, spec string) (allower, *ratelimit.FakeClock, ratelimit.Limit) {
	t.Helper()
	lim, err := ratelimit.ParseLimit(spec)
	require.NoError(t, err)
	clock := ratelimit.NewFakeClock()
	return mk(map[string]ratelimit.Limit{"tool": lim}, ratelimit.WithClock(clock.Now)), clock, lim
}

// allow is Allow for a store that must answer: an error panics, which also
// works in a goroutine.
func allow(l allower, tool, caller string) ratelimit.Decision {
	d, err := l.Allow(context.Background(), tool, caller)
	if err != nil {
		panic(err)
	}
	return d
}

// spend calls Allow until it refuses and returns how many calls passed and
// the refusal.
func spend(t *testing.T, l allower, tool, caller string) (int, ratelimit.Decision) {
	t.Helper()
	for n := 0; n < 1_000_000; n++ {
		if d := allow(l, tool, caller); !d.Allowed {
			return n, d
		}
	}
	t.Fatalf("Allow(%q, %q) never refused", tool, caller)
	return 0, ratelimit.Decision{}
}

func TestBurstThenRefusal(t *testing.T) {
	eachStore(t, func(t *testing.T, mk maker) {
		for _, spec := range limits {
			t.Run(spec, func(t *testing.T) {
				l, _, lim := newLimiter(t, mk, spec)
				n, d := spend(t, l, "tool", "alice")
				assert.Equal(t, lim.Count, n, "exactly the burst passes")
				assert.Equal(t, ratelimit.Decision{RetryAfter: lim.Period / time.Duration(lim.Count), Limit: lim}, d)

				// Refusals spend nothing: asking again gives the same answer.
				for range 10 {
					assert.Equal(t, d, allow(l, "tool", "alice"))
				}
			})
		}
	})
}

// A refund gives one spent token back, and never more than a full bucket.
func TestRefundGivesOneTokenBackNeverPastTheBurst(t *testing.T) {
	eachStore(t, func(t *testing.T, mk maker) {
		for _, spec := range limits {
			t.Run(spec, func(t *testing.T) {
				l, clock, lim := newLimiter(t, mk, spec)
				n, _ := spend(t, l, "tool", "alice")
				require.Equal(t, lim.Count, n)
				require.NoError(t, l.Refund(context.Background(), "tool", "alice"))
				assert.True(t, allow(l, "tool", "alice").Allowed, "the token given back")
				assert.False(t, allow(l, "tool", "alice").Allowed, "only one")

				require.NoError(t, l.Refund(context.Background(), "tool", "bob"), "a caller never seen has a full bucket")
				n, _ = spend(t, l, "tool", "bob")
				assert.Equal(t, lim.Count, n, "a refund to a full bucket adds nothing")

				assert.True(t, allow(l, "tool", "carol").Allowed)
				clock.Advance(lim.Period) // full again
				require.NoError(t, l.Refund(context.Background(), "tool", "carol"))
				n, _ = spend(t, l, "tool", "carol")
				assert.Equal(t, lim.Count, n, "a refund to a bucket refilled meanwhile adds nothing")

				require.NoError(t, l.Refund(context.Background(), "unlimited", "alice"), "a tool without a limit has nothing to give back")
			})
		}
	})
}

func TestRefillAfterPeriod(t *testing.T) {
	eachStore(t, func(t *testing.T, mk maker) {
		for _, spec := range limits {
			t.Run(spec, func(t *testing.T) {
				l, clock, lim := newLimiter(t, mk, spec)
				n, _ := spend(t, l, "tool", "alice")
				require.Equal(t, lim.Count, n)

				clock.Advance(lim.Period)
				n, _ = spend(t, l, "tool", "alice")
				assert.Equal(t, lim.Count, n, "a full bucket after one period")

				clock.Advance(10 * lim.Period)
				n, _ = spend(t, l, "tool", "alice")
				assert.Equal(t, lim.Count, n, "never more than the burst, however long idle")
			})
		}
	})
}

func TestPartialRefill(t *testing.T) {
	eachStore(t, func(t *testing.T, mk maker) {
		for _, spec := range limits {
			t.Run(spec, func(t *testing.T) {
				l, clock, lim := newLimiter(t, mk, spec)
				interval := lim.Period / time.Duration(lim.Count)
				_, _ = spend(t, l, "tool", "alice")

				clock.Advance(interval - time.Millisecond)
				d := allow(l, "tool", "alice")
				assert.False(t, d.Allowed, "a millisecond early")
				assert.Equal(t, time.Millisecond, d.RetryAfter)

				clock.Advance(time.Millisecond)
				assert.True(t, allow(l, "tool", "alice").Allowed, "one token after period/count")
				d = allow(l, "tool", "alice")
				assert.False(t, d.Allowed, "and only one")
				assert.Equal(t, interval, d.RetryAfter)
			})
		}
	})
}

func TestConcurrentCallsNeverExceedBurst(t *testing.T) {
	eachStore(t, func(t *testing.T, mk maker) {
		for _, spec := range []string{"5/m", "10/h", "64/s"} {
			t.Run(spec, func(t *testing.T) {
				l, _, lim := newLimiter(t, mk, spec)
				var allowed atomic.Int64
				var wg sync.WaitGroup
				start := make(chan struct{})
				for range 100 {
					wg.Go(func() {
						<-start
						for range 3 {
							if allow(l, "tool", "alice").Allowed {
								allowed.Add(1)
							}
						}
					})
				}
				close(start)
				wg.Wait()
				assert.Equal(t, int64(lim.Count), allowed.Load())
			})
		}
	})
}

func TestCallersAreSeparate(t *testing.T) {
	eachStore(t, func(t *testing.T, mk maker) {
		l, _, lim := newLimiter(t, mk, "5/m")
		n, _ := spend(t, l, "tool", "alice")
		require.Equal(t, lim.Count, n)

		n, _ = spend(t, l, "tool", "bob")
		assert.Equal(t, lim.Count, n, "alice's calls do not spend bob's tokens")
		n, _ = spend(t, l, "tool", "")
		assert.Equal(t, lim.Count, n, "the empty caller is a caller too")
	})
}

func TestToolsAreSeparate(t *testing.T) {
	eachStore(t, func(t *testing.T, mk maker) {
		clock := ratelimit.NewFakeClock()
		l := mk(defaults(), ratelimit.WithClock(clock.Now))

		n, d := spend(t, l, "ai_search", "alice")
		assert.Equal(t, 5, n)
		assert.Equal(t, 12*time.Second, d.RetryAfter)

		n, d = spend(t, l, "request_email_discovery", "alice")
		assert.Equal(t, 10, n, "ai_search calls do not spend email discovery tokens")
		assert.Equal(t, 6*time.Minute, d.RetryAfter)
		assert.Equal(t, ratelimit.Limit{Count: 10, Period: time.Hour}, d.Limit)
	})
}

func TestToolWithoutLimit(t *testing.T) {
	eachStore(t, func(t *testing.T, mk maker) {
		clock := ratelimit.NewFakeClock()
		l := mk(map[string]ratelimit.Limit{
			"ai_search": {Count: 5, Period: time.Minute},
			"off":       {},
		}, ratelimit.WithClock(clock.Now))

		for _, tool := range []string{"search_companies", "off"} {
			for range 1000 {
				require.Equal(t, ratelimit.Decision{Allowed: true}, allow(l, tool, "alice"))
			}
			assert.True(t, l.Limit(tool).Unlimited())
			assert.Equal(t, "", l.Describe(tool))
			allocs := testing.AllocsPerRun(100, func() { allow(l, tool, "alice") })
			assert.Zero(t, allocs, "an unlimited tool costs no allocation (and no call to Redis)")
		}
	})
}

func TestAllowDoesNotAllocateForKnownCaller(t *testing.T) {
	l, _, _ := newLimiter(t, func(limits map[string]ratelimit.Limit, opts ...ratelimit.Option) allower {
		return ratelimit.New(limits, opts...)
	}, "5/m")
	allow(l, "tool", "alice")
	allocs := testing.AllocsPerRun(100, func() { allow(l, "tool", "alice") })
	assert.Zero(t, allocs)
}

func TestClockGoingBackGivesNothing(t *testing.T) {
	eachStore(t, func(t *testing.T, mk maker) {
		l, clock, lim := newLimiter(t, mk, "5/m")
		_, _ = spend(t, l, "tool", "alice")
		clock.Advance(-time.Hour)
		n, _ := spend(t, l, "tool", "alice")
		assert.Zero(t, n)
		clock.Advance(time.Hour + lim.Period)
		n, _ = spend(t, l, "tool", "alice")
		assert.Equal(t, lim.Count, n)
	})
}

func TestDescribe(t *testing.T) {
	eachStore(t, func(t *testing.T, mk maker) {
		l := mk(map[string]ratelimit.Limit{
			"ai_search":               {Count: 5, Period: time.Minute},
			"request_email_discovery": {Count: 10, Period: time.Hour},
			"once":                    {Count: 1, Period: 24 * time.Hour},
		})
		assert.Equal(t, "limited to 5 calls per minute per caller", l.Describe("ai_search"))
		assert.Equal(t, "limited to 10 calls per hour per caller", l.Describe("request_email_discovery"))
		assert.Equal(t, "limited to 1 call per day per caller", l.Describe("once"))
		assert.Equal(t, "", l.Describe("get_company"))
		assert.Equal(t, ratelimit.Limit{Count: 5, Period: time.Minute}, l.Limit("ai_search"))
	})
}

func TestRetryAfterSeconds(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want int
	}{
		{0, 0},
		{time.Microsecond, 1},
		{500 * time.Millisecond, 1},
		{12 * time.Second, 12},
		{5760 * time.Millisecond, 6},
		{6 * time.Minute, 360},
	}
	for _, tt := range tests {
		t.Run(tt.d.String(), func(t *testing.T) {
			assert.Equal(t, tt.want, ratelimit.Decision{RetryAfter: tt.d}.RetryAfterSeconds())
		})
	}
}

func TestNewPanicsOnLimitWithoutPeriod(t *testing.T) {
	const want = `ratelimit: limit for "ai_search" has count 5 but period 0s`
	assert.PanicsWithValue(t, want, func() {
		ratelimit.New(map[string]ratelimit.Limit{"ai_search": {Count: 5}})
	})
	assert.PanicsWithValue(t, want, func() {
		ratelimit.NewRedis(&redis.Options{}, map[string]ratelimit.Limit{"ai_search": {Count: 5}})
	})
}
