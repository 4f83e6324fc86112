package app

import (
	"bytes"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// --version is answered whatever else the flags and the environment say:
// a broken configuration must not hide which build is installed.
func TestVersionFlagWinsOverTheRest(t *testing.T) {
	env := map[string]string{"ALLOW_MUTATIONS": "not_a_tool"}
	_, err := ParseConfig([]string{"--version"}, func(k string) string { return env[k] }, io.Discard)
	assert.ErrorIs(t, err, ErrVersion, "no endpoint, a bad ALLOW_MUTATIONS")
	_, err = ParseConfig([]string{"--embedded"}, func(k string) string { return env[k] }, io.Discard)
	assert.ErrorContains(t, err, "ALLOW_MUTATIONS", "without --version the bad variable is still refused")
}

// --version prints the same version the start-up line shows and the full
// catalogue hash. A test binary has no VCS data, and says so.
func TestPrintVersion(t *testing.T) {
	var out bytes.Buffer
	require.Equal(t, 0, PrintVersion(&out, io.Discard))
	hash, err := CatalogueHash()
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 5, out.String())
	assert.Equal(t, "mcp-server "+Version(), lines[0])
	assert.True(t, strings.HasPrefix(lines[1], "revision unknown ("), lines[1])
	assert.Equal(t, "modified unknown", lines[2])
	assert.Equal(t, "catalog "+hash, lines[3])
	assert.Equal(t, "go "+runtime.Version()+" "+runtime.GOOS+"/"+runtime.GOARCH, lines[4])
}
