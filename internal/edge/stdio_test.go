package edge

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hangGuard fails a test that waits longer than any correct run could; it
// asserts nothing about speed.
const hangGuard = 20 * time.Second

// lines collects what Serve writes, one message per Write.
type lines struct {
	mu    sync.Mutex
	msgs  []string
	added chan struct{}
}

func newLines() *lines { return &lines{added: make(chan struct{}, 1000)} }

func (l *lines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !bytes.HasSuffix(p, []byte("\n")) || bytes.Count(p, []byte("\n")) != 1 {
		panic("one message per Write, ending in a newline: " + string(p))
	}
	l.msgs = append(l.msgs, strings.TrimSuffix(string(p), "\n"))
	l.added <- struct{}{}
	return len(p), nil
}

func (l *lines) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.msgs...)
}

// waitN waits until n messages were written.
func (l *lines) waitN(t *testing.T, n int) []string {
	t.Helper()
	deadline := time.After(hangGuard)
	for len(l.all()) < n {
		select {
		case <-l.added:
		case <-deadline:
			t.Fatalf("waited for %d messages, have %v", n, l.all())
		}
	}
	return l.all()
}

// harness runs Stdio.Serve on a pipe.
type harness struct {
	in   *io.PipeWriter
	out  *lines
	done chan error
	s    *Stdio
}

func start(t *testing.T, s *Stdio) *harness {
	t.Helper()
	pr, pw := io.Pipe()
	h := &harness{in: pw, out: newLines(), done: make(chan error, 1), s: s}
	go func() { h.done <- s.Serve(context.Background(), pr, h.out) }()
	t.Cleanup(func() { pw.Close() })
	return h
}

func (h *harness) send(t *testing.T, msgs ...string) {
	t.Helper()
	for _, m := range msgs {
		_, err := io.WriteString(h.in, m+"\n")
		require.NoError(t, err)
	}
}

// end closes the input and waits for Serve to return.
func (h *harness) end(t *testing.T) error {
	t.Helper()
	require.NoError(t, h.in.Close())
	select {
	case err := <-h.done:
		return err
	case <-time.After(hangGuard):
		t.Fatal("Serve did not return after end of input")
		return nil
	}
}

// echo answers every request with its method and the id it was given.
func echo(_ context.Context, method string, msg []byte) (json.RawMessage, *Error) {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(msg, &m); err != nil {
		return nil, &Error{CodeInternalError, "handler could not read the message", nil}
	}
	return json.RawMessage(`{"method":"` + method + `","internal_id":` + string(m.ID) + `}`), nil
}

// neverFires is an injected clock: the drain bound never passes, so a test
// that ends proves the server did not wait for it.
func neverFires(time.Duration) <-chan time.Time { return nil }

func TestStdioAnswersEveryHostileFrame(t *testing.T) {
	h := start(t, &Stdio{Handler: echo, After: neverFires})
	var want []string
	for _, tt := range hostile {
		h.send(t, tt.msg)
		switch {
		case tt.code != 0 && tt.kind != Notification:
			f, err := Parse([]byte(tt.msg))
			want = append(want, string(ErrorReply(f.ID, err)))
		case tt.code == 0 && tt.kind == Request:
			want = append(want, `{"jsonrpc":"2.0","id":`+tt.id+`,"result":{"method":"`+methodOf(t, tt.msg)+`","internal_id":`)
		}
		// Wait for each answer before the next frame, so the order is
		// known: answers to requests come back as they complete.
		got := h.out.waitN(t, len(want))
		require.Len(t, got, len(want), "after %s", tt.name)
		last := got[len(got)-1]
		assert.True(t, strings.HasPrefix(last, want[len(want)-1]), "%s:\n got %s\nwant %s", tt.name, last, want[len(want)-1])
		assert.NotRegexp(t, goisms, last)
	}
	require.NoError(t, h.end(t))
	assert.Len(t, h.out.all(), len(want), "nothing more: notifications and client responses get no answer")
}

