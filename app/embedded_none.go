//go:build noembedded

package app

import (
	"context"
	"log/slog"

	"github.com/companyintel/mcp-server/auth"
	"github.com/companyintel/mcp-server/internal/config"
	"github.com/companyintel/mcp-server/internal/oauth/resource"
)

// This is the production build (-tags noembedded): the embedded backend, and
// with it gqlgen and SQLite, is not linked. --embedded is refused at start-up
// (exit 2) with config.ErrNoEmbedded, by package config.

// embedded is never started in this build.
type embedded struct{ URL string }

// startEmbedded refuses, for a Config that did not go through ParseConfig.
func startEmbedded(context.Context, config.Config, *slog.Logger) (*embedded, error) {
	return nil, config.Misconfigured(config.ErrNoEmbedded)
}

func (e *embedded) authOptions(o auth.Options) auth.Options { return o }

// Close does nothing: nothing was started.
func (e *embedded) Close() error { return nil }

// The embedded issuer's parts are never asked for in this build: --oauth-issuer
// embedded needs --embedded, which is refused.
func (e *embedded) issuerURL() string                             { return "" }
func (e *embedded) allowResource(string) error                    { return config.ErrNoEmbedded }
func (e *embedded) exchangeClient() (id, secret, audience string) { return "", "", "" }
func (e *embedded) endNarrowGrants(resource.Principal, []string)  {}
