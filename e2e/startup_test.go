package e2e

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMisconfigurationRefusesToStart runs the binary with settings that must
// stop it before anything starts: exit code 2, one line on stderr naming the
// flag or variable and the fix, nothing on stdout, and no request sent.
func TestMisconfigurationRefusesToStart(t *testing.T) {
	// A listener that records whether anything connected: the endpoint of
	// the refused configurations points here where it can.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	connected := make(chan struct{}, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			connected <- struct{}{}
			c.Close()
		}
	}()

	tests := []struct {
		name    string
		args    []string
		env     []string
		mention []string
	}{
		{"plain http to a host that is not loopback", []string{"--endpoint", "http://api.example.com/graphql"}, []string{"APPSYNC_API_KEY=da2-e2esecretkey000000"},
			[]string{"--endpoint: ", "plain http to api.example.com", "use https", "e.g. --endpoint https://"}},
		{"endpoint without a scheme", []string{"--endpoint", "abc123.appsync-api.eu-west-1.amazonaws.com/graphql"}, nil,
			[]string{"--endpoint: ", "has no scheme", "e.g. --endpoint https://abc123example.appsync-api.eu-west-1.amazonaws.com/graphql"}},
		{"a variable that does not parse", []string{"--endpoint", "http://" + ln.Addr().String() + "/graphql"}, []string{"HIDE_DISABLED_TOOLS=perhaps", "APPSYNC_API_KEY=da2-e2esecretkey000000"},
			[]string{"HIDE_DISABLED_TOOLS", `"perhaps" is not true or false`}},
		{"a rate-limit spec, before the embedded backend starts", append(embeddedArgs(), "--rate-limit", "ai_search=many"), nil,
			[]string{"--rate-limit"}},
		{"an unknown error class", []string{"--endpoint", "http://" + ln.Addr().String() + "/graphql", "--error-class", "OrderStateConflict=gone"}, []string{"APPSYNC_API_KEY=da2-e2esecretkey000000"},
			[]string{"--error-class", `unknown class "gone"`}},
		{"a Redis password in the clear to another host", embeddedArgs(), []string{"REDIS_URL=redis://:da2-e2esecretkey000000@cache.example:6379"},
			[]string{"REDIS_URL: ", "password in the clear to cache.example:6379", "use rediss://"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			var stdout, stderr bytes.Buffer
			cmd := exec.CommandContext(ctx, serverBin, tt.args...)
			cmd.Env = append(childEnv(), tt.env...)
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			var exit *exec.ExitError
			require.True(t, errors.As(err, &exit), "the server did not fail: %v\nstderr: %s", err, stderr.String())
			assert.Equal(t, 2, exit.ExitCode(), "stderr: %s", stderr.String())
			assert.Empty(t, stdout.String(), "stdout belongs to the protocol")
			lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
			assert.Len(t, lines, 1, "one line: %q", stderr.String())
			for _, m := range tt.mention {
				assert.Contains(t, lines[0], m)
			}
			assert.NotContains(t, stderr.String(), "da2-e2esecretkey000000")
		})
	}
	select {
	case <-connected:
		t.Error("a refused configuration still connected to its endpoint")
	default:
	}
}
