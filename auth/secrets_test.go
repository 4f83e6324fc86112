package auth_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/companyintel/mcp-server/appsynclocal"
	"github.com/companyintel/mcp-server/appsynclocal/authn"
	"github.com/companyintel/mcp-server/auth"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNoSecretReachesLogsOrErrors runs every method through success and
// failure with one debug-level log, collects every log line, error message,
// hint and status, and searches all of it for every secret involved: API
// keys, tokens (including those the issuer minted and the rotated refresh
// tokens), the client secret, the AWS secret key and session token.
func TestNoSecretReachesLogsOrErrors(t *testing.T) {
	var captured logs
	var texts []string
	secrets := []string{apiKey, clientSecret, awsSecret, awsSession, "wrong-" + clientSecret, "da2-wrong-key-0123456789", "wrong/aws/secret/0123456789"}
	record := func(src *auth.Source, err error) {
		if err != nil {
			texts = append(texts, err.Error())
		}
		if src != nil {
			st, _ := json.Marshal(src.Status())
			texts = append(texts, src.UnauthorizedHint(), string(st), src.Principal)
		}
	}
	opts := func(e env, now func() time.Time) auth.Options {
		return auth.Options{Getenv: e.get, Logger: captured.logger(), Now: now, Timeout: time.Second}
	}
	ctx := context.Background()

	// OIDC: a token in the environment, good and expired, with an API key
	// that must not be used.
	isolateAWS(t)
	clk := newClock(t0)
	w := newWorld(t, worldOptions{now: clk.Now, clients: []authn.Client{{ID: "svc", Secret: clientSecret}, {ID: "cli"}}, extra: []appsynclocal.Authenticator{appsynclocal.NewAPIKeyAuthenticator(apiKey)}})
	good := w.mint(t, authn.Claims{Subject: "alice", Expiry: t0.Add(time.Hour)})
	expired := w.mint(t, authn.Claims{Subject: "alice", IssuedAt: t0.Add(-2 * time.Hour), Expiry: t0.Add(-time.Hour)})
	foreign := w.mint(t, authn.Claims{Subject: "alice", Audience: "other"})
	secrets = append(secrets, good, expired, foreign)
	base := env{"OIDC_ISSUER": w.issuerURL, "OIDC_AUDIENCE": authn.DefaultAudience, "APPSYNC_API_KEY": apiKey}
	for _, tok := range []string{good, expired, foreign, "garbage-token-0123456789", tamper(t, good)} {
		e := env{"OIDC_TOKEN": tok}
		for k, v := range base {
			e[k] = v
		}
		secrets = append(secrets, tok)
		src, err := auth.Resolve(ctx, opts(e, clk.Now))
		record(src, err)
		if src != nil {
			_, err = whoami(t, w.backend, src)
			record(src, err)
		}
	}

	// OIDC: a token file replaced by a bad token.
	path := filepath.Join(t.TempDir(), "token")
	require.NoError(t, os.WriteFile(path, []byte(good), 0o600))
	src, err := auth.Resolve(ctx, opts(env{"OIDC_ISSUER": w.issuerURL, "OIDC_AUDIENCE": authn.DefaultAudience, "OIDC_TOKEN_FILE": path}, clk.Now))
	record(src, err)
	require.NoError(t, os.WriteFile(path, []byte(foreign+"\n\n"), 0o600))
	require.NoError(t, os.Chtimes(path, t0.Add(time.Minute), t0.Add(time.Minute)))
	_, err = whoami(t, w.backend, src)
	record(src, err)

	// OIDC: the token endpoint, with good and bad client secrets and refresh
	// tokens (on the real clock, which oauth2 uses).
	real := newWorld(t, worldOptions{clients: []authn.Client{{ID: "svc", Secret: clientSecret}, {ID: "cli"}}, tokenTTL: 30 * time.Second})
	rt, err := real.issuer.RefreshToken("cli", "dana")
	require.NoError(t, err)
	secrets = append(secrets, rt, "revoked-refresh-token-0123456789")
	for _, e := range []env{
		{"OIDC_CLIENT_ID": "svc", "OIDC_CLIENT_SECRET": clientSecret},
		{"OIDC_CLIENT_ID": "svc", "OIDC_CLIENT_SECRET": "wrong-" + clientSecret},
		{"OIDC_CLIENT_ID": "cli", "OIDC_REFRESH_TOKEN": rt},
		{"OIDC_CLIENT_ID": "cli", "OIDC_REFRESH_TOKEN": "revoked-refresh-token-0123456789"},
	} {
		e["OIDC_ISSUER"], e["OIDC_AUDIENCE"] = real.issuerURL, authn.DefaultAudience
		src, err := auth.Resolve(ctx, opts(e, nil))
		record(src, err)
		if src != nil {
			for range 2 {
				_, err = whoami(t, real.backend, src)
				record(src, err)
			}
		}
	}
	real.closeIss()
	src, err = auth.Resolve(ctx, opts(env{"OIDC_ISSUER": real.issuerURL, "OIDC_AUDIENCE": authn.DefaultAudience, "OIDC_CLIENT_ID": "svc", "OIDC_CLIENT_SECRET": clientSecret}, nil))
	record(src, err)

	// SigV4: right and wrong secret, with a session token.
	awsEnv(t, awsSession)
	endpoint := iamBackend(t, authn.SigV4Credential{AccessKeyID: awsKeyID, SecretAccessKey: awsSecret, SessionToken: awsSession})
	src, err = auth.Resolve(ctx, opts(env{}, nil))
	record(src, err)
	_, err = whoami(t, endpoint, src)
	record(src, err)
	t.Setenv("AWS_SECRET_ACCESS_KEY", "wrong/aws/secret/0123456789")
	src, err = auth.Resolve(ctx, opts(env{}, nil))
	record(src, err)
	_, err = whoami(t, endpoint, src)
	record(src, err)

	// API key: right and wrong, and nothing at all.
	isolateAWS(t)
	for _, k := range []string{apiKey, "da2-wrong-key-0123456789"} {
		src, err := auth.Resolve(ctx, opts(env{"APPSYNC_API_KEY": k}, nil))
		record(src, err)
		_, err = whoami(t, w.backend, src)
		record(src, err)
	}
	_, err = auth.Resolve(ctx, opts(env{}, nil))
	record(nil, err)

	// Every credential the backends saw on the wire is a secret too.
	secrets = append(secrets, w.seen()...)
	secrets = append(secrets, real.seen()...)
	transcript := captured.String() + "\n" + strings.Join(texts, "\n")
	require.Contains(t, transcript, "auth method chosen", "the log was captured")
	require.Contains(t, transcript, "OIDC token expired at", "errors were captured")
	require.Greater(t, len(secrets), 20)
	for _, s := range secrets {
		if len(s) < 8 {
			continue
		}
		assert.NotContains(t, transcript, s)
		// Nor any of a JWT's segments (a parser could quote one).
		for _, part := range strings.Split(s, ".") {
			if len(part) >= 16 {
				assert.NotContains(t, transcript, part)
			}
		}
	}
	t.Logf("searched %d bytes of logs and %d messages for %d secrets", len(captured.String()), len(texts), len(secrets))
}
