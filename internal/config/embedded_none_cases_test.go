//go:build noembedded

package config

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A build without the embedded backend refuses --embedded before reading
// the backend's own settings, so they have no case here (the refusal has:
// TestABuildWithoutTheEmbeddedBackendRefusesIt).

var (
	embeddedMistakes          []mistake
	embeddedMisconfigurations []refusedConfig
)

// unreadable names the settings this build cannot read, and why.
var unreadable = map[string]string{
	"data-dir":  "the embedded backend's, and this build has none",
	"companies": "the embedded backend's, and this build has none",
}

func TestABuildWithoutTheEmbeddedBackendRefusesIt(t *testing.T) {
	_, err := parseWith([]string{"--embedded"}, nil)
	require.ErrorIs(t, err, ErrNoEmbedded)
	_, err = parseWith(nil, map[string]string{"MCP_EMBEDDED": "true"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "MCP_EMBEDDED: this build has no embedded backend")
	assert.Contains(t, err.Error(), "APPSYNC_ENDPOINT")
}
