//go:build !noembedded

package config

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The embedded backend's settings, checked in a build that has it.

var embeddedMistakes = []mistake{
	{"data-dir", "MCP_DATA_DIR", "", []string{"--embedded"}}, // value: a file, made by the test
	{"companies", "MCP_COMPANIES", "0", []string{"--embedded"}},
}

var embeddedMisconfigurations = []refusedConfig{
	{"companies out of range", []string{"--embedded", "--companies", "-5"}, nil, "--companies -5 is out of range; give 1 to"},
}

// unreadable names the settings a build cannot read: none here.
var unreadable = map[string]string{}

func TestTheCompaniesFlagWinsOverItsVariable(t *testing.T) {
	_, err := parseWith([]string{"--embedded"}, map[string]string{"MCP_COMPANIES": "20k"})
	require.Error(t, err, "MCP_COMPANIES is still read: no flag overrides it")
	assert.Contains(t, err.Error(), "MCP_COMPANIES")
	c, err := parseWith([]string{"--embedded", "--companies", "50"}, map[string]string{"MCP_COMPANIES": "20k"})
	require.NoError(t, err)
	assert.Equal(t, 50, c.Companies)
}
