package app

import (
	"log/slog"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/internal/config"
)

func discardLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }

// parseMutations reads an --allow-mutations value against this server's
// write tools.
func parseMutations(s string) (config.Mutations, error) {
	return config.ParseMutations(s, writeTools())
}

// mustMutations is parseMutations for a value the test knows is good.
func mustMutations(t *testing.T, s string) config.Mutations {
	t.Helper()
	m, err := parseMutations(s)
	require.NoError(t, err)
	return m
}