func methodOf(t *testing.T, msg string) string {
	var m struct{ Method string }
	require.NoError(t, json.Unmarshal([]byte(msg), &m))
	return m.Method
}

func TestStdioKeepsTheSessionAfterAnOversizedLine(t *testing.T) {
	h := start(t, &Stdio{Handler: echo, After: neverFires})
	big := `{"jsonrpc":"2.0","id":1,"method":"x","params":{"pad":"` + strings.Repeat("a", MaxFrame+10) + `"}}`
	h.send(t, big, `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	got := h.out.waitN(t, 2)
	assert.Equal(t, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"the message is `+itoa(len(big))+` bytes; at most 4194304 bytes (4 MiB) are accepted per message"}}`, got[0])
	assert.True(t, strings.HasPrefix(got[1], `{"jsonrpc":"2.0","id":2,"result":{"method":"ping"`), got[1])
	require.NoError(t, h.end(t))
}

// blocking is a handler whose requests wait for release (or their
// context) and report how they ended.
type blocking struct {
	release chan struct{}
	started chan string // the method of each request as it starts
	ended   chan error  // nil: released; else the context's error
}

func newBlocking() *blocking {
	return &blocking{release: make(chan struct{}), started: make(chan string, 100), ended: make(chan error, 100)}
}

func (b *blocking) serve(ctx context.Context, method string, msg []byte) (json.RawMessage, *Error) {
	if strings.HasPrefix(method, "notifications/") {
		return nil, nil
	}
	b.started <- method
	select {
	case <-b.release:
		b.ended <- nil
		return json.RawMessage(`{"done":"` + method + `"}`), nil
	case <-ctx.Done():
		b.ended <- ctx.Err()
		return json.RawMessage(`{"cancelled":true}`), nil
	}
}

func recv[T any](t *testing.T, c chan T, what string) T {
	t.Helper()
	select {
	case v := <-c:
		return v
	case <-time.After(hangGuard):
		t.Fatalf("waited for %s", what)
		var zero T
		return zero
	}
}

func TestStdioCancellationMatchesTypeAndValueAndSuppressesTheAnswer(t *testing.T) {
	b := newBlocking()
	h := start(t, &Stdio{Handler: b.serve, After: neverFires})
	h.send(t, `{"jsonrpc":"2.0","id":1,"method":"slow"}`)
	recv(t, b.started, "the request to start")

	// "1" is not 1: nothing is cancelled, and a ping still answers.
	h.send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"1"}}`,
		`{"jsonrpc":"2.0","id":"p","method":"fast"}`)
	recv(t, b.started, "the second request to start")
	select {
	case err := <-b.ended:
		t.Fatalf("a request ended (%v) on a cancellation naming another id", err)
	default:
	}

	h.send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"user"}}`)
	assert.ErrorIs(t, recv(t, b.ended, "the cancelled request to end"), context.Canceled, "its context is cancelled")

	close(b.release) // the other request completes
	assert.Nil(t, recv(t, b.ended, "the other request to end"))
	require.NoError(t, h.end(t))
	assert.Equal(t, []string{`{"jsonrpc":"2.0","id":"p","result":{"done":"fast"}}`}, h.out.all(),
		"the cancelled request gets no answer")
}

