package edge

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type observedKey struct{}

// TestObserveSeesEachRequestAndItsOutcome: the hook gets every request as
// the client sent it (its id, not the edge's), the handler runs in the
// context the hook returned, and the hook hears how it ended. Notifications
// and refused frames are not requests served: the hook is not called.
func TestObserveSeesEachRequestAndItsOutcome(t *testing.T) {
	var mu sync.Mutex
	type seen struct {
		method, id string
		params     string
		err        *Error
	}
	var got []seen
	s := &Stdio{
		After: neverFires,
		Handler: func(ctx context.Context, method string, msg []byte) (json.RawMessage, *Error) {
			if ctx.Value(observedKey{}) != "yes" {
				return nil, &Error{CodeInternalError, "not served in the hook's context", nil}
			}
			if method == "fail" {
				return nil, &Error{CodeInvalidParams, "bad", nil}
			}
			return json.RawMessage(`{}`), nil
		},
		Observe: func(ctx context.Context, f Frame) (context.Context, func(*Error)) {
			return context.WithValue(ctx, observedKey{}, "yes"), func(e *Error) {
				mu.Lock()
				defer mu.Unlock()
				got = append(got, seen{f.Method, f.ID.Text(), string(f.Params), e})
			}
		},
	}
	h := start(t, s)
	h.send(t,
		`{"jsonrpc":"2.0","id":"a-1","method":"tools/call","params":{"name":"x","_meta":{"traceparent":"00-1-2-01"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"fail"}`,
		`{"jsonrpc":"2.0","id":true,"method":"ping"}`,
	)
	out := h.out.waitN(t, 3)
	require.NoError(t, h.end(t))
	for _, m := range out {
		assert.NotContains(t, m, "hook's context", "every request was served in the hook's context")
	}
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, got, 2)
	byID := map[string]seen{}
	for _, g := range got {
		byID[g.id] = g
	}
	assert.Equal(t, "tools/call", byID["a-1"].method)
	assert.JSONEq(t, `{"name":"x","_meta":{"traceparent":"00-1-2-01"}}`, byID["a-1"].params)
	assert.Nil(t, byID["a-1"].err)
	require.NotNil(t, byID["123456789012345678901234567890"].err, "the id as the client wrote it")
	assert.Equal(t, CodeInvalidParams, byID["123456789012345678901234567890"].err.Code)
}
