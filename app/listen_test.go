package app

import (
	"net"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/internal/config"
)

// An address another process holds is refused naming the setting to
// change as it was given (the flag, or the variable) and a port that is
// free, which then can be listened on.
func TestAddressInUseNamesTheSettingAndAFreePort(t *testing.T) {
	held, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer held.Close()
	addr := held.Addr().String()

	for _, tc := range []struct {
		name    string
		args    []string
		env     map[string]string
		setting string
	}{
		{"flag", []string{"--embedded", "--http", addr}, nil, "--http"},
		{"environment", []string{"--embedded"}, map[string]string{"MCP_HTTP_ADDR": addr}, "MCP_HTTP_ADDR"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := config.Parse(tc.args, func(k string) string { return tc.env[k] }, ToolFacts())
			require.NoError(t, err)
			_, err = listenHTTP(cfg)
			require.Error(t, err)
			assert.True(t, config.IsMisconfiguration(err), "exit 2: the configuration is to change")
			msg := err.Error()
			t.Log(msg)
			sep := " "
			if tc.setting == "MCP_HTTP_ADDR" {
				sep = "="
			}
			assert.Regexp(t, "^"+regexp.QuoteMeta(tc.setting+sep+addr)+": port [0-9]+ is already in use", msg)
			m := regexp.MustCompile(`e\.g\. ` + regexp.QuoteMeta(tc.setting+sep) + `(127\.0\.0\.1:[0-9]+) \(free now\)`).FindStringSubmatch(msg)
			require.NotNil(t, m, "a free port is suggested in the setting's own form: %s", msg)
			assert.NotEqual(t, addr, m[1])
			ln, err := net.Listen("tcp", m[1])
			require.NoError(t, err, "the suggested address is free")
			ln.Close()
		})
	}
}
