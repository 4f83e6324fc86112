package ratelimit

import (
	"fmt"
	"math"
	"time"
)

// A Limiter decides whether a tool call may go ahead. It keeps one token
// bucket per tool and caller, made on the caller's first call, and is safe
// for use by many goroutines.
type Limiter struct {
	now   func() time.Time
	tools map[string]*buckets // read-only after New; only limited tools
}

// An Option configures a Limiter made by New.
type Option func(*Limiter)

// WithClock makes the Limiter read the time from now instead of time.Now,
// so tests can move time forward without sleeping.
func WithClock(now func() time.Time) Option {
	return func(l *Limiter) { l.now = now }
}

// New returns a Limiter applying limits, keyed by tool name. Tools absent
// from limits, or with a zero Limit, are not limited. New panics if a limit
// has a positive Count but no positive Period, which ParseLimit never
// returns.
func New(limits map[string]Limit, opts ...Option) *Limiter {
	l := &Limiter{now: time.Now, tools: make(map[string]*buckets)}
	for _, opt := range opts {
		opt(l)
	}
	for tool, lim := range limits {
		if lim.Unlimited() {
			continue
		}
		if lim.Period <= 0 {
			panic(fmt.Sprintf("ratelimit: limit for %q has count %d but period %v", tool, lim.Count, lim.Period))
		}
		l.tools[tool] = newBuckets(lim)
	}
	return l
}

// A Decision is a Limiter's answer for one call.
type Decision struct {
	// Allowed reports whether the call may go ahead; if so, it has
	// spent a token.
	Allowed bool
	// RetryAfter is, for a refused call, how long until the caller's bucket
	// holds a token again. It is zero for an allowed call.
	RetryAfter time.Duration
	// Limit is the tool's limit; the zero Limit if the tool has none.
	Limit Limit
}

// RetryAfterSeconds returns RetryAfter in whole seconds, rounded up so that
// a caller who waits that long is not refused again for being early.
func (d Decision) RetryAfterSeconds() int {
	return int(math.Ceil(d.RetryAfter.Seconds()))
}

// Allow reports whether caller may call tool now, spending a token if so.
// It never blocks, and a refusal spends nothing. A tool without a limit is
// always allowed, without taking a lock or storing anything. Callers are
// opaque strings; the empty string is one caller like any other.
func (l *Limiter) Allow(tool, caller string) Decision {
	b, ok := l.tools[tool]
	if !ok {
		return Decision{Allowed: true}
	}
	return b.allow(caller, l.now())
}

// Limit returns tool's limit, or the zero Limit if it has none.
func (l *Limiter) Limit(tool string) Limit {
	if b, ok := l.tools[tool]; ok {
		return b.limit
	}
	return Limit{}
}

// Describe returns a phrase for tool's description stating its limit, as in
// "limited to 5 calls per minute per caller", so a model knows the limit
// before it meets it. It returns "" for a tool without a limit.
func (l *Limiter) Describe(tool string) string {
	b, ok := l.tools[tool]
	if !ok {
		return ""
	}
	return b.limit.describe()
}
