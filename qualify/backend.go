package qualify

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/companyintel/mcp-server/appsynclocal"
	"github.com/companyintel/mcp-server/appsynclocal/authn"
)

// backend is the embedded backend the suite starts for --embedded: the
// same backend and OIDC issuer as the server's --embedded, started here so
// that the suite holds the credentials too and can ask the backend
// directly as the very user the servers act as.
type backend struct {
	url       string
	companies int
	srv       *appsynclocal.Server
	iss       *authn.IssuerServer
	secret    string
}

// qualifyUser is the user both the servers and the direct requests act as.
const qualifyUser = "qualify-user"

func startBackend(o Options) (*backend, error) {
	dir := o.DataDir
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			cache = os.TempDir()
		}
		// Apart from the server's own cache: the suite's collections
		// should not appear in a demo's.
		dir = filepath.Join(cache, "company-intel-mcp-qualify")
		// Each run starts from no user data: the suite's own collections and
		// email-discovery contacts from earlier runs would otherwise pile up
		// in its answers until they pass the size ceilings. The companies
		// database, slow to build and never written, is kept.
		if err := removeState(dir); err != nil {
			return nil, fmt.Errorf("embedded backend: clearing the last run's user data: %w", err)
		}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("embedded backend: data dir: %w", err)
	}
	b := make([]byte, 24)
	rand.Read(b)
	secret := hex.EncodeToString(b)
	iss, err := authn.StartIssuer("127.0.0.1:0", authn.IssuerConfig{
		KeyFile:     filepath.Join(dir, "issuer-key.pem"),
		Clients:     []authn.Client{{ID: authn.DefaultAudience, Secret: secret, Subject: qualifyUser}},
		DefaultUser: qualifyUser,
	})
	if err != nil {
		return nil, fmt.Errorf("embedded OIDC issuer: %w", err)
	}
	srv, err := appsynclocal.Start(appsynclocal.Config{
		DataDir:        dir,
		Companies:      o.Companies,
		Authenticators: []appsynclocal.Authenticator{iss.Authenticator()},
	}, "127.0.0.1:0")
	if err != nil {
		return nil, errors.Join(fmt.Errorf("embedded backend: %w", err), iss.Close())
	}
	n := o.Companies
	if n == 0 {
		n = appsynclocal.DefaultCompanies
	}
	return &backend{url: srv.URL(), companies: n, srv: srv, iss: iss, secret: secret}, nil
}

// getenv gives the OIDC client credentials of the embedded issuer, over
// the environment given (which may be nil).
func (b *backend) getenv(base func(string) string) func(string) string {
	creds := map[string]string{
		"OIDC_ISSUER":        b.iss.URL(),
		"OIDC_CLIENT_ID":     authn.DefaultAudience,
		"OIDC_CLIENT_SECRET": b.secret,
	}
	return func(k string) string {
		if v, ok := creds[k]; ok {
			return v
		}
		if base != nil {
			return base(k)
		}
		return ""
	}
}

// Close stops the backend and the issuer.
func (b *backend) Close() error { return errors.Join(b.srv.Close(), b.iss.Close()) }

// removeState deletes the embedded backend's user-data databases
// (state-*.db and SQLite's -wal and -shm beside them) from dir.
func removeState(dir string) error {
	files, err := filepath.Glob(filepath.Join(dir, "state-*.db*"))
	if err != nil {
		return err
	}
	for _, f := range files {
		if err := os.Remove(f); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}
