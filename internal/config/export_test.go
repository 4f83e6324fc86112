package config

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/ratelimit"
)

func TestExportSettingsHaveBoundedDefaults(t *testing.T) {
	c, err := parseWith(endpoint, nil)
	require.NoError(t, err)
	assert.Equal(t, "", c.Export.Dir, "no file is written anywhere without a directory")
	assert.Equal(t, ratelimit.Limit{Count: 20, Period: time.Hour}, c.Export.PerCaller)
	assert.Equal(t, 4, c.Export.Concurrent)

	c, err = parseWith(endpoint, map[string]string{"MCP_EXPORT_LIMIT": "5/m", "MCP_MAX_CONCURRENT_EXPORTS": "8"})
	require.NoError(t, err)
	assert.Equal(t, ratelimit.Limit{Count: 5, Period: time.Minute}, c.Export.PerCaller)
	assert.Equal(t, 8, c.Export.Concurrent)

	for args, want := range map[string]string{
		"--export-limit=off":          `--export-limit: "off" is not COUNT/PERIOD; give it like --export-limit 20/h`,
		"--max-concurrent-exports=0":  "--max-concurrent-exports 0 is out of range; give 1 to 64, e.g. --max-concurrent-exports 4",
		"--max-concurrent-exports=65": "--max-concurrent-exports 65 is out of range; give 1 to 64, e.g. --max-concurrent-exports 4",
	} {
		_, err := parseWith(append(append([]string{}, endpoint...), args), nil)
		assert.EqualError(t, err, want, args)
	}
}

func TestExportDirMustExistAndIsForStdioOnly(t *testing.T) {
	dir := t.TempDir()
	c, err := parseWith(append(append([]string{}, endpoint...), "--export-dir", dir), nil)
	require.NoError(t, err)
	assert.Equal(t, dir, c.Export.Dir)

	t.Chdir(dir)
	require.NoError(t, os.Mkdir("out", 0o700))
	c, err = parseWith(endpoint, map[string]string{"MCP_EXPORT_DIR": "out"})
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "out"), c.Export.Dir, "made absolute at start, so a later chdir moves nothing")

	_, err = parseWith(append(append([]string{}, endpoint...), "--export-dir", filepath.Join(dir, "missing")), nil)
	assert.EqualError(t, err, "--export-dir: "+filepath.Join(dir, "missing")+" does not exist; create the directory first (the server never creates it)")
	f := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(f, nil, 0o600))
	_, err = parseWith(append(append([]string{}, endpoint...), "--export-dir", f), nil)
	assert.EqualError(t, err, "--export-dir: "+f+" is not a directory; give the directory where export files may be written")
	_, err = parseWith(append(append([]string{}, endpoint...), "--export-dir", dir, "--http", "127.0.0.1:0"), nil)
	assert.EqualError(t, err, "--export-dir is for stdio, where the server runs on the person's machine; over HTTP an export is a download link on the public URL: unset it")
}
