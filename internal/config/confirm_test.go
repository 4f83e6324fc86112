package config

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/tools"
)

func TestConfirmWritesDefaultsToAskAndReadsFlagOrEnvironment(t *testing.T) {
	c, err := parseWith(endpoint, nil)
	require.NoError(t, err)
	assert.Equal(t, tools.ConfirmAsk, c.Confirm.Mode)
	assert.Nil(t, c.Confirm.Key)

	c, err = parseWith(endpoint, map[string]string{"CONFIRM_WRITES": "Required"})
	require.NoError(t, err)
	assert.Equal(t, tools.ConfirmRequired, c.Confirm.Mode)
	c, err = parseWith(append(append([]string{}, endpoint...), "--confirm-writes=off"), map[string]string{"CONFIRM_WRITES": "required"})
	require.NoError(t, err)
	assert.Equal(t, tools.ConfirmOff, c.Confirm.Mode, "the flag wins")

	_, err = parseWith(append(append([]string{}, endpoint...), "--confirm-writes=maybe"), nil)
	assert.EqualError(t, err, `--confirm-writes: "maybe" is not off, ask or required`)
	_, err = parseWith(endpoint, map[string]string{"CONFIRM_WRITES": "maybe"})
	assert.EqualError(t, err, `CONFIRM_WRITES: "maybe" is not off, ask or required`)

	key := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("x", 32)))
	c, err = parseWith(endpoint, map[string]string{"CONFIRM_STATE_KEY": key})
	require.NoError(t, err)
	assert.NotNil(t, c.Confirm.Key)
	_, err = parseWith(append(append([]string{}, endpoint...), "--confirm-state-key", "hunter2hunter2"), nil)
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "hunter2", "a key is never echoed")
}

func TestSharedHTTPServiceThatConfirmsWritesNeedsASharedKey(t *testing.T) {
	shared := append(append([]string{}, endpoint...), "--http", "0.0.0.0:8080", "--oauth-issuer", "https://login.example.com",
		"--public-url", "https://mcp.example.com/mcp", "--allow-mutations")
	_, err := parseWith(shared, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "--confirm-writes=ask on a shared HTTP service needs --confirm-state-key, the same on every replica")

	key := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("x", 32)))
	for name, c := range map[string]struct {
		args []string
		env  map[string]string
	}{
		"with a key":           {shared, map[string]string{"CONFIRM_STATE_KEY": key}},
		"confirmation off":     {append(shared, "--confirm-writes=off"), nil},
		"writes off":           {shared[:len(shared)-1], nil},
		"one loopback process": {append(append([]string{}, endpoint...), "--http", "127.0.0.1:0", "--allow-mutations"), nil},
		"stdio, one process":   {append(append([]string{}, endpoint...), "--allow-mutations"), nil},
	} {
		_, err := parseWith(c.args, c.env)
		assert.NoError(t, err, name)
	}
}
