package ratelimit

import (
	"context"
	"crypto/sha256"
	_ "embed" // the bucket script
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/companyintel/mcp-server/internal/loopback"
)

// DefaultRedisTimeout bounds each call to Redis. A limit check on a healthy
// Redis nearby takes well under a millisecond; one that takes longer than
// this means Redis is in trouble, and the call is refused at once rather
// than left to stall behind it.
const DefaultRedisTimeout = 50 * time.Millisecond

// StoreRetryAfter is the wait suggested to a caller refused because the
// limit store did not answer: long enough for a restarted Redis to come
// back, short enough that an agent does not give up.
const StoreRetryAfter = 5 * time.Second

//go:embed redis.lua
var bucketScript string

var bucket = redis.NewScript(bucketScript)

//go:embed refund.lua
var refundScript string

var refund = redis.NewScript(refundScript)

// A Redis limiter keeps the token buckets in Redis, so that every replica
// pointed at the same Redis spends from the same bucket: N replicas enforce
// one limit per caller, not N.
//
// It decides exactly as Limiter does (same Limit, same burst, same
// RetryAfter, a refusal spends nothing): each check is one atomic script on
// one key, timed by the Redis server's clock, so replicas' clocks do not
// matter. Keys are "<tool>:<hex sha256(caller)>", bounded in size, free of
// caller-chosen characters, and expire when their bucket is full again.
//
// When Redis does not answer within the deadline, a limited tool is refused
// with a *StoreError (fail closed: never unlimited); tools without a limit
// never touch Redis. Nothing needs resetting when Redis returns: the next
// call simply reaches it.
type Redis struct {
	client  *redis.Client
	limits  map[string]Limit // only limited tools
	now     func() time.Time // nil: the Redis server's clock
	timeout time.Duration
	logger  *slog.Logger
	down    atomic.Bool // the last call failed; logged once per outage
}

// WithTimeout sets the deadline of each call to Redis (default
// DefaultRedisTimeout). It has no effect on a Limiter.
func WithTimeout(d time.Duration) Option {
	return func(o *options) { o.timeout = d }
}

// WithLogger makes a Redis limiter log when the store stops answering and
// when it answers again, once each per outage. It has no effect on a Limiter.
func WithLogger(l *slog.Logger) Option {
	return func(o *options) { o.logger = l }
}

// ParseRedisURL checks a Redis URL (redis://[user:password@]host:port[/db],
// rediss://… for TLS, or unix:///path) and returns its client options. Its
// errors never repeat the URL, which may hold a password. A password over
// plain redis:// is refused unless the host is loopback: credentials do not
// cross a network in the clear.
func ParseRedisURL(raw string) (*redis.Options, error) {
	opts, err := redis.ParseURL(raw)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // url.Error quotes the whole URL, password included
		}
		return nil, fmt.Errorf("not a usable Redis URL (want redis://[user:password@]host:port[/db], rediss://… or unix:///path): %s",
			strings.TrimPrefix(err.Error(), "redis: "))
	}
	if opts.Password != "" && opts.Network == "tcp" && opts.TLSConfig == nil && !loopback.Addr(opts.Addr) {
		return nil, fmt.Errorf("the Redis URL sends a password in the clear to %s; use rediss:// (TLS) for a Redis that is not on loopback", opts.Addr)
	}
	return opts, nil
}

// NewRedis returns a limiter applying limits, keyed by tool name, with its
// buckets in the Redis that opts (from ParseRedisURL) points at. It does not
// connect: the first limited call does, and a Redis that is down then is
// reported by that call, not by NewRedis. Like New, it panics on a limit
// with a Count but no Period.
//
// The client is set for a limit check: one attempt per call, no retries (a
// script whose reply was lost has already spent its token; running it again
// would spend a second), and every wait bounded by the timeout.
func NewRedis(client *redis.Options, limits map[string]Limit, opts ...Option) *Redis {
	o := options{timeout: DefaultRedisTimeout}
	for _, opt := range opts {
		opt(&o)
	}
	if o.logger != nil {
		// go-redis logs dial failures on its own, unstructured, to stderr,
		// once per failed call during an outage; the limiter's own two lines
		// per outage say what matters, so its lines go to debug.
		redis.SetLogger(debugLog{o.logger})
	}
	c := *client
	c.MaxRetries = -1
	c.DialerRetries = 1
	c.DialTimeout = o.timeout
	c.ReadTimeout = o.timeout
	c.WriteTimeout = o.timeout
	c.PoolTimeout = o.timeout
	c.ContextTimeoutEnabled = true
	return &Redis{
		client:  redis.NewClient(&c),
		limits:  checked(limits),
		now:     o.now,
		timeout: o.timeout,
		logger:  o.logger,
	}
}

