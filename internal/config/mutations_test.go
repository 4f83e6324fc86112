package config

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseMutations(t *testing.T) {
	m, err := ParseMutations("", writeTools())
	require.NoError(t, err)
	assert.False(t, m.Any())
	m, err = ParseMutations("true", writeTools())
	require.NoError(t, err)
	assert.Equal(t, writeTools(), m.Enabled())
	m, err = ParseMutations("create_collection, add_to_collection", writeTools())
	require.NoError(t, err)
	assert.Equal(t, []string{"create_collection", "add_to_collection"}, m.Enabled())
	_, err = ParseMutations("create_colection", writeTools())
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unknown write tool "create_colection"`)
	assert.Contains(t, err.Error(), "request_email_discovery")
}
