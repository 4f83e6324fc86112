package edge

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// asking is a handler whose tools/call asks the client (elicitation/create)
// and answers with what the client said, or with the error Call returned.
func asking(s *Stdio, errs chan<- error) MessageHandler {
	return func(ctx context.Context, method string, msg []byte) (json.RawMessage, *Error) {
		if method != "tools/call" {
			return json.RawMessage(`{}`), nil
		}
		res, err := s.Call(ctx, "elicitation/create", map[string]any{"message": "Create the collection?"})
		if errs != nil {
			errs <- err
		}
		if err != nil {
			return nil, &Error{CodeInternalError, "asked and got: " + err.Error(), nil}
		}
		return json.RawMessage(`{"asked":` + string(res) + `}`), nil
	}
}

// outbound reads a request the server wrote to the client.
func outbound(t *testing.T, line string) (id json.RawMessage, method string, params json.RawMessage) {
	t.Helper()
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	require.NoError(t, json.Unmarshal([]byte(line), &m), line)
	return m.ID, m.Method, m.Params
}

func TestCallRoutesTheClientsAnswerByID(t *testing.T) {
	s := &Stdio{After: neverFires}
	s.Handler = asking(s, nil)
	h := start(t, s)
	h.send(t, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{}}`)

	id, method, params := outbound(t, h.out.waitN(t, 1)[0])
	assert.Equal(t, `"srv-1"`, string(id), "the server's request has an id of its own")
	assert.Equal(t, "elicitation/create", method)
	assert.JSONEq(t, `{"message":"Create the collection?"}`, string(params))

	// An answer naming another id is dropped and harms nothing.
	h.send(t, `{"jsonrpc":"2.0","id":"srv-99","result":{"action":"accept"}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"x"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	assert.JSONEq(t, `{"jsonrpc":"2.0","id":1,"result":{}}`, h.out.waitN(t, 2)[1], "the session goes on")

	h.send(t, `{"jsonrpc":"2.0","id":"srv-1","result":{"action":"decline"}}`)
	assert.JSONEq(t, `{"jsonrpc":"2.0","id":7,"result":{"asked":{"action":"decline"}}}`, h.out.waitN(t, 3)[2])

	// A second answer to the same id is dropped too.
	h.send(t, `{"jsonrpc":"2.0","id":"srv-1","result":{"action":"accept"}}`)
	require.NoError(t, h.end(t))
	assert.Len(t, h.out.all(), 3, "an answer is never answered")
}

func TestCallReturnsTheClientsErrorAnswer(t *testing.T) {
	s := &Stdio{After: neverFires}
	errs := make(chan error, 1)
	s.Handler = asking(s, errs)
	h := start(t, s)
	h.send(t, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{}}`)
	h.out.waitN(t, 1)
	h.send(t, `{"jsonrpc":"2.0","id":"srv-1","error":{"code":-32601,"message":"elicitation is not supported"}}`)
	var e *Error
	require.ErrorAs(t, <-errs, &e)
	assert.Equal(t, -32601, e.Code)
	assert.Equal(t, "elicitation is not supported", e.Message)
	require.NoError(t, h.end(t))
}

func TestCallGivesUpAtItsDeadlineAndTellsTheClient(t *testing.T) {
	fire := make(chan time.Time)
	s := &Stdio{CallTimeout: 7 * time.Minute, After: func(d time.Duration) <-chan time.Time {
		if d == 7*time.Minute {
			return fire
		}
		return nil
	}}
	errs := make(chan error, 1)
	s.Handler = asking(s, errs)
	h := start(t, s)
	h.send(t, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{}}`)
	h.out.waitN(t, 1)
	fire <- time.Now()
	assert.ErrorIs(t, <-errs, ErrCallTimeout)

	out := h.out.waitN(t, 3)
	assert.JSONEq(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"srv-1","reason":"no answer within 7m0s"}}`, out[1])
	assert.Contains(t, out[2], `"id":7,"error"`)
	// The answer that comes too late is dropped.
	h.send(t, `{"jsonrpc":"2.0","id":"srv-1","result":{"action":"accept"}}`)
	require.NoError(t, h.end(t))
	assert.Len(t, h.out.all(), 3)
}

func TestCallEndsWhenTheClientCancelsTheRequestItServes(t *testing.T) {
	s := &Stdio{After: neverFires}
	errs := make(chan error, 1)
	s.Handler = asking(s, errs)
	h := start(t, s)
	h.send(t, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{}}`)
	h.out.waitN(t, 1)
	h.send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`)
	assert.ErrorIs(t, <-errs, context.Canceled)
	out := h.out.waitN(t, 2)
	assert.Contains(t, out[1], `"method":"notifications/cancelled"`)
	assert.Contains(t, out[1], `"requestId":"srv-1"`)
	require.NoError(t, h.end(t))
	assert.Len(t, h.out.all(), 2, "the cancelled call is not answered")
}

func TestCallIsBoundedInHowManyWait(t *testing.T) {
	s := &Stdio{After: neverFires, MaxCalls: 1}
	errs := make(chan error, 2)
	s.Handler = asking(s, errs)
	h := start(t, s)
	h.send(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}`)
	h.out.waitN(t, 1)
	h.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{}}`)
	assert.ErrorIs(t, <-errs, ErrTooManyCalls)
	assert.Contains(t, h.out.waitN(t, 2)[1], `"id":2,"error"`)

	h.send(t, `{"jsonrpc":"2.0","id":"srv-1","result":{"action":"accept"}}`)
	require.NoError(t, <-errs)
	require.NoError(t, h.end(t))
}

func TestCallEndsWithTheClientsInput(t *testing.T) {
	s := &Stdio{After: neverFires}
	errs := make(chan error, 1)
	s.Handler = asking(s, errs)
	h := start(t, s)
	h.send(t, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{}}`)
	h.out.waitN(t, 1)
	require.NoError(t, h.end(t), "Serve returns without waiting for an answer that cannot come")
	assert.ErrorIs(t, <-errs, ErrClientGone)
	out := h.out.all()
	require.Len(t, out, 2)
	assert.True(t, strings.Contains(out[1], `"id":7,"error"`), out[1])

	_, err := s.Call(context.Background(), "ping", nil)
	assert.True(t, errors.Is(err, ErrClientGone), "a request after the end is refused at once")
}
