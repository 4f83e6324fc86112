package main

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/companyintel/mcp-server/appsynclocal"
	"github.com/companyintel/mcp-server/appsynclocal/authn"
)

// What a client needs to reach this backend stays the same across restarts
// of the same data directory, so a script or an MCP client configured once
// keeps working: the API key and the OIDC issuer's address are kept in the
// data directory and reused. Every start also writes them, with the endpoint,
// to envFile, in a form a shell (or any script) can read.

const (
	apiKeyFile     = "api-key"
	issuerAddrFile = "issuer-addr"
	// envFile holds KEY=value lines: `set -a; . <data-dir>/appsync-local.env`.
	envFile = "appsync-local.env"
)

// stableAPIKey returns the key given on the command line, else the one kept
// in dir, else a new one, which it keeps there for the next start.
func stableAPIKey(dir, given string) (string, error) {
	if given != "" {
		return given, nil
	}
	path := filepath.Join(dir, apiKeyFile)
	b, err := os.ReadFile(path)
	if err == nil {
		if key := strings.TrimSpace(string(b)); key != "" {
			return key, nil
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("reading the kept API key: %w", err)
	}
	key := appsynclocal.GenerateAPIKey()
	if err := writeFile(path, key+"\n"); err != nil {
		return "", fmt.Errorf("keeping the API key: %w", err)
	}
	return key, nil
}

// startIssuer starts the OIDC issuer on the loopback address it had at the
// last start in dir, so that its URL — the iss of its tokens, which clients
// verify — stays the same. When that port is taken now, it takes a new one
// and reports moved, so the caller can say the address changed.
func startIssuer(dir string, cfg authn.IssuerConfig) (iss *authn.IssuerServer, moved bool, err error) {
	path := filepath.Join(dir, issuerAddrFile)
	if b, err := os.ReadFile(path); err == nil {
		if addr := strings.TrimSpace(string(b)); addr != "" {
			if iss, err := authn.StartIssuer(addr, cfg); err == nil {
				return iss, false, nil
			}
			moved = true
		}
	}
	iss, err = authn.StartIssuer("127.0.0.1:0", cfg)
	if err != nil {
		return nil, false, err
	}
	u, err := url.Parse(iss.URL())
	if err == nil {
		err = writeFile(path, u.Host+"\n")
	}
	if err != nil {
		iss.Close()
		return nil, false, fmt.Errorf("keeping the issuer address: %w", err)
	}
	return iss, moved, nil
}

// writeEnv writes vars to dir/envFile, sorted, one KEY=value a line, and
// returns the file's path.
func writeEnv(dir string, vars map[string]string) (string, error) {
	keys := make([]string, 0, len(vars))
	for k := range vars {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString("# written by appsync-local at each start; read with: set -a; . " + envFile + "; set +a\n")
	for _, k := range keys {
		fmt.Fprintf(&b, "%s=%s\n", k, vars[k])
	}
	path := filepath.Join(dir, envFile)
	return path, writeFile(path, b.String())
}

// writeFile replaces path atomically with data, readable by the owner only
// (the files hold credentials).
func writeFile(path, data string) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(data), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
