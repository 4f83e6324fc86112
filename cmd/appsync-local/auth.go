package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/companyintel/mcp-server/appsynclocal"
	"github.com/companyintel/mcp-server/appsynclocal/authn"
)

// tokenTTL is the lifetime of the tokens written for --oidc-user; they are
// re-minted at half-life, so a reader of the file always finds a valid one,
// as with a sidecar that refreshes a token file.
const tokenTTL = time.Hour

// iamFlag collects --iam KEYID:SECRET[:USER] credentials.
type iamFlag []authn.SigV4Credential

func (f *iamFlag) String() string { return fmt.Sprintf("%d credential(s)", len(*f)) }

func (f *iamFlag) Set(s string) error {
	parts := strings.SplitN(s, ":", 3)
	if len(parts) < 2 || parts[0] == "" || parts[1] == "" {
		return errors.New("want ACCESS_KEY_ID:SECRET_ACCESS_KEY[:USER]")
	}
	c := authn.SigV4Credential{AccessKeyID: parts[0], SecretAccessKey: parts[1], User: "iam-" + parts[0]}
	if len(parts) == 3 && parts[2] != "" {
		c.User = parts[2]
	}
	*f = append(*f, c)
	return nil
}

// authModes starts what --oidc-user and --iam ask for and returns the
// authenticators for the backend, and a stop function.
// What a client needs to use them goes into env.
func authModes(ctx context.Context, log *slog.Logger, dataDir, region string, users []string, iam iamFlag, env map[string]string) ([]appsynclocal.Authenticator, func(), error) {
	var auths []appsynclocal.Authenticator
	stop := func() {}
	if len(users) > 0 {
		iss, moved, err := startIssuer(dataDir, authn.IssuerConfig{KeyFile: filepath.Join(dataDir, "issuer-key.pem")})
		if err != nil {
			return nil, stop, err
		}
		if moved {
			log.Warn("the OIDC issuer's address was taken; it moved, so tokens from before are for the old address", "oidc_issuer", iss.URL())
		}
		env["OIDC_ISSUER"], env["OIDC_AUDIENCE"] = iss.URL(), iss.Audience()
		tokens := filepath.Join(dataDir, "tokens")
		if err := os.MkdirAll(tokens, 0o700); err != nil {
			iss.Close()
			return nil, stop, err
		}
		for _, u := range users {
			path := filepath.Join(tokens, u+".jwt")
			if err := writeToken(iss, u, path); err != nil {
				iss.Close()
				return nil, stop, err
			}
			log.Info("OIDC user "+u, "env", fmt.Sprintf("OIDC_ISSUER=%s OIDC_AUDIENCE=%s OIDC_TOKEN_FILE=%s", iss.URL(), iss.Audience(), path))
		}
		refresh, cancel := context.WithCancel(ctx)
		go refreshTokens(refresh, log, iss, users, tokens)
		auths = append(auths, iss.Authenticator())
		stop = func() { cancel(); iss.Close() }
	}
	if len(iam) > 0 {
		sig, err := authn.NewSigV4Authenticator(authn.SigV4Config{Region: region, Credentials: iam})
		if err != nil {
			stop()
			return nil, func() {}, err
		}
		for _, c := range iam {
			log.Info("IAM user "+c.User, "env", fmt.Sprintf("AWS_REGION=%s AWS_ACCESS_KEY_ID=%s AWS_SECRET_ACCESS_KEY=<as given>", region, c.AccessKeyID))
		}
		auths = append(auths, sig)
	}
	return auths, stop, nil
}

// writeToken mints a token for user and replaces path atomically, so a
// reader never sees half a token.
func writeToken(iss *authn.IssuerServer, user, path string) error {
	tok, err := iss.Mint(user, tokenTTL)
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(tok+"\n"), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

func refreshTokens(ctx context.Context, log *slog.Logger, iss *authn.IssuerServer, users []string, dir string) {
	t := time.NewTicker(tokenTTL / 2)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			for _, u := range users {
				if err := writeToken(iss, u, filepath.Join(dir, u+".jwt")); err != nil {
					log.Error("refreshing token", "user", u, "err", err)
				}
			}
		}
	}
}
