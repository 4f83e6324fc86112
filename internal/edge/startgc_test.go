package edge

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestStartupGCIsRelaxedUntilTheFirstAnswerAfterTheHandshake(t *testing.T) {
	var set []int
	setPercent := func(p int) int { set = append(set, p); return 100 }
	restore := RelaxStartupGC(func(string) string { return "" }, setPercent)
	assert.Equal(t, []int{StartupGCPercent}, set)

	h := restoreGCAfterFirstAnswer(restore, func(context.Context, string, []byte) (json.RawMessage, *Error) {
		return json.RawMessage(`{}`), nil
	})
	for _, m := range []string{"initialize", "notifications/initialized"} {
		h(context.Background(), m, nil)
	}
	assert.Equal(t, []int{StartupGCPercent}, set, "the handshake is not an answer the client waits on")
	h(context.Background(), "tools/list", nil)
	assert.Equal(t, []int{StartupGCPercent, 100}, set, "the previous target is back after the first answer")
	h(context.Background(), "tools/call", nil)
	restore()
	assert.Equal(t, []int{StartupGCPercent, 100}, set, "restored once")
}

func TestStartupGCLeavesAnOperatorsGOGCAlone(t *testing.T) {
	called := false
	restore := RelaxStartupGC(func(k string) string {
		if k == "GOGC" {
			return "50"
		}
		return ""
	}, func(int) int { called = true; return 0 })
	restore()
	assert.False(t, called)
}
