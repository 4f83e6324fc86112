//go:build !noembedded

package app

import (
	"context"
	"io"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/appsynclocal"
	"github.com/companyintel/mcp-server/internal/config"
)

// --companies takes 1 to appsynclocal.MaxCompanies; anything else, 0
// included, is refused rather than replaced by the default or the maximum.
func TestCompaniesOutOfRangeIsRefused(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	c, err := ParseConfig([]string{"--embedded"}, env(), io.Discard)
	require.NoError(t, err)
	assert.Equal(t, appsynclocal.DefaultCompanies, c.Companies, "neither flag nor variable: the default")

	c, err = ParseConfig([]string{"--embedded", "--companies", "1000000"}, env(), io.Discard)
	require.NoError(t, err)
	assert.Equal(t, appsynclocal.MaxCompanies, c.Companies)

	for _, tt := range []struct {
		args   []string
		getenv func(string) string
	}{
		{[]string{"--embedded", "--companies", "0"}, env()},
		{[]string{"--embedded", "--companies", "-5"}, env()},
		{[]string{"--embedded", "--companies", "1000001"}, env()},
		{[]string{"--embedded"}, env("MCP_COMPANIES", "0")},
		{[]string{"--embedded"}, env("MCP_COMPANIES", "2000000")},
	} {
		_, err := ParseConfig(tt.args, tt.getenv, io.Discard)
		require.Error(t, err, "%v", tt.args)
		named := "--companies "
		if len(tt.args) == 1 {
			named = "MCP_COMPANIES="
		}
		assert.True(t, strings.HasPrefix(err.Error(), named), "named as it was given: %v", err)
		assert.Contains(t, err.Error(), "out of range; give 1 to 1000000")
	}
}

// The operator's guide states the same range as the code, in both places
// --companies appears (the server's flags and appsync-local's).
func TestDocsStateTheCompaniesRange(t *testing.T) {
	readme, err := os.ReadFile("../docs/operator.md")
	require.NoError(t, err)
	var rows []string
	for line := range strings.SplitSeq(string(readme), "\n") {
		if strings.HasPrefix(line, "| `--companies`") {
			rows = append(rows, line)
		}
	}
	require.Len(t, rows, 2, "the server's --companies row and appsync-local's")
	require.Equal(t, 1_000_000, appsynclocal.MaxCompanies, "update docs/operator.md's range with the code")
	for _, row := range rows {
		assert.Contains(t, row, "1 to 1,000,000", row)
	}
}

// cancelAtBuild cancels when the log says a companies database build began,
// as a SIGTERM to the server at that moment would.
type cancelAtBuild struct{ cancel context.CancelFunc }

func (h cancelAtBuild) Enabled(context.Context, slog.Level) bool { return true }
func (h cancelAtBuild) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h cancelAtBuild) WithGroup(string) slog.Handler            { return h }
func (h cancelAtBuild) Handle(_ context.Context, r slog.Record) error {
	if r.Message == "building companies database" {
		h.cancel()
	}
	return nil
}

func TestEmbeddedBuildStopsWhenTheServerIsStopped(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	emb, err := startEmbedded(ctx, config.Config{Embedded: true, DataDir: dir, Companies: 1_000_000}, slog.New(cancelAtBuild{cancel}))

	require.Error(t, err)
	assert.Nil(t, emb)
	assert.Contains(t, err.Error(), "stopped")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		assert.False(t, strings.HasPrefix(e.Name(), "companies-"), "%s left in the data dir", e.Name())
	}
}

// startEmbeddedDemo runs the demo (--embedded) with an empty environment
// until its start-up line, and returns its log.
func startEmbeddedDemo(t *testing.T, args ...string) string {
	t.Helper()
	env := func(string) string { return "" }
	cfg, err := ParseConfig(append([]string{"--embedded", "--companies", "300", "--data-dir", t.TempDir()}, args...), env, io.Discard)
	require.NoError(t, err)
	inR, inW := io.Pipe()
	logs := &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Run(ctx, cfg, Stdio{In: inR, Out: io.Discard, Err: logs}, env) }()
	defer func() { cancel(); inW.Close(); <-done }()
	select {
	case <-logs.started():
	case err := <-done:
		t.Fatalf("start-up failed: %v\n%s", err, logs.String())
	case <-time.After(30 * time.Second):
		t.Fatalf("no start-up line: %s", logs.String())
	}
	return logs.String()
}

func TestEmbeddedDemoStartsWithoutWarnings(t *testing.T) {
	// The demo's own API key is not one the user set: it must not bring the
	// "APPSYNC_API_KEY is set but not used" warning to every demo start.
	logs := startEmbeddedDemo(t)
	assert.NotContains(t, logs, "level=WARN", logs)
	assert.Contains(t, logs, "auth=oidc")

	logs = startEmbeddedDemo(t, "--auth", "apikey")
	assert.Contains(t, logs, "auth=apikey", "the key is still there when asked for")
}
