package graphql

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/Khan/genqlient/graphql"
)

// Retry is how a Client retries a call that met a transient failure: a
// connection reset, a 502, 503 or 504, or throttling (429) whose Retry-After
// fits the call's deadline. Waits grow exponentially with jitter, and every
// wait and attempt stays inside the call's deadline: a retry never makes a
// call slower than its timeout.
//
// Queries are retried. Mutations are retried only when they are idempotent
// by construction (see idempotentMutations): retrying any other write could
// do it twice.
type Retry struct {
	// Attempts is the most tries of one call, the first included; 1 or less
	// turns retrying off.
	Attempts int
	// Base is the wait before the first retry; each later wait doubles, up
	// to Max. The actual wait is drawn between half and all of it.
	Base, Max time.Duration
	// Sleep waits for d or until ctx ends; nil means a timer. Tests inject
	// it: no test sleeps for real.
	Sleep func(ctx context.Context, d time.Duration) error
	// Jitter returns a number in [0, 1); nil means math/rand/v2.
	Jitter func() float64
	// Now reads the clock, to compare a wait with the deadline; nil means
	// time.Now.
	Now func() time.Time
}

// DefaultRetry is three tries, 100 ms then 200 ms apart (with jitter).
var DefaultRetry = Retry{Attempts: 3, Base: 100 * time.Millisecond, Max: time.Second}

// NoRetry turns retrying off.
var NoRetry = Retry{Attempts: 1}

// idempotentMutations are the mutations that are safe to send twice: a
// collection is created once per name (the second call answers created:
// false), and adding a company already present changes nothing. Email
// discovery is not: each call starts a job. Removing a company no longer
// there changes nothing too.
var idempotentMutations = map[string]bool{
	"CreateCollection":     true,
	"AddToCollection":      true,
	"RemoveFromCollection": true,
}

// mutationDef finds a mutation definition anywhere in a document: fragments
// may come before the operation. Compiled on first use, not at package
// initialisation, which every start pays before its first answer.
var mutationDef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*(mutation|subscription)\b`) })

// retries reports whether req may be sent again after a transient failure:
// a document without a mutation is a query and may; a mutation may only if
// it is idempotent by construction.
func retries(req *graphql.Request) bool {
	// The regexp can only match where the word occurs; most documents are
	// queries without it, and this check runs on every request.
	if !strings.Contains(req.Query, "mutation") && !strings.Contains(req.Query, "subscription") {
		return true
	}
	if m := mutationDef().FindStringSubmatch(req.Query); m != nil {
		return m[1] == "mutation" && idempotentMutations[req.OpName]
	}
	return true
}

// transient reports whether err is a failure that another attempt may not
// meet, and the wait the backend asked for, if any.
func transient(err error) (retry bool, asked time.Duration) {
	var e *Error
	if !errors.As(err, &e) {
		return false, 0
	}
	switch e.Kind {
	case KindUnreachable:
		// A reset connection may have been a load balancer recycling it;
		// a refused one or a failed DNS lookup will fail again.
		return e.Cause == causeReset, 0
	case KindHTTP:
		switch e.StatusCode {
		case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			return true, e.RetryAfter
		case http.StatusTooManyRequests:
			return true, max(e.RetryAfter, time.Second)
		}
	}
	return false, 0
}

// wait returns how long to wait before attempt n+1 after err, or false when
// the failure is not transient or the wait does not fit the deadline. A
// wait fits when at least as much time is left after it, for the attempt
// itself.
func (r Retry) wait(ctx context.Context, err error, n int) (time.Duration, bool) {
	ok, asked := transient(err)
	if !ok {
		return 0, false
	}
	d := r.Base << (n - 1)
	if d > r.Max || d <= 0 {
		d = r.Max
	}
	jitter := r.Jitter
	if jitter == nil {
		jitter = rand.Float64
	}
	d = d/2 + time.Duration(jitter()*float64(d/2))
	if asked > d {
		d = asked
	}
	if deadline, has := ctx.Deadline(); has {
		now := time.Now
		if r.Now != nil {
			now = r.Now
		}
		if left := deadline.Sub(now()); d > left/2 {
			return 0, false
		}
	}
	return d, true
}

// sleep waits for d, or returns ctx's error if it ends first.
func (r Retry) sleep(ctx context.Context, d time.Duration) error {
	if r.Sleep != nil {
		return r.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
