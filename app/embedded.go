package app

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/companyintel/mcp-server/appsynclocal"
	"github.com/companyintel/mcp-server/auth"
)

// embedded is the local backend started in-process by --embedded: a real
// GraphQL server on a loopback port, reached over real HTTP like AppSync.
type embedded struct {
	URL    string
	server *appsynclocal.Server
}

// startEmbedded starts the local backend. Its database is built on first
// start and reused afterwards.
func startEmbedded(cfg Config, logger *slog.Logger) (*embedded, error) {
	dir := cfg.DataDir
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			cache = os.TempDir()
		}
		dir = filepath.Join(cache, "company-intel-mcp")
	}
	srv, err := appsynclocal.Start(appsynclocal.Config{
		DataDir:   dir,
		Companies: cfg.Companies,
		Logger:    logger.With("component", "embedded-backend"),
	}, "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("embedded backend: %w", err)
	}
	logger.Info("embedded backend ready", "endpoint", srv.URL(), "data_dir", dir)
	return &embedded{URL: srv.URL(), server: srv}, nil
}

// authOptions points the credential chain at the embedded backend.
func (e *embedded) authOptions(o auth.Options) auth.Options {
	o.APIKey = e.server.Backend().APIKey()
	return o
}

// Close stops the backend.
func (e *embedded) Close() error { return e.server.Close() }
