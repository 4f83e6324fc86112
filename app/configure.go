package app

import (
	"io"

	"github.com/companyintel/mcp-server/internal/config"
)

// ParseConfig reads the configuration (package config, where every flag and
// environment variable is read) against this server's catalogue: the tool
// names --rate-limit and --allow-mutations accept come from the tools.
func ParseConfig(args []string, getenv func(string) string, usage io.Writer) (config.Config, error) {
	return config.Parse(args, getenv, usage, catalogueFacts(true))
}

// IsMisconfiguration reports whether an error from ParseConfig or Run is the
// operator's to fix (cmd/server exits 2 for it, 1 for anything else).
func IsMisconfiguration(err error) bool { return config.IsMisconfiguration(err) }

// misconfigured marks err as the operator's to fix (config.Misconfigured).
func misconfigured(err error) error { return config.Misconfigured(err) }

// ErrVersion is what ParseConfig returns for --version (config.ErrVersion).
var ErrVersion = config.ErrVersion
