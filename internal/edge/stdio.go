package edge

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults for Stdio's bounds.
const (
	// DefaultLimit is how many requests are served at once; a request
	// mostly waits on the backend, so this is generous.
	DefaultLimit = 32
	// DefaultMaxOpen is how many requests may be open (served or waiting
	// their turn) before reading pauses.
	DefaultMaxOpen = 256
	// DefaultDrain bounds the wait, at end of input, for answers still
	// being computed; every call has its own deadline well inside it.
	DefaultDrain = 30 * time.Second
)

// methodCancelled is the notification that cancels a request.
const methodCancelled = "notifications/cancelled"

// Stdio serves JSON-RPC over a byte stream, one message per line: the MCP
// stdio transport. Each line is checked (Parse) before Handler sees it;
// requests are served concurrently, each with its own context, and their
// answers are written as they complete, with the client's ids as sent.
//
// Cancellation: notifications/cancelled naming an open request (same type
// and value) cancels its context, and its answer is not sent, as MCP asks.
//
// End of input: the requests already read are still answered; Serve
// returns as soon as the last answer is out (bounded by Drain), so a client
// that writes its requests and closes stdin gets every answer.
type Stdio struct {
	Handler MessageHandler
	Logger  *slog.Logger
	// Limit bounds the requests served at once (DefaultLimit if 0).
	Limit int
	// Bounded names the methods Limit applies to (all when empty): the
	// ones that reach the backend. Others (ping, the lists) never wait
	// behind a slow call.
	Bounded []string
	// MaxOpen bounds the requests open at once (DefaultMaxOpen if 0): past
	// it, reading pauses until one is answered.
	MaxOpen int
	// Drain bounds the wait at end of input (DefaultDrain if 0).
	Drain time.Duration
	// After returns a channel that fires after d (time.After if nil); tests
	// inject it.
	After func(d time.Duration) <-chan time.Time
	// EndInput, when closed, ends the input as the client closing it would:
	// nothing more is read, the requests already read are answered (within
	// the drain bound), and Serve returns nil. The server closes it when it
	// must stop for a reason of its own (its credentials failed) and still
	// owes answers.
	EndInput <-chan struct{}
	// EndWithInput names methods that run until the client leaves (MCP's
	// subscriptions/listen): at end of input they are cancelled at once,
	// not waited for.
	EndWithInput []string
	// Observe, when set, is called as each request starts (before it waits
	// for a worker), with the request as read. It returns the context to
	// serve the request in and a func called with the answer's error (nil
	// for a result). Tracing hangs here; when nil, a request costs nothing
	// more than the check.
	Observe func(ctx context.Context, f Frame) (context.Context, func(*Error))
	// CallTimeout bounds the wait for the client's answer to a request of
	// the server's own (DefaultCallTimeout if 0); see Call.
	CallTimeout time.Duration
	// MaxCalls bounds the server's requests waiting for an answer at once
	// (DefaultMaxCalls if 0).
	MaxCalls int

	mu   sync.Mutex // guards open, next, calls, nextCall and callsClosed
	open map[string]*pending
	// calls are the server's requests waiting for the client's answer,
	// by id (calls.go).
	calls       map[string]chan answer
	nextCall    int64
	callsClosed bool
	// writeMu guards out and writeOK; it is never held with mu, so a
	// client slow to read its answers does not hold up cancellations.
	writeMu sync.Mutex
	out     io.Writer
	writeOK bool        // false after a failed write, logged once
	closed  atomic.Bool // Serve has returned: nothing more is written
	wg      sync.WaitGroup
	workers *workers
}

// pending is one request being served.
type pending struct {
	id        ID
	method    string
	cancel    context.CancelFunc
	cancelled bool // by the client: the answer is dropped
}

