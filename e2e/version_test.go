package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestVersionNamesTheCommit builds the server the way a release is built —
// in a plain clone of this checkout's commit, -trimpath, the go command
// recording the VCS state — and holds --version to that commit: the version
// is the pseudo-version naming it, the revision is the commit, the tree is
// unmodified, the catalogue hash is `catalog --hash`. The start-up line's
// version= and the status resource's version are the same value. Then one
// tracked file changes and the rebuilt binary says modified and +dirty.
//
// A clone, not this tree: the go command records no VCS data in a git
// worktree (its .git is a file), and this tree may hold uncommitted work.
// -buildvcs=true on the command line, because GOFLAGS may turn it off.
func TestVersionNamesTheCommit(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	rev := strings.TrimSpace(command(t, ctx, root, "git", "rev-parse", "HEAD"))
	require.Len(t, rev, 40, "the module root must be a git checkout: %q", rev)

	tmp := t.TempDir()
	src := filepath.Join(tmp, "src")
	command(t, ctx, tmp, "git", "clone", "--quiet", "--no-checkout", root, src)
	command(t, ctx, src, "git", "checkout", "--quiet", rev)
	bin := filepath.Join(tmp, "mcp-server") // outside the clone: an untracked file would count as a change
	command(t, ctx, src, "go", "build", "-buildvcs=true", "-trimpath", "-o", bin, "./cmd/server")

	v := versionOf(t, ctx, bin)
	assert.Regexp(t, `^v\d+\.\d+\.\d+-(\d+\.)?\d{14}-`+rev[:12]+`$`, v["mcp-server"], "a pseudo-version naming the commit")
	assert.Equal(t, rev, v["revision"])
	assert.Equal(t, "false", v["modified"])
	assert.Equal(t, strings.TrimSpace(command(t, ctx, tmp, bin, "catalog", "--hash")), v["catalog"])
	assert.Regexp(t, `^go\d`, v["go"])

	// The start-up line: the server starts, reads end of input and stops.
	var stderr bytes.Buffer
	start := exec.CommandContext(ctx, bin, embeddedArgs()...)
	start.Env, start.Stderr = childEnv(), &stderr
	require.NoError(t, start.Run(), stderr.String())
	var startup record
	for _, line := range strings.Split(stderr.String(), "\n") {
		if r, err := parseLogfmt(line); err == nil && r["msg"] == "starting mcp-server" {
			startup = r
		}
	}
	require.NotNil(t, startup, "no start-up line: %s", stderr.String())
	assert.Equal(t, v["mcp-server"], startup["version"], "the start-up line's version is --version's")
	assert.Equal(t, v["catalog"][:12], startup["catalog"])

	s := startSessionOf(t, ctx, bin, revisions[len(revisions)-1])
	var status struct {
		Version string `json:"version"`
	}
	readJSONResource(t, s, "companies://server/status", &status)
	assert.Equal(t, v["mcp-server"], status.Version, "the status resource's version is --version's")

	readme := filepath.Join(src, "README.md")
	b, err := os.ReadFile(readme)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(readme, append(b, "\nchanged\n"...), 0o644))
	command(t, ctx, src, "go", "build", "-buildvcs=true", "-trimpath", "-o", bin, "./cmd/server")
	v = versionOf(t, ctx, bin)
	assert.Equal(t, rev, v["revision"])
	assert.Equal(t, "true", v["modified"])
	assert.True(t, strings.HasSuffix(v["mcp-server"], "+dirty"), "version of a modified tree: %q", v["mcp-server"])
}

// versionOf runs bin --version and reads its "key value" lines.
func versionOf(t *testing.T, ctx context.Context, bin string) map[string]string {
	t.Helper()
	out := command(t, ctx, filepath.Dir(bin), bin, "--version")
	v := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		key, val, ok := strings.Cut(line, " ")
		require.True(t, ok, "--version line without a value: %q", line)
		v[key] = val
	}
	for _, key := range []string{"mcp-server", "revision", "modified", "catalog", "go"} {
		require.Contains(t, v, key, "--version:\n%s", out)
	}
	return v
}

// command runs name in dir and returns its standard output; a failure
// fails the test with its standard error.
func command(t *testing.T, ctx context.Context, dir, name string, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &stdout, &stderr
	require.NoError(t, cmd.Run(), "%s %s in %s: %s", name, strings.Join(args, " "), dir, stderr.String())
	return stdout.String()
}
