package e2e

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNoEmbeddedBuildRefusesEmbedded builds the production binary
// (-tags noembedded) and asks it for the demo backend it does not have:
// exit 2, one line saying so and what to do, nothing on stdout. The binary is
// also smaller than the default build TestMain made.
func TestNoEmbeddedBuildRefusesEmbedded(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	lean := filepath.Join(t.TempDir(), "mcp-server-lean")
	build := exec.CommandContext(ctx, "go", "build", "-tags", "noembedded", "-o", lean, "./cmd/server")
	build.Dir = ".."
	out, err := build.CombinedOutput()
	require.NoError(t, err, "go build -tags noembedded ./cmd/server:\n%s", out)

	for _, args := range [][]string{{"--embedded"}, {"--embedded", "--companies", "2000"}} {
		var stdout, stderr bytes.Buffer
		cmd := exec.CommandContext(ctx, lean, args...)
		cmd.Env = childEnv()
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		require.True(t, errors.As(err, &exit), "want exit 2, got %v; stderr: %s", err, stderr.String())
		assert.Equal(t, 2, exit.ExitCode(), "stderr: %s", stderr.String())
		assert.Empty(t, stdout.String(), "stdout belongs to the protocol")
		assert.Contains(t, stderr.String(), "this build has no embedded backend")
		assert.Contains(t, stderr.String(), "--endpoint")
		assert.Equal(t, 1, bytes.Count(stderr.Bytes(), []byte("\n")), "one line: %s", stderr.String())
	}

	leanInfo, err := os.Stat(lean)
	require.NoError(t, err)
	fullInfo, err := os.Stat(serverBin)
	require.NoError(t, err)
	t.Logf("default build %d bytes, -tags noembedded %d bytes", fullInfo.Size(), leanInfo.Size())
	assert.Less(t, leanInfo.Size(), fullInfo.Size())
}
