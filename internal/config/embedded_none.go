//go:build noembedded

package config

import "errors"

// This is the production build (-tags noembedded): the embedded backend is
// not linked, and --embedded is refused (exit 2) with ErrNoEmbedded.

// ErrNoEmbedded says why --embedded is refused and what to do instead.
var ErrNoEmbedded = errors.New("--embedded: this build has no embedded backend; it was built with -tags noembedded for production. " +
	"Give --endpoint with your AppSync GraphQL URL instead, or run a build without that tag for the demo: go run ./cmd/server --embedded")

// defaultCompanies and companiesUsage describe --companies, which means
// nothing in this build.
const (
	defaultCompanies = 0
	companiesUsage   = "embedded backend: not in this build (-tags noembedded)"
)

// checkEmbedded refuses --embedded (or MCP_EMBEDDED): there is no backend
// to start.
func checkEmbedded(c Config) error {
	if c.Embedded && c.from.fromEnv("embedded") {
		return errors.New("MCP_EMBEDDED: this build has no embedded backend; it was built with -tags noembedded for production. " +
			"Set APPSYNC_ENDPOINT to your AppSync GraphQL URL instead, or run a build without that tag for the demo")
	}
	if c.Embedded {
		return ErrNoEmbedded
	}
	return nil
}
