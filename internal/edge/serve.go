package edge

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"
)

// Timeouts bound each request and the shutdown.
type Timeouts struct {
	// Request bounds a whole request to /mcp: its context ends then, which
	// ends any tool call still waiting on the backend.
	Request time.Duration
	// Drain bounds how long a shutdown waits for requests in flight.
	Drain time.Duration
}

// Deadline returns next with each request's context bounded by d.
func Deadline(d time.Duration, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), d)
		defer cancel()
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// ErrDrainCut reports a shutdown that cut off requests still running when
// the drain bound passed. It is a warning for the log: the stop itself was
// orderly.
var ErrDrainCut = errors.New("requests still in flight when the drain bound passed were cut off")

// Serve serves h on ln until ctx ends, then stops accepting, waits up to
// t.Drain for requests in flight and returns nil (or ErrDrainCut). Slow clients cannot hold a
// connection: headers must arrive within 10 s and a body within the request
// bound.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, t Timeouts) error {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       t.Request,
		WriteTimeout:      t.Request + 5*time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), t.Drain)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		// Requests still running past the bound are cut off: the bound
		// is the promise made to whoever sent the signal.
		srv.Close()
		if errors.Is(err, context.DeadlineExceeded) {
			return ErrDrainCut
		}
		return err
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
