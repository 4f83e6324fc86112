//go:build !noembedded

package app

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/companyintel/mcp-server/appsynclocal"
	"github.com/companyintel/mcp-server/appsynclocal/authn"
	"github.com/companyintel/mcp-server/auth"
	"github.com/companyintel/mcp-server/internal/config"
	"github.com/companyintel/mcp-server/internal/oauth/resource"
)

// This file and everything else that reaches package appsynclocal (and with
// it gqlgen and SQLite) is left out of a build with -tags noembedded, the
// production build; embedded_none.go stands in for it there.

// DemoUser is the user the --embedded demo acts as.
const DemoUser = "demo-user"

// DemoUsers are the demo users a person can sign in as on the embedded
// issuer's consent page (and the only ones demo-token may name).
var DemoUsers = []string{DemoUser, "alice", "bob", "carol"}

// The embedded issuer's files in the data dir, beside its signing key.
const (
	// issuerAddrFile records the issuer's address, so that its URL (every
	// token's iss) stays the same across restarts on this data dir.
	issuerAddrFile = "issuer-addr"
	// registrationsFile keeps the clients that registered themselves.
	registrationsFile = "oauth-registrations.json"
	// operatorClientsFile is the operator's own configuration: clients
	// registered in advance, and which client metadata documents to fetch.
	operatorClientsFile = "oauth-clients.json"
)

// embedded is the local backend started in-process by --embedded: a real
// GraphQL server on a loopback port, reached over real HTTP like AppSync,
// with its own OIDC issuer. The demo authenticates with OIDC — the method
// deployments use — so that collections, which belong to a user, work.
type embedded struct {
	URL    string
	server *appsynclocal.Server
	issuer *authn.IssuerServer
	secret string
}

// startEmbedded starts the issuer and the backend. The database is built on
// first start and reused afterwards.
func startEmbedded(ctx context.Context, cfg config.Config, logger *slog.Logger) (*embedded, error) {
	dir := cfg.DataDir
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			cache = os.TempDir()
		}
		dir = filepath.Join(cache, "company-intel-mcp")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("embedded backend: data dir: %w", err)
	}
	secret := randomSecret()
	operator, err := readOperatorClients(filepath.Join(dir, operatorClientsFile))
	if err != nil {
		return nil, err
	}
	ic := authn.IssuerConfig{
		KeyFile: filepath.Join(dir, "issuer-key.pem"),
		Clients: []authn.Client{{ID: authn.DefaultAudience, Secret: secret, Subject: DemoUser}},
		// demo-token's client; HTTP mode adds its public URL as a
		// resource (AllowResource) and exchanges with the client above.
		ClientDocuments: []authn.ClientDocument{authn.DemoTokenClient()},
		// Any MCP client: by its metadata document (the issuer listens on
		// loopback, so a local tool's document on loopback is accepted),
		// by registering, or as the operator configured it.
		ClientDocumentPolicy: authn.ClientDocumentPolicy{Open: true, AllowLoopback: true, AllowPrivate: operator.AllowPrivateDocuments},
		PublicClients:        operator.Clients,
		RegistrationFile:     filepath.Join(dir, registrationsFile),
		Users:                DemoUsers,
		DefaultUser:          DemoUser,
		// The scopes this server can honour: with writes off, the write
		// scope is neither advertised, offered on the consent page, nor
		// granted.
		Scopes: issuerScopes(cfg),
		// Pages the HTTP service lets call /mcp may call the issuer too
		// (loopback pages may anyway: the issuer is on loopback).
		AllowedOrigins: cfg.HTTP.AllowedOrigins,
	}
	// Only the HTTP service's users hold the issuer's tokens; on stdio the
	// server mints its own at each start, so a moved issuer is no news.
	moved := slog.LevelInfo
	if slices.Contains(cfg.HTTP.Issuers, config.EmbeddedIssuer) {
		moved = slog.LevelWarn
	}
	iss, err := startIssuerAt(dir, ic, logger, moved)
	if err != nil {
		return nil, fmt.Errorf("embedded OIDC issuer: %w", err)
	}
	srv, err := appsynclocal.StartContext(ctx, appsynclocal.Config{
		DataDir:        dir,
		Companies:      cfg.Companies,
		Authenticators: []appsynclocal.Authenticator{iss.Authenticator()},
		Logger:         logger.With("component", "embedded-backend"),
	}, "127.0.0.1:0")
	if err != nil {
		return nil, errors.Join(fmt.Errorf("embedded backend: %w", err), iss.Close())
	}
	logger.Info("embedded backend ready", "endpoint", srv.URL(), "oidc_issuer", iss.URL(), "user", DemoUser, "data_dir", dir,
		"tokens", "valid across restarts on this data dir while the issuer keeps its address; not on another data dir")
	return &embedded{URL: srv.URL(), server: srv, issuer: iss, secret: secret}, nil
}

// issuerScopes are the scopes the embedded issuer grants: the read scope,
// and the write scope only when --allow-mutations enables a write tool.
func issuerScopes(cfg config.Config) []string {
	read, write := cfg.HTTP.ReadScope, cfg.HTTP.WriteScope
	if read == "" || write == "" {
		read, write = authn.ScopeRead, authn.ScopeWrite
	}
	if cfg.Mutations.Any() {
		return []string{read, write}
	}
	return []string{read}
}

