package ratelimit

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// defaultMinSweep is the bucket count below which a tool's buckets are never
// swept for size alone: small maps cost little, and scanning them on every
// new caller would not.
const defaultMinSweep = 1024

// buckets holds one tool's token buckets, one per caller.
//
// A bucket is dropped only when it is full. A full bucket behaves exactly
// like the new one made if its caller returns, so eviction can never hand a
// caller tokens earlier than refilling would have. It also bounds memory:
// an idle bucket is full after one period, so the map holds roughly the
// callers seen in the last period, never everyone ever seen.
type buckets struct {
	limit Limit
	rate  rate.Limit

	// mu guards the map and is held while a bucket is used, so a sweep
	// cannot drop a bucket between its lookup and its spending, which
	// would lose the spent token and hand out a full bucket.
	mu        sync.Mutex
	byCaller  map[string]*rate.Limiter
	sweepAt   int       // sweep when a new caller finds this many buckets
	lastSweep time.Time // or when a period has passed since this
	minSweep  int       // defaultMinSweep, except in tests
}

func newBuckets(lim Limit) *buckets {
	return &buckets{
		limit: lim,
		// Count per Period, as tokens per second; rate.Every(Period/Count)
		// would round the interval down to a whole nanosecond.
		rate:     rate.Limit(float64(lim.Count) / lim.Period.Seconds()),
		byCaller: make(map[string]*rate.Limiter),
		sweepAt:  defaultMinSweep,
		minSweep: defaultMinSweep,
	}
}

func (b *buckets) allow(caller string, now time.Time) Decision {
	b.mu.Lock()
	defer b.mu.Unlock()

	lim := b.get(caller, now)
	// AllowN changes nothing when it refuses, so a refusal spends nothing;
	// ReserveN followed by CancelAt would restore the token in floating
	// point and could drift.
	if lim.AllowN(now, 1) {
		return Decision{Allowed: true, Limit: b.limit}
	}
	return Decision{RetryAfter: b.wait(lim.TokensAt(now)), Limit: b.limit}
}

// refund gives caller's bucket one token back, never filling it past its
// burst. A caller without a bucket has a full one: nothing to give back.
func (b *buckets) refund(caller string, now time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	lim, ok := b.byCaller[caller]
	if !ok {
		return
	}
	// AllowN with -1 adds a token to the count as of now; the bucket caps
	// the count at its burst whenever it is next read, so a refund into a
	// bucket that refilled meanwhile cannot hand out more than a full one.
	lim.AllowN(now, -1)
}

// wait returns how long a bucket holding tokens (< 1) takes to hold one,
// computed as x/time/rate does for a reservation. Its float64 arithmetic can
// land a few nanoseconds short of the exact interval (3.599999999s for
// 1000/h), so the result is rounded up to a microsecond: that removes the
// noise and never tells a caller to come back early.
func (b *buckets) wait(tokens float64) time.Duration {
	d := time.Duration((1 - tokens) / float64(b.rate) * float64(time.Second))
	if d <= 0 {
		return time.Microsecond
	}
	if r := d.Truncate(time.Microsecond); r != d {
		d = r + time.Microsecond
	}
	return d
}

// get returns caller's bucket, making it if need be. A new caller may first
// trigger a sweep: when the map has doubled since the last one, which keeps
// the cost per call constant, or when a period has passed, since by then
// every bucket not used since the last sweep is full.
func (b *buckets) get(caller string, now time.Time) *rate.Limiter {
	if lim, ok := b.byCaller[caller]; ok {
		return lim
	}
	if len(b.byCaller) >= b.sweepAt || now.Sub(b.lastSweep) >= b.limit.Period {
		b.sweep(now)
	}
	lim := rate.NewLimiter(b.rate, b.limit.Count)
	b.byCaller[caller] = lim
	return lim
}

// sweep drops the buckets that are full at now.
func (b *buckets) sweep(now time.Time) {
	burst := float64(b.limit.Count)
	for caller, lim := range b.byCaller {
		if lim.TokensAt(now) >= burst {
			delete(b.byCaller, caller)
		}
	}
	b.sweepAt = max(b.minSweep, 2*len(b.byCaller))
	b.lastSweep = now
}

// remaining is how many whole tokens caller's bucket holds at now; a caller
// without a bucket has a full one. It makes no bucket and spends nothing.
func (b *buckets) remaining(caller string, now time.Time) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	lim, ok := b.byCaller[caller]
	if !ok {
		return b.limit.Count
	}
	return int(lim.TokensAt(now))
}
