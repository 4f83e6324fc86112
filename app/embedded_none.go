//go:build noembedded

package app

import (
	"context"
	"errors"
	"log/slog"

	"github.com/companyintel/mcp-server/auth"
	"github.com/companyintel/mcp-server/internal/oauth/resource"
)

// This is the production build (-tags noembedded): the embedded backend, and
// with it gqlgen and SQLite, is not linked. --embedded is refused at start-up
// (exit 2) with errNoEmbedded.

// errNoEmbedded says why --embedded is refused and what to do instead.
var errNoEmbedded = errors.New("--embedded (MCP_EMBEDDED): this build has no embedded backend; it was built with -tags noembedded for production. " +
	"Give --endpoint (APPSYNC_ENDPOINT) with your AppSync GraphQL URL, or run a build without that tag for the demo: go run ./cmd/server --embedded")

// defaultCompanies and companiesUsage describe --companies, which means
// nothing in this build.
const (
	defaultCompanies = 0
	companiesUsage   = "embedded backend: not in this build (-tags noembedded)"
)

// checkEmbedded refuses --embedded: there is no backend to start.
func checkEmbedded(c Config) error {
	if c.Embedded {
		return errNoEmbedded
	}
	return nil
}

// embedded is never started in this build.
type embedded struct{ URL string }

// startEmbedded refuses, for a Config that did not go through ParseConfig.
func startEmbedded(context.Context, Config, *slog.Logger) (*embedded, error) {
	return nil, misconfigured(errNoEmbedded)
}

func (e *embedded) authOptions(o auth.Options) auth.Options { return o }

// Close does nothing: nothing was started.
func (e *embedded) Close() error { return nil }

// The embedded issuer's parts are never asked for in this build: --oauth-issuer
// embedded needs --embedded, which is refused.
func (e *embedded) issuerURL() string                             { return "" }
func (e *embedded) allowResource(string) error                    { return errNoEmbedded }
func (e *embedded) exchangeClient() (id, secret, audience string) { return "", "", "" }
func (e *embedded) endNarrowGrants(resource.Principal, []string)  {}
