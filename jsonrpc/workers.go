package jsonrpc

import (
	"context"
	"encoding/json"
	"log/slog"
)

// workers run the handlers of bounded requests: at most Limit at once, on
// goroutines that live as long as Serve. A tool call's handler runs deep
// (mcp-go, the tool pipeline, the GraphQL client, JSON decoding by
// reflection): a goroutine started for it grows its stack from the
// runtime's few kilobytes by copying it several times, a sixth of the
// server's CPU per call when every request had its own goroutine. A worker
// grows its stack once and keeps it. mcp-go's own stdio server keeps a
// pool for the same reason.
type workers struct {
	// jobs hands a job to an idle worker; unbuffered, so a send succeeds
	// only when one is waiting.
	jobs chan func()
	// slots holds a token per worker started, at most Limit.
	slots chan struct{}
	// quit ends the idle workers when Serve returns.
	quit chan struct{}
}

func newWorkers(limit int) *workers {
	return &workers{jobs: make(chan func()), slots: make(chan struct{}, limit), quit: make(chan struct{})}
}

// call runs the handler on a worker and returns its answer. It waits for a
// worker when Limit are busy; a request whose ctx ends first, or while it
// waited, is not served.
func (w *workers) call(ctx context.Context, h Handler, logger *slog.Logger, method string, msg []byte) (res json.RawMessage, err *Error) {
	done := make(chan struct{})
	job := func() {
		defer close(done)
		if ctx.Err() != nil { // cancelled while it waited: select may still pick a worker
			res, err = nil, stopped()
			return
		}
		res, err = call(ctx, h, logger, method, msg)
	}
	select {
	case w.jobs <- job: // an idle worker first
	default:
		select {
		case w.jobs <- job:
		case w.slots <- struct{}{}:
			go w.work(job)
		case <-ctx.Done():
			return nil, stopped()
		}
	}
	<-done
	return res, err
}

// stopped is the answer to a request the server stopped before serving.
func stopped() *Error {
	return &Error{CodeInternalError, "the server stopped before it could serve this request", nil}
}

// work runs job, then each job handed to it, until quit.
func (w *workers) work(job func()) {
	for {
		job()
		select {
		case job = <-w.jobs:
		case <-w.quit:
			return
		}
	}
}

// stop ends the workers once they are idle.
func (w *workers) stop() { close(w.quit) }
