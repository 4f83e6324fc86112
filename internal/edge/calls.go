package edge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// Requests the server sends to the client (MCP 2025-11-25's
// elicitation/create, sampling, roots): [Stdio.Call] writes one with an id
// of the server's own, and the read loop routes the client's answer back to
// the waiting caller by that id. A caller waits at most CallTimeout, and
// less when its context ends; either way the client is told with
// notifications/cancelled and a late answer is dropped. At most MaxCalls
// wait at once: each holds a request of the client's open (a tool call
// waiting for its user), so the bound keeps a client that never answers
// from tying up the workers.

// Defaults for the server's own requests.
const (
	// DefaultCallTimeout bounds the wait for the client's answer. A person
	// reads the question and decides: minutes, not seconds.
	DefaultCallTimeout = 5 * time.Minute
	// DefaultMaxCalls bounds the server's requests waiting at once.
	DefaultMaxCalls = 16
)

// callIDPrefix starts the ids of the server's requests: a string, so that
// in a log they are never mistaken for the client's own ids (MCP keeps the
// two id spaces apart anyway).
const callIDPrefix = "srv-"

// Errors of Call that are not the client's answer. A *Error is the
// client's own JSON-RPC error answer.
var (
	// ErrTooManyCalls refuses a request while MaxCalls already wait.
	ErrTooManyCalls = errors.New("too many requests to the client are waiting for an answer")
	// ErrCallTimeout is a request the client did not answer within CallTimeout.
	ErrCallTimeout = errors.New("the client did not answer in time")
	// ErrClientGone is a request that can get no answer: the client's input
	// ended or the server is stopping.
	ErrClientGone = errors.New("the client's connection ended before it answered")
)

// answer is the client's reply to one of the server's requests.
type answer struct {
	result json.RawMessage
	err    error // a *Error from the client, or ErrClientGone
}

// Call sends the client a request and waits for its answer: the result as
// raw JSON, or an error (*Error when the client answered with one).
// params is encoded with encoding/json; nil sends no params.
func (s *Stdio) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	var rawParams json.RawMessage
	if params != nil {
		b, err := json.Marshal(params)
		if err != nil {
			return nil, fmt.Errorf("encoding the params of %s: %w", method, err)
		}
		rawParams = b
	}
	ch := make(chan answer, 1)
	id, err := s.register(ch)
	if err != nil {
		return nil, err
	}
	msg, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  string          `json:"method"`
		Params  json.RawMessage `json:"params,omitempty"`
	}{"2.0", id.Raw(), method, rawParams})
	if err != nil {
		s.forget(id)
		return nil, fmt.Errorf("encoding %s: %w", method, err)
	}
	s.write(msg)

	timeout := s.CallTimeout
	if timeout <= 0 {
		timeout = DefaultCallTimeout
	}
	select {
	case a := <-ch:
		if a.err != nil {
			return nil, a.err
		}
		return a.result, nil
	case <-ctx.Done():
		s.abandon(id, method, "the server no longer needs the answer")
		return nil, ctx.Err()
	case <-s.after(timeout):
		s.abandon(id, method, "no answer within "+timeout.String())
		return nil, fmt.Errorf("%s: %w (%s)", method, ErrCallTimeout, timeout)
	}
}

// register gives a request an id and a place to wait for its answer.
func (s *Stdio) register(ch chan answer) (ID, error) {
	max := s.MaxCalls
	if max <= 0 {
		max = DefaultMaxCalls
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.callsClosed {
		return ID{}, ErrClientGone
	}
	if len(s.calls) >= max {
		return ID{}, fmt.Errorf("%w (%d)", ErrTooManyCalls, max)
	}
	if s.calls == nil {
		s.calls = map[string]chan answer{}
	}
	s.nextCall++
	id, _ := ParseID(json.RawMessage(strconv.Quote(callIDPrefix + strconv.FormatInt(s.nextCall, 10))))
	s.calls[id.Key()] = ch
	return id, nil
}

// forget drops a request nobody waits for any more; it reports whether it
// was still open.
func (s *Stdio) forget(id ID) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.calls[id.Key()]
	delete(s.calls, id.Key())
	return ok
}

// abandon stops waiting for a request and tells the client, so that it can
// take the question off the person's screen. An answer that arrives later
// finds no open request and is dropped.
func (s *Stdio) abandon(id ID, method, reason string) {
	if !s.forget(id) {
		return
	}
	s.Logger.Info("stopped waiting for the client's answer", "id", id.String(), "method", method, "reason", reason)
	msg, err := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"method":  methodCancelled,
		"params":  map[string]any{"requestId": id.Raw(), "reason": reason},
	})
	if err == nil {
		s.write(msg)
	}
}

// deliver routes an answer from the client to the request it answers. An
// answer that names no open request of the server's (never sent, already
// answered, given up on) is dropped: JSON-RPC never answers an answer.
func (s *Stdio) deliver(f Frame) {
	if f.ID.IsZero() {
		// Its content is not logged: it may hold what a person typed.
		s.Logger.Warn("dropped an answer from the client with a null id: it cannot be matched to a request", "bytes", len(f.Raw))
		return
	}
	s.mu.Lock()
	ch, ok := s.calls[f.ID.Key()]
	delete(s.calls, f.ID.Key())
	s.mu.Unlock()
	if !ok {
		s.Logger.Debug("dropped an answer from the client that names no open request of the server", "id", f.ID.String())
		return
	}
	ch <- readAnswer(f.Raw)
}

// readAnswer takes the result or the error out of an answer. A malformed
// error member is reported as the client's error all the same: the caller
// must not take it for a result.
func readAnswer(raw []byte) answer {
	m, perr := splitObject(raw)
	if perr != nil {
		return answer{err: &Error{CodeInvalidRequest, "the client's answer is not a valid JSON-RPC response: " + perr.Message, nil}}
	}
	if e, ok := m.get("error"); ok {
		var body struct {
			Code    *int            `json:"code"`
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data"`
		}
		if json.Unmarshal(e.raw, &body) != nil || body.Code == nil {
			return answer{err: &Error{CodeInvalidRequest, "the client answered with a malformed error", nil}}
		}
		return answer{err: &Error{*body.Code, body.Message, body.Data}}
	}
	r, _ := m.get("result")
	return answer{result: r.raw}
}

// endCalls fails every request still waiting, and any made later: no
// answer can arrive once the client's input has ended.
func (s *Stdio) endCalls() {
	s.mu.Lock()
	calls := s.calls
	s.calls, s.callsClosed = nil, true
	s.mu.Unlock()
	for _, ch := range calls {
		ch <- answer{err: ErrClientGone}
	}
}
