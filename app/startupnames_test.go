package app

import (
	"context"
	"io"
	"net"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A mistake found only when the server starts (the address is taken) is
// named as it was given too: the variable when the address came from it.
func TestAnAddressInUseIsNamedAsItWasGiven(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer taken.Close()
	addr := taken.Addr().String()
	for _, given := range []struct {
		args []string
		env  map[string]string
		want string
	}{
		{[]string{"--http", addr}, nil, "--http " + addr + ": "},
		{nil, map[string]string{"MCP_HTTP_ADDR": addr}, "MCP_HTTP_ADDR=" + addr + ": "},
	} {
		env := map[string]string{"APPSYNC_API_KEY": "da2-test"}
		for k, v := range given.env {
			env[k] = v
		}
		getenv := func(k string) string { return env[k] }
		cfg, err := ParseConfig(append([]string{"--endpoint", "http://127.0.0.1:1/graphql"}, given.args...), getenv, io.Discard)
		require.NoError(t, err)
		err = Run(context.Background(), cfg, Stdio{Err: io.Discard}, getenv)
		require.Error(t, err)
		assert.Contains(t, err.Error(), given.want)
		assert.True(t, IsMisconfiguration(err), "exit 2: %v", err)
	}
}