func TestStdioAnswersEverythingReadBeforeEndOfInput(t *testing.T) {
	b := newBlocking()
	h := start(t, &Stdio{Handler: b.serve, After: neverFires})
	h.send(t, `{"jsonrpc":"2.0","id":1,"method":"a"}`, `{"jsonrpc":"2.0","id":2,"method":"b"}`,
		// Odd frames that once upset the end of input.
		`{"jsonrpc":"2.0","id":3,"result":{}}`,
		`{"jsonrpc":"2.0","id":4,"method":"c","result":{}}`,
		`{"jsonrpc":"2.0","id":5}`)
	recv(t, b.started, "a request to start")
	recv(t, b.started, "a request to start")
	require.NoError(t, h.in.Close())

	// Serve is still waiting: the requests it read are not answered yet.
	got := h.out.waitN(t, 2)
	select {
	case <-h.done:
		t.Fatal("Serve returned before answering the requests it read")
	default:
	}
	close(b.release)
	require.NoError(t, h.end(t))
	assert.ElementsMatch(t, []string{
		`{"jsonrpc":"2.0","id":4,"error":{"code":-32600,"message":"a request must not carry \"result\" or \"error\": those members belong only in answers"}}`,
		`{"jsonrpc":"2.0","id":5,"error":{"code":-32600,"message":"member \"method\" is missing: a request needs the name of the method to call"}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"done":"a"}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"done":"b"}}`,
	}, h.out.all())
	assert.Len(t, got, 2)
	for range 2 {
		assert.Nil(t, recv(t, b.ended, "a request to end"), "released, not cancelled")
	}
}

func TestStdioDrainIsBounded(t *testing.T) {
	b := newBlocking()
	fire := make(chan time.Time)
	var asked []time.Duration
	var mu sync.Mutex
	h := start(t, &Stdio{Handler: b.serve, Drain: 7 * time.Second, After: func(d time.Duration) <-chan time.Time {
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, d)
		return fire
	}})
	h.send(t, `{"jsonrpc":"2.0","id":1,"method":"stuck"}`)
	recv(t, b.started, "the request to start")
	require.NoError(t, h.in.Close())
	fire <- time.Time{} // the drain bound passes
	assert.ErrorIs(t, recv(t, b.ended, "the stuck request to end"), context.Canceled, "cancelled at the bound")
	select {
	case err := <-h.done:
		require.NoError(t, err)
	case <-time.After(hangGuard):
		t.Fatal("Serve did not return after the drain bound")
	}
	mu.Lock()
	assert.Equal(t, 7*time.Second, asked[0], "the configured bound")
	mu.Unlock()
}

func TestStdioCancelsOpenEndedRequestsAtEndOfInput(t *testing.T) {
	b := newBlocking()
	h := start(t, &Stdio{Handler: b.serve, After: neverFires, EndWithInput: []string{"subscriptions/listen"}})
	h.send(t, `{"jsonrpc":"2.0","id":"sub","method":"subscriptions/listen"}`)
	recv(t, b.started, "the listen request to start")
	require.NoError(t, h.end(t))
	assert.ErrorIs(t, recv(t, b.ended, "the listen request to end"), context.Canceled)
}

func TestStdioRefusesAnIDStillInUse(t *testing.T) {
	b := newBlocking()
	h := start(t, &Stdio{Handler: b.serve, After: neverFires})
	h.send(t, `{"jsonrpc":"2.0","id":9,"method":"a"}`)
	recv(t, b.started, "the first request to start")
	h.send(t, `{"jsonrpc":"2.0","id":9,"method":"b"}`)
	got := h.out.waitN(t, 1)
	assert.Equal(t, `{"jsonrpc":"2.0","id":9,"error":{"code":-32600,"message":"member \"id\" is already used by a request still being served: give each request its own id"}}`, got[0])
	close(b.release)
	require.NoError(t, h.end(t))
}

