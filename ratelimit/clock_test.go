package ratelimit

import (
	"sync"
	"time"
)

// FakeClock is a clock for tests: it stands still until Advance moves it.
type FakeClock struct {
	mu sync.Mutex
	t  time.Time
}

// NewFakeClock returns a FakeClock set to a fixed instant.
func NewFakeClock() *FakeClock {
	return &FakeClock{t: time.Date(2026, 8, 1, 9, 0, 0, 0, time.UTC)}
}

// Now returns the clock's time; pass it to WithClock.
func (c *FakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock forward by d.
func (c *FakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}
