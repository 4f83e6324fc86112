// Package ratelimit keeps one token bucket per tool and caller, so an agent
// stuck in a loop cannot spend an expensive upstream quota in a minute.
//
// A Limiter never blocks: it answers allow or refuse at once, and a refusal
// says how long until a token is available. Telling an agent when to retry
// lets it decide what to do, where a blocked call would only look like a hang.
//
// Two stores answer alike: Limiter keeps the buckets in this process (one
// server, or stdio); Redis keeps them in Redis, so that replicas behind a
// load balancer enforce one limit per caller rather than one per replica.
// When Redis cannot answer, a limited call is refused with a *StoreError:
// the limit fails closed, never open.
//
// The package knows nothing about MCP; the server's tool wrapper calls
// Allow after validating arguments and checking the mutation gate, so a call
// that fails earlier spends nothing.
package ratelimit

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// A Limit allows Count calls per Period, with a burst of Count: a caller
// may spend the whole allowance at once and then gets one more call every
// Period/Count. The zero Limit means no limit.
type Limit struct {
	// Count is how many calls a caller may make per Period, and also how
	// many it may make at once after being idle.
	Count int
	// Period is the time over which Count calls are allowed.
	Period time.Duration
}

// Unlimited reports whether l allows every call.
func (l Limit) Unlimited() bool { return l.Count <= 0 }

// String renders l for people, as in "5 per minute" or "10 per hour".
func (l Limit) String() string {
	if l.Unlimited() {
		return "unlimited"
	}
	return strconv.Itoa(l.Count) + " per " + periodString(l.Period)
}

// describe renders l as a sentence fragment for a tool's description.
func (l Limit) describe() string {
	calls := "calls"
	if l.Count == 1 {
		calls = "call"
	}
	return fmt.Sprintf("limited to %d %s per %s per caller", l.Count, calls, periodString(l.Period))
}

// units are the period words ParseLimit accepts after the slash, besides
// any time.ParseDuration string.
var units = map[string]time.Duration{
	"s": time.Second, "sec": time.Second, "second": time.Second,
	"m": time.Minute, "min": time.Minute, "minute": time.Minute,
	"h": time.Hour, "hr": time.Hour, "hour": time.Hour,
	"d": 24 * time.Hour, "day": 24 * time.Hour,
}

// named are the periods String spells as words, largest first.
var named = []struct {
	d    time.Duration
	name string
}{
	{24 * time.Hour, "day"},
	{time.Hour, "hour"},
	{time.Minute, "minute"},
	{time.Second, "second"},
}

func periodString(d time.Duration) string {
	for _, u := range named {
		if d%u.d != 0 {
			continue
		}
		if n := d / u.d; n != 1 {
			return fmt.Sprintf("%d %ss", n, u.name)
		}
		return u.name
	}
	return d.String()
}

const limitForms = "want COUNT/PERIOD such as 5/m, 10/h, 2/s or 100/1h " +
	"(PERIOD is s, m, h, d or a Go duration), or 0, off or none for no limit"

// ParseLimit parses a limit written as COUNT/PERIOD, where PERIOD is a unit
// (s, sec, m, min, h, hr, d, day, or their plurals) or a duration accepted
// by time.ParseDuration, as in "5/m", "10/h", "2/s" or "100/1h". The
// strings "0", "off" and "none" mean no limit. Case and surrounding spaces
// are ignored.
func ParseLimit(s string) (Limit, error) {
	lim, err := parseLimit(s)
	if err != nil {
		return Limit{}, fmt.Errorf("ratelimit: invalid limit %q: %v", s, err)
	}
	return lim, nil
}

// parseLimit does ParseLimit's work; its errors say what is wrong but not
// with which string, which the caller adds.
func parseLimit(s string) (Limit, error) {
	spec := strings.ToLower(strings.TrimSpace(s))
	switch spec {
	case "0", "off", "none":
		return Limit{}, nil
	}
	count, period, ok := strings.Cut(spec, "/")
	if !ok {
		return Limit{}, errors.New(limitForms)
	}
	n, err := strconv.Atoi(strings.TrimSpace(count))
	if err != nil || n <= 0 {
		return Limit{}, errors.New("count must be a positive integer; " + limitForms)
	}
	d, err := parsePeriod(strings.TrimSpace(period))
	if err != nil || d <= 0 {
		return Limit{}, errors.New("period must be a positive duration; " + limitForms)
	}
	return Limit{Count: n, Period: d}, nil
}

func parsePeriod(s string) (time.Duration, error) {
	if d, ok := units[s]; ok {
		return d, nil
	}
	if d, ok := units[strings.TrimSuffix(s, "s")]; ok && len(s) > 2 {
		return d, nil // plurals: "mins", "hours"; but not "ms"
	}
	return time.ParseDuration(s)
}
