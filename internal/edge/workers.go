package edge

import "context"

// workers serve the bounded requests: at most Limit at once, on
// goroutines that live as long as Serve. A tool call's handler runs deep
// (mcp-go, the tool pipeline, the GraphQL client, JSON decoding by
// reflection): a goroutine started for it grows its stack from the
// runtime's few kilobytes by copying it several times: 7% of the server's
// CPU per search call (perf) when every request had its own goroutine. A
// worker grows its stack once and keeps it, and a request handed to an
// idle worker costs no goroutine start. mcp-go's own stdio server keeps a
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

// run hands job to an idle worker, or to a new one while fewer than Limit
// exist. When Limit are busy a goroutine waits for one, so that the read
// loop never waits: pings, lists and cancellations keep flowing. A job
// whose ctx ends while it waits runs at once on that goroutine, where it
// finds its ctx done and only answers.
func (w *workers) run(ctx context.Context, job func()) {
	select {
	case w.jobs <- job: // an idle worker first
		return
	default:
	}
	select {
	case w.jobs <- job:
	case w.slots <- struct{}{}:
		go w.work(job)
	default:
		go func() {
			select {
			case w.jobs <- job:
			case <-ctx.Done():
				job()
			}
		}()
	}
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