// Allow reports whether caller may call tool now, spending a token if so,
// exactly as Limiter.Allow does, but from the bucket all replicas share.
// A tool without a limit is allowed without a word to Redis. When Redis
// fails or does not answer within the timeout, Allow returns a *StoreError
// and a Decision that carries only the tool's Limit: the call must be
// refused.
func (r *Redis) Allow(ctx context.Context, tool, caller string) (Decision, error) {
	lim, ok := r.limits[tool]
	if !ok {
		return Decision{Allowed: true}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()

	now := ""
	if r.now != nil {
		now = strconv.FormatInt(r.now().UnixMicro(), 10)
	}
	res, err := bucket.Run(ctx, r.client, []string{Key(tool, caller)},
		lim.Period.Microseconds(), lim.Count, now).Int64Slice()
	if err == nil && len(res) != 2 {
		err = fmt.Errorf("bucket script returned %d values, want 2", len(res))
	}
	if err != nil {
		return Decision{Limit: lim}, r.failed(ctx, err)
	}
	r.recovered()
	if res[0] == 1 {
		return Decision{Allowed: true, Limit: lim}, nil
	}
	return Decision{RetryAfter: time.Duration(res[1]) * time.Microsecond, Limit: lim}, nil
}

// Refund gives back the token a call of tool by caller spent, when the call
// turned out to do nothing (a write refused as not found), in the bucket
// every replica shares. Like Allow, it runs once, bounded by the timeout; a
// Redis that does not answer leaves the token spent and returns a
// *StoreError.
func (r *Redis) Refund(ctx context.Context, tool, caller string) error {
	lim, ok := r.limits[tool]
	if !ok {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	now := ""
	if r.now != nil {
		now = strconv.FormatInt(r.now().UnixMicro(), 10)
	}
	if err := refund.Run(ctx, r.client, []string{Key(tool, caller)}, lim.Period.Microseconds(), lim.Count, now).Err(); err != nil {
		return r.failed(ctx, err)
	}
	r.recovered()
	return nil
}

// Key is the Redis key of tool's bucket for caller. The caller is hashed:
// the key's length is fixed whatever the caller's name, and a name holding
// ':' or '{' cannot collide with another key or pick a Cluster slot.
func Key(tool, caller string) string {
	sum := sha256.Sum256([]byte(caller))
	return tool + ":" + hex.EncodeToString(sum[:])
}

// Ping checks that Redis answers, within the timeout; for readiness checks.
func (r *Redis) Ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	if err := r.client.Ping(ctx).Err(); err != nil {
		return r.failed(ctx, err)
	}
	r.recovered()
	return nil
}

// Close closes the connections to Redis.
func (r *Redis) Close() error { return r.client.Close() }

// Limit returns tool's limit, or the zero Limit if it has none.
func (r *Redis) Limit(tool string) Limit { return r.limits[tool] }

// Describe returns a phrase for tool's description stating its limit, as
// Limiter.Describe does; "" for a tool without a limit.
func (r *Redis) Describe(tool string) string {
	lim, ok := r.limits[tool]
	if !ok {
		return ""
	}
	return lim.describe()
}

func (r *Redis) failed(ctx context.Context, err error) error {
	se := &StoreError{Cause: storeCause(ctx, err, r.timeout), Err: err}
	if r.down.CompareAndSwap(false, true) && r.logger != nil {
		r.logger.Warn("rate-limit store unavailable: limited tools are refused until it answers",
			"store", "redis", "cause", se.Cause)
	}
	return se
}

func (r *Redis) recovered() {
	if r.down.CompareAndSwap(true, false) && r.logger != nil {
		r.logger.Info("rate-limit store available again", "store", "redis")
	}
}

// A StoreError reports that the limit store could not decide: the call
// must be refused, since letting it through would make the limit no limit.
type StoreError struct {
	// Cause says what went wrong in words fit for the caller: no address,
	// password or Go type.
	Cause string
	// Err is the client's own error, for logs.
	Err error
}

// Error returns the cause and, for logs, the client's own words.
func (e *StoreError) Error() string {
	if e.Err == nil {
		return "rate-limit store unavailable: " + e.Cause
	}
	return "rate-limit store unavailable: " + e.Cause + ": " + e.Err.Error()
}

// Unwrap returns the client's error.
func (e *StoreError) Unwrap() error { return e.Err }

// storeCause names what failed in a few words.
func storeCause(ctx context.Context, err error, timeout time.Duration) string {
	var ne net.Error
	var re redis.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded) ||
		(errors.As(err, &ne) && ne.Timeout()) || (ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded)):
		return fmt.Sprintf("Redis did not answer within %v", timeout)
	case errors.Is(err, context.Canceled):
		return "the call was canceled before Redis answered"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "Redis refused the connection"
	case errors.Is(err, syscall.ECONNRESET) || errors.Is(err, net.ErrClosed) || errors.Is(err, redis.ErrClosed):
		return "the connection to Redis was closed"
	case errors.As(err, &re):
		return "Redis answered with an error: " + firstLine(re.Error(), 200)
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return "the Redis host name does not resolve"
	}
	return "Redis could not be reached"
}

// debugLog carries go-redis's log lines into the structured log at debug.
type debugLog struct{ l *slog.Logger }

func (d debugLog) Printf(ctx context.Context, format string, v ...any) {
	d.l.DebugContext(ctx, "redis client", "detail", fmt.Sprintf(format, v...))
}

func firstLine(s string, max int) string {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	if len(s) > max {
		s = s[:max] + "…"
	}
	return s
}