// operatorClients is the operator's oauth-clients.json in the data dir.
type operatorClients struct {
	// Clients are registered in advance: a team's own tools, with their
	// redirect URIs, under a client_id of the operator's choosing.
	Clients []authn.PublicClient `json:"clients"`
	// AllowPrivateDocuments lets client metadata documents be fetched
	// from private addresses (an intranet's tools).
	AllowPrivateDocuments bool `json:"allow_private_documents"`
}

// readOperatorClients reads the operator's file; none is the empty
// configuration, and a file that cannot be read stops start-up.
func readOperatorClients(path string) (operatorClients, error) {
	var oc operatorClients
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return oc, nil
	}
	if err != nil {
		return oc, fmt.Errorf("embedded OIDC issuer: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&oc); err != nil {
		return oc, fmt.Errorf("embedded OIDC issuer: %s: want {\"clients\": [{\"client_id\", \"client_name\", \"redirect_uris\": [...]}], \"allow_private_documents\": false}: %v", path, err)
	}
	return oc, nil
}

// startIssuerAt starts the issuer on the address recorded in the data dir,
// so that its URL, and with the persisted key every token it signed, stays
// valid across restarts. The first start records a free port. When the
// recorded port is taken (another server on this data dir), the issuer
// starts elsewhere and says that earlier tokens are not accepted by it.
func startIssuerAt(dir string, c authn.IssuerConfig, logger *slog.Logger, moved slog.Level) (*authn.IssuerServer, error) {
	file := filepath.Join(dir, issuerAddrFile)
	recorded := ""
	if b, err := os.ReadFile(file); err == nil {
		recorded = strings.TrimSpace(string(b))
		if host, _, err := net.SplitHostPort(recorded); err != nil || host != "127.0.0.1" {
			recorded = ""
		}
	}
	if recorded != "" {
		iss, err := authn.StartIssuer(recorded, c)
		if err == nil {
			return iss, nil
		}
		iss, err2 := authn.StartIssuer("127.0.0.1:0", c)
		if err2 != nil {
			return nil, err2
		}
		logger.Log(context.Background(), moved, "embedded issuer moved: tokens issued before this start are not accepted by this server",
			"recorded", "http://"+recorded, "issuer", iss.URL(), "reason", err.Error(), "data_dir", dir)
		return iss, nil
	}
	iss, err := authn.StartIssuer("127.0.0.1:0", c)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(file, []byte(strings.TrimPrefix(iss.URL(), "http://")+"\n"), 0o600); err != nil {
		logger.Warn("embedded issuer: cannot record its address; tokens will not survive a restart", "error", err.Error())
	}
	return iss, nil
}

// endNarrowGrants ends the embedded issuer's refresh grants that lack the
// scopes a refused call needed (resource.Config.OnInsufficientScope).
func (e *embedded) endNarrowGrants(p resource.Principal, need []string) {
	if e == nil || p.Issuer != e.issuer.URL() {
		return
	}
	e.issuer.EndGrantsBelow(p.ClientID, p.Subject, need)
}

// authOptions points the credential chain at the embedded backend: its
// issuer's client credentials for OIDC (first in the chain), and its API key
// for --auth apikey. Variables the user set still win, so the embedded
// backend can be tried with a token of one's own.
func (e *embedded) authOptions(o auth.Options) auth.Options {
	getenv := o.Getenv
	demo := map[string]string{
		"OIDC_ISSUER":        e.issuer.URL(),
		"OIDC_CLIENT_ID":     authn.DefaultAudience,
		"OIDC_CLIENT_SECRET": e.secret,
	}
	o.Getenv = func(k string) string {
		if v := getenv(k); v != "" {
			return v
		}
		return demo[k]
	}
	// The demo issuer always configures OIDC, which comes first, so the key
	// is given only when --auth apikey asks for it: given otherwise, the
	// chain would warn on every demo start that a key "is set but not used".
	if o.Force == auth.APIKey {
		o.APIKey = e.server.Backend().APIKey()
	}
	return o
}

// Close stops the backend and the issuer.
func (e *embedded) Close() error {
	return errors.Join(e.server.Close(), e.issuer.Close())
}

// randomSecret is the demo client's secret: new at each start, never logged.
func randomSecret() string {
	b := make([]byte, 24)
	rand.Read(b) // never fails (crypto/rand documents it)
	return hex.EncodeToString(b)
}

// issuerURL is the embedded issuer's URL, which --oauth-issuer embedded names.
func (e *embedded) issuerURL() string { return e.issuer.URL() }

// allowResource lets the embedded issuer issue tokens for the HTTP
// service's public URL.
func (e *embedded) allowResource(publicURL string) error { return e.issuer.AllowResource(publicURL) }

// exchangeClient is the server's client at the embedded issuer for token
// exchange, and the backend's audience the exchanged tokens are for.
func (e *embedded) exchangeClient() (id, secret, audience string) {
	return authn.DefaultAudience, e.secret, authn.DefaultAudience
}
