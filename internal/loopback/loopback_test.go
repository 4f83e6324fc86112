package loopback_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/companyintel/mcp-server/internal/loopback"
)

func TestHostIsLocalhostOrALoopbackIP(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "LOCALHOST": true, "localhost.": true, "LocalHost.": true,
		"127.0.0.1": true, "127.8.9.10": true, "::1": true, "[::1]": true, "[127.0.0.1]": true, "::ffff:127.0.0.1": true,
		// Not this machine, or not provably so.
		"api.localhost": false, "localhost.example.com": false, "localhost..": false, "example.com": false,
		"10.0.0.1": false, "0.0.0.0": false, "::": false, "[::]": false, "128.0.0.1": false, "": false,
		"127.0.0.1.nip.io": false, "::1%lo": false,
	} {
		assert.Equal(t, want, loopback.Host(host), host)
	}
}

func TestAddrNeedsALoopbackHostAndAPort(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:8080": true, "localhost:0": true, "[::1]:6379": true,
		":8080": false, "0.0.0.0:8080": false, "[::]:8080": false, "example.com:80": false,
		"127.0.0.1": false, "localhost": false, "": false,
	} {
		assert.Equal(t, want, loopback.Addr(addr), addr)
	}
}
