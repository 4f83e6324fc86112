package app

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sync"
	"time"
)

// drainTimeout bounds how long the server waits, after its input closes, for
// the answers to requests it has already read.
const drainTimeout = 30 * time.Second

// drain lets the server finish what it was asked before it stops. mcp-go's
// stdio server cancels every request in flight the moment its input ends, so
// a client that writes its requests and closes stdin (a shell pipe, a batch
// job) would get cancellations, or nothing, instead of answers. drain sits on
// both streams: it counts the requests read (messages with an id and a
// method) and the answers written (messages with an id and no method), and
// holds back the end of input until every request has its answer, the
// context ends, or drainTimeout passes.
type drain struct {
	ctx  context.Context
	mu   sync.Mutex
	cond *sync.Cond
	open int // requests read and not yet answered
}

func newDrain(ctx context.Context) *drain {
	d := &drain{ctx: ctx}
	d.cond = sync.NewCond(&d.mu)
	return d
}

func (d *drain) count(line []byte, delta int, isRequest bool) {
	hasID, request := peek(line)
	if !hasID || request != isRequest {
		return
	}
	d.mu.Lock()
	d.open += delta
	d.mu.Unlock()
	d.cond.Broadcast()
}

// peek tells whether a message has an id and whether it is a request (it
// has a method). A streaming version that stops before "result" measured no
// faster (BENCHMARKS.md), so this stays the plain decode.
func peek(msg []byte) (hasID, request bool) {
	var e struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(msg, &e) != nil {
		return false, false
	}
	return len(e.ID) > 0 && string(e.ID) != "null", e.Method != ""
}

// wait blocks until no request is open, or the context or timeout ends it.
func (d *drain) wait() {
	deadline := time.AfterFunc(drainTimeout, func() { d.cond.Broadcast() })
	defer deadline.Stop()
	stop := context.AfterFunc(d.ctx, func() { d.cond.Broadcast() })
	defer stop()
	start := time.Now()
	d.mu.Lock()
	defer d.mu.Unlock()
	for d.open > 0 && d.ctx.Err() == nil && time.Since(start) < drainTimeout {
		d.cond.Wait()
	}
}

// Reader returns in with its end held back until the answers are out.
func (d *drain) Reader(in io.Reader) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		br := bufio.NewReader(in)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 {
				d.count(bytes.TrimSpace(line), 1, true)
				if _, werr := pw.Write(line); werr != nil {
					return
				}
			}
			if err != nil {
				d.wait()
				pw.CloseWithError(err)
				return
			}
		}
	}()
	return pr
}

// Writer returns out, counting the answers written to it. mcp-go writes one
// whole message per Write call.
func (d *drain) Writer(out io.Writer) io.Writer {
	return writerFunc(func(p []byte) (int, error) {
		n, err := out.Write(p)
		d.count(bytes.TrimSpace(p), -1, false)
		return n, err
	})
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
