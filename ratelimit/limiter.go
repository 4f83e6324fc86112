package ratelimit

import (
	"context"
	"fmt"
	"log/slog"
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

// An Option configures a Limiter made by New or a Redis made by NewRedis.
type Option func(*options)

type options struct {
	now     func() time.Time
	timeout time.Duration
	logger  *slog.Logger
}

// WithClock makes the limiter read the time from now instead of time.Now
// (or, for Redis, instead of the Redis server's clock), so tests can move
// time forward without sleeping.
func WithClock(now func() time.Time) Option {
	return func(o *options) { o.now = now }
}

// New returns a Limiter applying limits, keyed by tool name. Tools absent
// from limits, or with a zero Limit, are not limited. New panics if a limit
// has a positive Count but no positive Period, which ParseLimit never
// returns.
func New(limits map[string]Limit, opts ...Option) *Limiter {
	o := options{now: time.Now}
	for _, opt := range opts {
		opt(&o)
	}
	l := &Limiter{now: o.now, tools: make(map[string]*buckets)}
	for tool, lim := range checked(limits) {
		l.tools[tool] = newBuckets(lim)
	}
	return l
}

// checked returns the limited tools of limits, panicking on a limit with a
// Count but no Period.
func checked(limits map[string]Limit) map[string]Limit {
	out := make(map[string]Limit)
	for tool, lim := range limits {
		if lim.Unlimited() {
			continue
		}
		if lim.Period <= 0 {
			panic(fmt.Sprintf("ratelimit: limit for %q has count %d but period %v", tool, lim.Count, lim.Period))
		}
		out[tool] = lim
	}
	return out
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
//
// The buckets live in this process, so the error is always nil; ctx and the
// error are there so that Limiter and Redis answer the same question alike.
func (l *Limiter) Allow(_ context.Context, tool, caller string) (Decision, error) {
	b, ok := l.tools[tool]
	if !ok {
		return Decision{Allowed: true}, nil
	}
	return b.allow(caller, l.now()), nil
}

// Refund gives back the token a call of tool by caller spent, when the call
// turned out to do nothing (a write refused as not found). A tool without a
// limit has nothing to give back.
func (l *Limiter) Refund(_ context.Context, tool, caller string) error {
	if b, ok := l.tools[tool]; ok {
		b.refund(caller, l.now())
	}
	return nil
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

// Remaining reports how many calls caller may make of tool now, spending
// nothing (a dry run asks); -1 when the tool has no limit.
func (l *Limiter) Remaining(_ context.Context, tool, caller string) (int, Limit, error) {
	b, ok := l.tools[tool]
	if !ok {
		return -1, Limit{}, nil
	}
	return b.remaining(caller, l.now()), b.limit, nil
}
