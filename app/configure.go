package app

import (
	"errors"
	"flag"
	"io"

	"github.com/companyintel/mcp-server/internal/config"
	"github.com/companyintel/mcp-server/tools"
)

// ToolFacts are the facts of every tool this server can serve, in catalogue
// order, the opt-in feedback tool last: package config reads the names
// --rate-limit and --allow-mutations accept from them.
func ToolFacts() []tools.Facts { return catalogueFacts(true) }

// ParseConfig reads the configuration (config.Parse) against this server's
// tools, for callers that build a server from a command line of their own
// (qualify, the benchmarks, tests); on --help it writes the flags and the
// environment to usage. The command line itself is package cli.
func ParseConfig(args []string, getenv func(string) string, usage io.Writer) (config.Config, error) {
	cfg, err := config.Parse(args, getenv, ToolFacts())
	if errors.Is(err, flag.ErrHelp) {
		config.PrintUsage(usage, ToolFacts())
	}
	return cfg, err
}

// IsMisconfiguration reports whether an error from ParseConfig or Run is the
// operator's to fix (config.IsMisconfiguration; the command line exits 2).
func IsMisconfiguration(err error) bool { return config.IsMisconfiguration(err) }

// misconfigured marks err as the operator's to fix (config.Misconfigured).
func misconfigured(err error) error { return config.Misconfigured(err) }
