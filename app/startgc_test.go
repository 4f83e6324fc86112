package app

import (
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/appsynclocal"
	"github.com/companyintel/mcp-server/internal/edge"
)

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
	assert.Equal(t, edge.StartupGCPercent, gcPercent(), "relaxed while the server starts")
	r.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	r.answer(2)
	assert.Equal(t, before, gcPercent(), "the previous target once the catalogue is answered")
}
