package app

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const module = "github.com/companyintel/mcp-server"

// deps lists every package pkg depends on, directly or not.
func deps(t *testing.T, pkg string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", module+"/"+pkg).Output()
	require.NoError(t, err, "go list -deps %s", pkg)
	return strings.Fields(string(out))
}

// The package graph is a rule, not a habit: the read tools cannot reach the
// write tools, the layers below the tools know nothing of MCP, and only app
// assembles both kinds of tool.
func TestPackageGraph(t *testing.T) {
	tests := []struct {
		pkg       string
		forbidden []string
	}{
		{"tools/read", []string{module + "/tools/write"}},
		{"tools/write", []string{module + "/tools/read"}},
		{"graphql", []string{"github.com/mark3labs/mcp-go/mcp", module + "/tools"}},
		{"auth", []string{"github.com/mark3labs/mcp-go/mcp", module + "/tools"}},
		{"ratelimit", []string{"github.com/mark3labs/mcp-go/mcp", module + "/tools"}},
		{"tools", []string{module + "/tools/read", module + "/tools/write", module + "/app"}},
	}
	for _, tt := range tests {
		t.Run(tt.pkg, func(t *testing.T) {
			all := deps(t, tt.pkg)
			for _, f := range tt.forbidden {
				assert.NotContains(t, all, f, "%s must not depend on %s", tt.pkg, f)
			}
		})
	}
}

// cmd/server stays thin: flags into a Config, then app.Run.
func TestCommandImportsOnlyApp(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, module+"/cmd/server").Output()
	require.NoError(t, err)
	for _, imp := range strings.Fields(string(out)) {
		if strings.Contains(imp, ".") { // not the standard library
			assert.Equal(t, module+"/app", imp, "cmd/server imports %s", imp)
		}
	}
}
