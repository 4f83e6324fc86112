//go:build !noembedded

package app

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/internal/config"
)

// TestEmbeddedIssuerKeepsItsAddress: the embedded issuer records its
// address in the data dir and comes back on it, so its URL (every token's
// iss) survives a restart; when the address is taken, it starts elsewhere
// and says that earlier tokens are not accepted; another data dir is
// another issuer.
func TestEmbeddedIssuerKeepsItsAddress(t *testing.T) {
	dir := t.TempDir()
	cfg := config.Config{DataDir: dir, Companies: 20}
	cfg.HTTP.Issuers = []string{config.EmbeddedIssuer}
	start := func(cfg config.Config) (*embedded, string) {
		var logs bytes.Buffer
		e, err := startEmbedded(context.Background(), cfg, slog.New(slog.NewTextHandler(&logs, nil)))
		require.NoError(t, err)
		return e, logs.String()
	}
	first, _ := start(cfg)
	url := first.issuerURL()
	recorded, err := os.ReadFile(filepath.Join(dir, issuerAddrFile))
	require.NoError(t, err)
	assert.Equal(t, url, "http://"+string(bytes.TrimSpace(recorded)))

	second, logs := start(cfg) // the first still holds the address
	assert.NotEqual(t, url, second.issuerURL())
	assert.Contains(t, logs, `level=WARN msg="embedded issuer moved: tokens issued before this start are not accepted by this server"`)
	require.NoError(t, second.Close())
	require.NoError(t, first.Close())

	again, logs := start(cfg)
	t.Cleanup(func() { again.Close() })
	assert.Equal(t, url, again.issuerURL(), "a restart on the same data dir keeps the issuer's URL")
	assert.NotContains(t, logs, "moved")

	other := cfg
	other.DataDir = t.TempDir()
	elsewhere, _ := start(other)
	t.Cleanup(func() { elsewhere.Close() })
	assert.NotEqual(t, url, elsewhere.issuerURL(), "another data dir is another issuer")
}