// Serve reads messages from in until it ends or ctx is done, and writes
// answers to out. It returns nil at end of input, ctx's error when ctx
// ended it, or the read error.
func (s *Stdio) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	s.init(out)
	limit := s.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	maxOpen := s.MaxOpen
	if maxOpen <= 0 {
		maxOpen = DefaultMaxOpen
	}
	s.workers = newWorkers(limit)
	defer s.workers.stop()
	room := make(chan struct{}, maxOpen) // one token per open request

	lines := make(chan line)
	readCtx, stopReading := context.WithCancel(ctx)
	defer stopReading()
	go readLines(readCtx, in, lines)

	var readErr error
	for reading := true; reading; {
		select {
		case <-ctx.Done():
			s.endCalls()
			s.stop(0)
			return ctx.Err()
		case <-s.EndInput:
			reading = false
		case l := <-lines:
			switch {
			case l.err != nil:
				if !errors.Is(l.err, io.EOF) {
					readErr = l.err
				}
				reading = false
			case l.tooLong > 0:
				s.refuse(Frame{Kind: Request}, TooLarge(l.tooLong))
			default:
				if !s.handle(ctx, l.msg, room) {
					s.endCalls()
					s.stop(0)
					return ctx.Err()
				}
			}
		}
	}
	// No answer to a request of the server's can arrive now: the calls
	// waiting for one end at once, and the requests they serve finish.
	s.endCalls()
	s.drain(ctx)
	return readErr
}

func (s *Stdio) init(out io.Writer) {
	if s.Logger == nil {
		s.Logger = slog.New(slog.DiscardHandler)
	}
	s.mu.Lock()
	s.open = map[string]*pending{}
	s.calls, s.callsClosed = map[string]chan answer{}, false
	s.mu.Unlock()
	s.writeMu.Lock()
	s.out, s.writeOK = out, true
	s.writeMu.Unlock()
	s.closed.Store(false)
}

// handle serves one line. It returns false when ctx ended while it waited
// for room.
func (s *Stdio) handle(ctx context.Context, msg []byte, room chan struct{}) bool {
	f, perr := Parse(msg)
	if perr != nil {
		logRefusal(s.Logger, f, perr)
		if reply := Refusal(f, perr); reply != nil {
			s.write(reply)
		}
		return true
	}
	switch f.Kind {
	case Response:
		s.deliver(f)
		return true
	case Notification:
		if f.Method == methodCancelled {
			s.cancelRequest(f.Params)
			return true
		}
		// Notifications run in order, on the read loop: they are quick
		// (notifications/initialized) and order matters for them.
		call(ctx, s.Handler, s.Logger, f.Method, f.Raw)
		return true
	}

	select {
	case room <- struct{}{}:
	case <-ctx.Done():
		return false
	}
	s.mu.Lock()
	if _, dup := s.open[f.ID.Key()]; dup {
		s.mu.Unlock()
		<-room
		s.refuse(f, &Error{CodeInvalidRequest, `member "id" is already used by a request still being served: give each request its own id`, nil})
		return true
	}
	toMCP, _, _ := forMCPGo(f)
	rctx, cancel := context.WithCancel(ctx)
	p := &pending{id: f.ID, method: f.Method, cancel: cancel}
	s.open[f.ID.Key()] = p
	s.wg.Add(1)
	s.mu.Unlock()

	unbounded := slices.Contains(s.EndWithInput, f.Method) ||
		(len(s.Bounded) > 0 && !slices.Contains(s.Bounded, f.Method))
	sctx := rctx
	var done func(*Error)
	if s.Observe != nil {
		sctx, done = s.Observe(rctx, f)
	}
	serve := func() {
		defer s.wg.Done()
		defer func() { <-room }()
		defer cancel()
		var res json.RawMessage
		var err *Error
		if !unbounded && sctx.Err() != nil { // cancelled while it waited for a worker
			err = &Error{CodeInternalError, "the server stopped before it could serve this request", nil}
		} else {
			res, err = call(sctx, s.Handler, s.Logger, f.Method, toMCP)
		}
		if done != nil {
			done(err)
		}
		s.finish(p, res, err)
	}
	if unbounded {
		go serve()
	} else {
		s.workers.run(sctx, serve)
	}
	return true
}

// finish writes a request's answer unless the client cancelled it. A
// cancellation that arrives once the answer is decided finds no open
// request and is ignored, as MCP allows.
func (s *Stdio) finish(p *pending, res json.RawMessage, err *Error) {
	s.mu.Lock()
	cancelled := p.cancelled
	if !cancelled {
		delete(s.open, p.id.Key())
	}
	s.mu.Unlock()
	if cancelled {
		s.Logger.Debug("dropped the answer to a cancelled request", "id", p.id.String(), "method", p.method)
		return
	}
	if err != nil {
		s.write(ErrorReply(p.id, err))
		return
	}
	s.write(ResultReply(p.id, res))
}

