// Package health answers the HTTP service's probes: /healthz says the
// process is up and depends on nothing; /readyz says whether its
// dependencies (the backend, the token issuers' keys, a shared rate-limit
// store) answer. Readiness checks run in the background and their results
// are cached, so a burst of probes costs the dependencies nothing and a slow
// dependency never holds a probe.
package health

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"sync"
	"time"
)

// Check is one named dependency check. Run returns nil when the dependency
// answers; it must honour ctx's deadline.
type Check struct {
	Name string
	Run  func(ctx context.Context) error
	// Degrades marks a dependency whose failure costs only part of the
	// service: it is reported, and the status reads "degraded", but the
	// replica stays ready. For a dependency every replica shares (the
	// rate-limit store), taking all of them out of rotation would turn a
	// partial outage into a whole one.
	Degrades bool
}

// Live answers /healthz: 200 "ok" while the process serves HTTP at all.
func Live(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write([]byte("ok\n"))
}

// Readiness holds the checks and their last results. Until every check has
// passed once, the service is not ready.
type Readiness struct {
	timeout time.Duration
	logger  *slog.Logger

	mu      sync.Mutex
	checks  []Check
	results map[string]error // absent: not run yet
}

// NewReadiness returns a Readiness over checks, each bounded by timeout
// when run. Failures (and recoveries) are logged, with the error, to logger:
// the probe's answer names only the failing check.
func NewReadiness(timeout time.Duration, logger *slog.Logger, checks ...Check) *Readiness {
	return &Readiness{timeout: timeout, logger: logger, checks: checks, results: map[string]error{}}
}

// Add registers one more check, for a part wired after construction (such
// as a shared rate-limit store). It is not ready until its first run.
func (r *Readiness) Add(c Check) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.checks = append(r.checks, c)
}

// Refresh runs every check once, concurrently, and records the results.
func (r *Readiness) Refresh(ctx context.Context) {
	r.mu.Lock()
	checks := append([]Check(nil), r.checks...)
	r.mu.Unlock()
	var wg sync.WaitGroup
	for _, c := range checks {
		wg.Go(func() {
			cctx, cancel := context.WithTimeout(ctx, r.timeout)
			defer cancel()
			err := c.Run(cctx)
			r.mu.Lock()
			prev, seen := r.results[c.Name]
			r.results[c.Name] = err
			r.mu.Unlock()
			switch {
			case err != nil && (!seen || prev == nil):
				r.logger.Warn("readiness check failing", "check", c.Name, "error", err.Error())
			case err == nil && seen && prev != nil:
				r.logger.Info("readiness check passing again", "check", c.Name)
			}
		})
	}
	wg.Wait()
}

// Run refreshes at once and then every interval until ctx ends.
func (r *Readiness) Run(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		r.Refresh(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Status reports each check's state ("ok", "failing" or "pending"),
// whether every check that does not merely degrade the service has passed,
// and whether one that does is failing.
func (r *Readiness) Status() (ready bool, states map[string]string) {
	ready, _, states = r.status()
	return ready, states
}

func (r *Readiness) status() (ready, degraded bool, states map[string]string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ready, states = true, make(map[string]string, len(r.checks))
	for _, c := range r.checks {
		err, seen := r.results[c.Name]
		switch {
		case !seen:
			states[c.Name], ready = "pending", false
		case err != nil && c.Degrades:
			states[c.Name], degraded = "failing", true
		case err != nil:
			states[c.Name], ready = "failing", false
		default:
			states[c.Name] = "ok"
		}
	}
	return ready, degraded, states
}

// ServeHTTP answers /readyz from the cached results: 200 when every check
// passed at its last run ("degraded" when only a check that Degrades
// failed), else 503. The body names each check's state and never an error's
// text, which may describe the network behind the service.
func (r *Readiness) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	ready, degraded, states := r.status()
	status, code := "ready", http.StatusOK
	switch {
	case !ready:
		status, code = "not ready", http.StatusServiceUnavailable
	case degraded:
		status = "degraded"
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]any{"status": status, "checks": states})
}
