package ratelimit

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// allow asks l; the in-process limiter never fails, so an error panics.
func allow(l *Limiter, tool, caller string) Decision {
	d, err := l.Allow(context.Background(), tool, caller)
	if err != nil {
		panic(err)
	}
	return d
}

// sweepEagerly makes tool's buckets sweep whenever a new caller arrives.
func sweepEagerly(l *Limiter, tool string) {
	b := l.tools[tool]
	b.minSweep, b.sweepAt = 0, 0
}

// neverSweep stops tool's buckets from ever being swept.
func neverSweep(l *Limiter, tool string) {
	b := l.tools[tool]
	b.minSweep, b.sweepAt = math.MaxInt, math.MaxInt
	b.lastSweep = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)
}

func TestEvictionNeverChangesADecision(t *testing.T) {
	for _, spec := range []string{"3/m", "10/h", "7/90s"} {
		t.Run(spec, func(t *testing.T) {
			lim, err := ParseLimit(spec)
			require.NoError(t, err)
			limits := map[string]Limit{"tool": lim}
			clock := NewFakeClock()
			evicting := New(limits, WithClock(clock.Now))
			keeping := New(limits, WithClock(clock.Now))
			sweepEagerly(evicting, "tool")
			neverSweep(keeping, "tool")

			rng := rand.New(rand.NewPCG(1, 2))
			evicted := false
			for i := range 20_000 {
				// A few busy callers keep their buckets part-empty while
				// many occasional ones arrive, each new one forcing a sweep.
				clock.Advance(time.Duration(rng.Int64N(int64(lim.Period) / int64(lim.Count))))
				caller := fmt.Sprint("busy-", rng.IntN(3))
				if rng.IntN(3) == 0 {
					caller = fmt.Sprint("occasional-", rng.IntN(500))
				}
				want := allow(keeping, "tool", caller)
				got := allow(evicting, "tool", caller)
				require.Equal(t, want, got, "call %d by %s", i, caller)
				evicted = evicted || len(evicting.tools["tool"].byCaller) < len(keeping.tools["tool"].byCaller)
			}
			assert.True(t, evicted, "the test must exercise eviction")
		})
	}
}

func TestEvictionKeepsABucketThatIsNotFull(t *testing.T) {
	clock := NewFakeClock()
	l := New(map[string]Limit{"ai_search": {Count: 5, Period: time.Minute}}, WithClock(clock.Now))
	sweepEagerly(l, "ai_search")
	for range 5 {
		require.True(t, allow(l, "ai_search", "alice").Allowed)
	}

	// Half a period later alice has 2.5 tokens. New callers force sweeps,
	// which must not replace her bucket with a full one.
	clock.Advance(30 * time.Second)
	for i := range 100 {
		allow(l, "ai_search", fmt.Sprint("other-", i))
	}
	assert.True(t, allow(l, "ai_search", "alice").Allowed)
	assert.True(t, allow(l, "ai_search", "alice").Allowed)
	d := allow(l, "ai_search", "alice")
	assert.False(t, d.Allowed)
	assert.Equal(t, 6*time.Second, d.RetryAfter)
}

func TestEvictionBoundsMemory(t *testing.T) {
	clock := NewFakeClock()
	lim := Limit{Count: 5, Period: time.Minute}
	l := New(map[string]Limit{"ai_search": lim}, WithClock(clock.Now))
	b := l.tools["ai_search"]

	// Many callers within one period: none is full, so all are kept.
	const callers = 10_000
	for i := range callers {
		allow(l, "ai_search", fmt.Sprint("caller-", i))
	}
	assert.Len(t, b.byCaller, callers)

	// One period later they are all full; the next new caller sweeps them.
	clock.Advance(lim.Period)
	allow(l, "ai_search", "late")
	assert.Len(t, b.byCaller, 1)

	// Callers spread over time: the map holds about one period's worth.
	for i := range callers {
		clock.Advance(time.Second)
		allow(l, "ai_search", fmt.Sprint("spread-", i))
		require.LessOrEqual(t, len(b.byCaller), 2*int(lim.Period/time.Second)+2)
	}
}

func TestSweepOnGrowth(t *testing.T) {
	clock := NewFakeClock()
	lim := Limit{Count: 1, Period: time.Hour}
	l := New(map[string]Limit{"t": lim}, WithClock(clock.Now))
	b := l.tools["t"]
	b.minSweep, b.sweepAt = 4, 4

	for i := range 4 {
		allow(l, "t", fmt.Sprint("a-", i)) // each empties its bucket
	}
	clock.Advance(lim.Period / 2)
	for i := range 4 {
		allow(l, "t", fmt.Sprint("b-", i))
	}
	assert.Len(t, b.byCaller, 8, "no bucket is full yet")
	assert.Equal(t, 8, b.sweepAt, "the threshold doubles with the live buckets")

	clock.Advance(lim.Period / 2) // the a- buckets are now full
	allow(l, "t", "c")
	assert.Len(t, b.byCaller, 5)
}

func TestConcurrentCallsWithEviction(t *testing.T) {
	clock := NewFakeClock()
	lim := Limit{Count: 5, Period: time.Minute}
	l := New(map[string]Limit{"ai_search": lim}, WithClock(clock.Now))
	sweepEagerly(l, "ai_search")

	for round := range 5 {
		var allowed atomic.Int64
		var wg sync.WaitGroup
		for i := range 100 {
			wg.Go(func() {
				// Each new caller sweeps while alice's full bucket is in use.
				allow(l, "ai_search", fmt.Sprint("new-", round, "-", i))
				if allow(l, "ai_search", "alice").Allowed {
					allowed.Add(1)
				}
			})
		}
		wg.Wait()
		require.Equal(t, int64(lim.Count), allowed.Load(), "round %d", round)
		clock.Advance(lim.Period)
	}
}