// cancelRequest applies notifications/cancelled. An id that names no open
// request (already answered, never sent, or of another type) is ignored,
// as MCP asks.
func (s *Stdio) cancelRequest(params json.RawMessage) {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil || len(p.RequestID) == 0 {
		s.Logger.Warn("dropped a malformed notification", "method", methodCancelled, "reason", `params.requestId is missing`)
		return
	}
	id, perr := ParseID(p.RequestID)
	if perr != nil {
		s.Logger.Warn("dropped a malformed notification", "method", methodCancelled, "reason", "params.requestId: "+perr.Message)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.open[id.Key()]
	if !ok {
		s.Logger.Debug("cancellation names no open request", "id", id.String())
		return
	}
	r.cancelled = true
	delete(s.open, id.Key())
	r.cancel()
	s.Logger.Info("request cancelled by the client", "id", id.String(), "method", r.method)
}

// drain waits, at end of input, for the open requests to be answered.
func (s *Stdio) drain(ctx context.Context) {
	s.mu.Lock()
	for _, p := range s.open {
		if slices.Contains(s.EndWithInput, p.method) {
			p.cancel()
		}
	}
	s.mu.Unlock()

	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	wait := s.Drain
	if wait <= 0 {
		wait = DefaultDrain
	}
	select {
	case <-done:
		s.stop(0)
	case <-s.after(wait):
		s.Logger.Warn("end of input: requests still open after the drain bound; cancelling them", "bound", wait.String(), "open", s.openCount())
		s.stop(time.Second)
	case <-ctx.Done():
		s.stop(0)
	}
}

// stop cancels what is still open, gives the handlers grace to return, and
// closes the output: nothing is written after Serve returns.
func (s *Stdio) stop(grace time.Duration) {
	s.mu.Lock()
	for _, p := range s.open {
		p.cancel()
	}
	s.mu.Unlock()
	if grace > 0 {
		done := make(chan struct{})
		go func() { s.wg.Wait(); close(done) }()
		select {
		case <-done:
		case <-s.after(grace):
		}
	}
	s.closed.Store(true)
}

func (s *Stdio) openCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.open)
}

func (s *Stdio) after(d time.Duration) <-chan time.Time {
	if s.After != nil {
		return s.After(d)
	}
	return time.After(d)
}

// Notify writes a message the server sends on its own (a notification).
func (s *Stdio) Notify(msg []byte) {
	s.write(msg)
}

func (s *Stdio) refuse(f Frame, e *Error) {
	logRefusal(s.Logger, f, e)
	s.write(ErrorReply(f.ID, e))
}

// write writes one message as one line, in one Write call.
func (s *Stdio) write(msg []byte) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if s.closed.Load() || s.out == nil {
		return
	}
	if _, err := s.out.Write(append(msg, '\n')); err != nil && s.writeOK {
		s.writeOK = false
		s.Logger.Error("writing to the client failed; answers are being lost", "err", err.Error())
	}
}

// line is one message read, or why reading stopped.
type line struct {
	msg     []byte
	tooLong int // the line was skipped: this many bytes, over MaxFrame
	err     error
}

// readLines splits in into lines of at most MaxFrame bytes. A longer line
// is read to its end without being kept, and reported by its size. Blank
// lines are skipped.
func readLines(ctx context.Context, in io.Reader, out chan<- line) {
	br := bufio.NewReaderSize(in, 64<<10)
	send := func(l line) bool {
		select {
		case out <- l:
			return true
		case <-ctx.Done():
			return false
		}
	}
	for {
		var buf []byte
		size := 0
		var err error
		for {
			var chunk []byte
			chunk, err = br.ReadSlice('\n')
			size += len(chunk)
			if size <= MaxFrame+1 { // +1: the newline is not part of the message
				buf = append(buf, chunk...)
			} else {
				buf = nil
			}
			if !errors.Is(err, bufio.ErrBufferFull) {
				break
			}
		}
		msg := bytes.TrimSpace(buf)
		switch {
		case size > 0 && buf == nil:
			if err == nil {
				size-- // the newline
			}
			if !send(line{tooLong: size}) {
				return
			}
		case len(msg) > MaxFrame:
			if !send(line{tooLong: len(msg)}) {
				return
			}
		case len(msg) > 0:
			if !send(line{msg: msg}) {
				return
			}
		}
		if err != nil {
			send(line{err: err})
			return
		}
	}
}