func TestStdioPanicIsAPlainInternalError(t *testing.T) {
	var nilMap map[string]int
	h := start(t, &Stdio{Handler: func(context.Context, string, []byte) (json.RawMessage, *Error) {
		nilMap["x"]++ // a real runtime panic
		return nil, nil
	}, After: neverFires})
	h.send(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call"}`)
	got := h.out.waitN(t, 1)
	assert.Equal(t, `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"internal error while serving tools/call; the server's log has the details"}}`, got[0])
	require.NoError(t, h.end(t))
}

func TestStdioBoundsConcurrency(t *testing.T) {
	b := newBlocking()
	h := start(t, &Stdio{Handler: b.serve, After: neverFires, Limit: 2})
	h.send(t, `{"jsonrpc":"2.0","id":1,"method":"a"}`, `{"jsonrpc":"2.0","id":2,"method":"b"}`)
	recv(t, b.started, "a request to start")
	recv(t, b.started, "a request to start")
	h.send(t, `{"jsonrpc":"2.0","id":3,"method":"c"}`)
	// The third waits for a slot; cancelling it frees it without running.
	// A refused frame is answered by the read loop itself: once its answer
	// is out, the cancellation before it was applied.
	h.send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}`,
		`{"jsonrpc":"2.0","id":"probe"}`)
	h.out.waitN(t, 1)
	close(b.release)
	require.NoError(t, h.end(t))
	assert.Empty(t, b.started, "the cancelled request never ran")
	assert.NotContains(t, strings.Join(h.out.all(), "\n"), `"id":3`)
	assert.Len(t, h.out.all(), 3)
}

func TestMessageServesOneBodyWithItsIDExact(t *testing.T) {
	ctx := context.Background()
	logger := slog.New(slog.DiscardHandler)
	var notified []string
	h := func(ctx context.Context, method string, msg []byte) (json.RawMessage, *Error) {
		if strings.HasPrefix(method, "notifications/") {
			notified = append(notified, method)
			return nil, nil
		}
		return echo(ctx, method, msg)
	}
	assert.Equal(t, `{"jsonrpc":"2.0","id":123456789012345678901234567890,"result":{"method":"ping","internal_id":1}}`,
		string(Respond(ctx, h, logger, []byte(`{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}`))))
	assert.Equal(t, `{"jsonrpc":"2.0","id":"a","error":{"code":-32600,"message":"member \"method\" is missing: a request needs the name of the method to call"}}`,
		string(Respond(ctx, h, logger, []byte(`{"jsonrpc":"2.0","id":"a"}`))))
	assert.Nil(t, Respond(ctx, h, logger, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)), "a notification: nothing to send")
	assert.Equal(t, []string{"notifications/initialized"}, notified, "but it was served")
	assert.Nil(t, Respond(ctx, h, logger, []byte(`{"jsonrpc":"2.0","method":"notifications/x","params":[1]}`)), "a malformed notification: dropped")
	assert.Len(t, notified, 1)
	assert.Nil(t, Respond(ctx, h, logger, []byte(`{"jsonrpc":"2.0","id":3,"result":{}}`)), "a response from the client: nothing to send")
}

func TestStdioServesUnboundedMethodsWhileSlotsAreFull(t *testing.T) {
	b := newBlocking()
	h := start(t, &Stdio{Handler: b.serve, After: neverFires, Limit: 1, Bounded: []string{"tools/call"}})
	h.send(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call"}`)
	recv(t, b.started, "the call to start")
	h.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/call"}`, `{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	assert.Equal(t, "ping", recv(t, b.started, "the ping to start while the only slot is taken"))
	close(b.release)
	require.NoError(t, h.end(t))
	assert.Len(t, h.out.all(), 3)
}

// EndInput ends the input as the client closing it would: a request read
// before it is still answered, and Serve returns nil with the input open.
func TestEndInputAnswersTheRequestsAlreadyRead(t *testing.T) {
	release := make(chan struct{})
	arrived := make(chan struct{})
	endInput := make(chan struct{})
	h := start(t, &Stdio{EndInput: endInput, Bounded: []string{"tools/call"},
		Handler: func(ctx context.Context, method string, msg []byte) (json.RawMessage, *Error) {
			close(arrived)
			<-release
			return json.RawMessage(`{"late":true}`), nil
		}})
	h.send(t, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{}}`)
	<-arrived
	close(endInput)
	close(release)
	select {
	case err := <-h.done:
		assert.NoError(t, err)
	case <-time.After(hangGuard):
		t.Fatal("Serve did not return after EndInput")
	}
	assert.Equal(t, []string{`{"jsonrpc":"2.0","id":7,"result":{"late":true}}`}, h.out.all())
}
