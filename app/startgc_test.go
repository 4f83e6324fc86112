package app

import (
	"context"
	"encoding/json"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/appsynclocal"
	"github.com/companyintel/mcp-server/internal/edge"
)

func TestStartupGCIsRelaxedUntilTheFirstAnswerAfterTheHandshake(t *testing.T) {
	var set []int
	setPercent := func(p int) int { set = append(set, p); return 100 }
	restore := relaxStartupGC(func(string) string { return "" }, setPercent)
	assert.Equal(t, []int{startupGCPercent}, set)

	h := restoreGCAfterFirstAnswer(restore, func(context.Context, string, []byte) (json.RawMessage, *edge.Error) {
		return json.RawMessage(`{}`), nil
	})
	for _, m := range []string{"initialize", "notifications/initialized"} {
		h(context.Background(), m, nil)
	}
	assert.Equal(t, []int{startupGCPercent}, set, "the handshake is not an answer the client waits on")
	h(context.Background(), "tools/list", nil)
	assert.Equal(t, []int{startupGCPercent, 100}, set, "the previous target is back after the first answer")
	h(context.Background(), "tools/call", nil)
	restore()
	assert.Equal(t, []int{startupGCPercent, 100}, set, "restored once")
}

func TestStartupGCLeavesAnOperatorsGOGCAlone(t *testing.T) {
	called := false
	restore := relaxStartupGC(func(k string) string {
		if k == "GOGC" {
			return "50"
		}
		return ""
	}, func(int) int { called = true; return 0 })
	restore()
	assert.False(t, called)
}

// gcPercent reads the collector's target without changing it for long.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

func TestStdioServerRestoresTheGCTargetAfterItsFirstAnswer(t *testing.T) {
	srv, err := appsynclocal.Start(appsynclocal.Config{DataDir: t.TempDir(), Companies: 20}, "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { srv.Close() })
	before := gcPercent()

	r := launch(t, []string{"--endpoint", srv.URL()}, map[string]string{"APPSYNC_API_KEY": srv.Backend().APIKey()})
	r.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`)
	r.answer(1)
	assert.Equal(t, startupGCPercent, gcPercent(), "relaxed while the server starts")
	r.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	r.answer(2)
	assert.Equal(t, before, gcPercent(), "the previous target once the catalogue is answered")
}
