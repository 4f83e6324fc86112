package auth_test

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/companyintel/mcp-server/appsynclocal/authn"
	"github.com/companyintel/mcp-server/auth"
	"github.com/companyintel/mcp-server/graphql"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// t0 is the fake "now" of tests with an injected clock.
var t0 = time.Date(2026, 11, 30, 2, 0, 0, 0, time.UTC)

func TestOIDCTokenFromEnv(t *testing.T) {
	clk := newClock(t0)
	w := newWorld(t, worldOptions{now: clk.Now})
	tok := w.mint(t, authn.Claims{Subject: "alice", Expiry: t0.Add(time.Hour)})

	src, err := auth.Resolve(context.Background(), auth.Options{
		Getenv: env{"OIDC_ISSUER": w.issuerURL, "OIDC_AUDIENCE": authn.DefaultAudience, "OIDC_TOKEN": tok}.get,
		Now:    clk.Now,
	})
	require.NoError(t, err)
	assert.Equal(t, auth.OIDC, src.Method)
	assert.Equal(t, "alice", src.Principal)
	got, err := whoami(t, w.backend, src)
	require.NoError(t, err)
	assert.Equal(t, "oidc", got.Whoami.Method)
	assert.Equal(t, "alice", got.Whoami.Subject)

	st := src.Status()
	assert.Equal(t, auth.Status{Method: auth.OIDC, Principal: "alice", Issuer: w.issuerURL, Audience: authn.DefaultAudience, TokenSource: "OIDC_TOKEN", TokenExpiry: t0.Add(time.Hour)}, st)
	assert.Contains(t, src.UnauthorizedHint(), "OIDC token rejected by the backend although it verifies here")

	// Past the token's expiry the hint says so, in the words an operator
	// needs.
	clk.Set(t0.Add(2 * time.Hour))
	assert.Equal(t, "OIDC token expired at 2026-11-30T03:00:00Z; set OIDC_TOKEN to a fresh token and restart, or use OIDC_TOKEN_FILE or OIDC_REFRESH_TOKEN so the server can renew it", src.UnauthorizedHint())
}

// TestOIDCBrokenStopsStartup: OIDC configured but broken is an error naming
// OIDC and the fix, even with an API key present — never a silent fall to
// the weaker method.
func TestOIDCBrokenStopsStartup(t *testing.T) {
	isolateAWS(t)
	clk := newClock(t0)
	w := newWorld(t, worldOptions{now: clk.Now, clients: []authn.Client{{ID: "svc", Secret: clientSecret}, {ID: "cli"}}})
	other, err := authn.NewIssuer(authn.IssuerConfig{URL: w.issuerURL})
	require.NoError(t, err)
	valid := w.mint(t, authn.Claims{Subject: "alice"})
	forged, err := other.Mint("alice", time.Hour)
	require.NoError(t, err)
	dir := t.TempDir()

	base := env{"OIDC_ISSUER": w.issuerURL, "OIDC_AUDIENCE": authn.DefaultAudience, "APPSYNC_API_KEY": apiKey}
	with := func(kv ...string) env {
		e := env{}
		for k, v := range base {
			e[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			e[kv[i]] = kv[i+1]
		}
		return e
	}
	tests := []struct {
		name string
		env  env
		want string
	}{
		{"expired token", with("OIDC_TOKEN", w.mint(t, authn.Claims{Subject: "alice", IssuedAt: t0.Add(-2 * time.Hour), Expiry: t0.Add(-time.Hour)})),
			"auth oidc: OIDC token expired at 2026-11-30T01:00:00Z; set OIDC_TOKEN to a fresh token"},
		{"wrong audience", with("OIDC_TOKEN", w.mint(t, authn.Claims{Subject: "alice", Audience: "other-app"})),
			`token audience ["other-app"] does not include "appsync-local": set OIDC_AUDIENCE`},
		{"wrong issuer", with("OIDC_TOKEN", w.mint(t, authn.Claims{Subject: "alice", Issuer: "https://login.example.com"})),
			`token was issued by "https://login.example.com", not by OIDC_ISSUER`},
		{"signed by another key", with("OIDC_TOKEN", forged), "token signature does not verify against the keys"},
		{"tampered token", with("OIDC_TOKEN", tamper(t, valid)), "token signature does not verify against the keys"},
		{"not a JWT", with("OIDC_TOKEN", "not-a-jwt-at-all"), "token is not a JWT"},
		{"issuer unreachable", with("OIDC_ISSUER", "http://127.0.0.1:1", "OIDC_TOKEN", valid), "issuer http://127.0.0.1:1 unreachable or not an OIDC issuer"},
		{"issuer with a trailing slash", with("OIDC_ISSUER", w.issuerURL+"/", "OIDC_TOKEN", valid), "but its discovery document names the issuer"},
		{"no issuer", env{"OIDC_TOKEN": valid, "APPSYNC_API_KEY": apiKey}, "OIDC_ISSUER is not set"},
		{"no audience", env{"OIDC_ISSUER": w.issuerURL, "OIDC_TOKEN": valid}, "no audience: set OIDC_AUDIENCE"},
		{"no token", with(), "no token: set OIDC_TOKEN_FILE"},
		{"token and file", with("OIDC_TOKEN", valid, "OIDC_TOKEN_FILE", "/x"), "both OIDC_TOKEN and OIDC_TOKEN_FILE are set"},
		{"missing token file", with("OIDC_TOKEN_FILE", filepath.Join(dir, "absent")), "cannot read OIDC_TOKEN_FILE"},
		{"bad client secret", with("OIDC_CLIENT_ID", "svc", "OIDC_CLIENT_SECRET", "wrong-"+clientSecret), "the issuer rejected the client (invalid_client"},
		{"unknown refresh token", with("OIDC_CLIENT_ID", "cli", "OIDC_REFRESH_TOKEN", "revoked-refresh-token"), "the issuer rejected OIDC_REFRESH_TOKEN (invalid_grant"},
		{"refresh token without client", with("OIDC_REFRESH_TOKEN", "some-refresh-token"), "OIDC_REFRESH_TOKEN needs OIDC_CLIENT_ID"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, err := auth.Resolve(context.Background(), auth.Options{Getenv: tt.env.get, Now: clk.Now, Timeout: time.Second})
			require.Error(t, err)
			assert.Nil(t, src)
			var ae *auth.Error
			require.True(t, errors.As(err, &ae), err)
			assert.Equal(t, auth.OIDC, ae.Method)
			assert.Contains(t, err.Error(), tt.want)
			for _, secret := range []string{apiKey, clientSecret, "revoked-refresh-token", valid, forged} {
				assert.NotContains(t, err.Error(), secret)
			}
		})
	}
}

func TestOIDCTokenFileReload(t *testing.T) {
	clk := newClock(t0)
	w := newWorld(t, worldOptions{now: clk.Now})
	var captured logs
	path := filepath.Join(t.TempDir(), "token")
	write := func(tok string, mod time.Time) {
		t.Helper()
		require.NoError(t, os.WriteFile(path, []byte(tok+"\n"), 0o600))
		require.NoError(t, os.Chtimes(path, mod, mod))
	}
	write(w.mint(t, authn.Claims{Subject: "alice", Expiry: t0.Add(time.Hour)}), t0)

	src, err := auth.Resolve(context.Background(), auth.Options{
		Getenv: env{"OIDC_ISSUER": w.issuerURL, "OIDC_AUDIENCE": authn.DefaultAudience, "OIDC_TOKEN_FILE": path}.get,
		Now:    clk.Now,
		Logger: captured.logger(),
	})
	require.NoError(t, err)
	got, err := whoami(t, w.backend, src)
	require.NoError(t, err)
	assert.Equal(t, "alice", got.Whoami.Subject)

	// A sidecar writes a new token: the next request sends it.
	write(w.mint(t, authn.Claims{Subject: "bob", Expiry: t0.Add(2 * time.Hour)}), t0.Add(time.Minute))
	got, err = whoami(t, w.backend, src)
	require.NoError(t, err)
	assert.Equal(t, "bob", got.Whoami.Subject)
	assert.Equal(t, t0.Add(2*time.Hour), src.Status().TokenExpiry)
	assert.Contains(t, captured.String(), "OIDC token reloaded from OIDC_TOKEN_FILE")

	// A replacement that fails verification is never sent: bob's token
	// still is, and the log and the hint say why.
	write(w.mint(t, authn.Claims{Subject: "carol", Audience: "other-app"}), t0.Add(2*time.Minute))
	got, err = whoami(t, w.backend, src)
	require.NoError(t, err)
	assert.Equal(t, "bob", got.Whoami.Subject)
	assert.Contains(t, captured.String(), "OIDC_TOKEN_FILE changed but the new token was not accepted")
	assert.Contains(t, src.UnauthorizedHint(), `OIDC_TOKEN_FILE was replaced by a token that was not accepted (token audience ["other-app"]`)

	// Once bob's token has expired the hint leads with that.
	clk.Set(t0.Add(3 * time.Hour))
	assert.True(t, strings.HasPrefix(src.UnauthorizedHint(), "OIDC token expired at 2026-11-30T04:00:00Z; refresh OIDC_TOKEN_FILE "+path), src.UnauthorizedHint())
}

// TestOIDCRefreshToken exercises the refresh path for real against the
// embedded issuer: tokens are renewed ahead of expiry and the rotated
// refresh token is kept (the issuer refuses a used one).
func TestOIDCRefreshToken(t *testing.T) {
	for _, tt := range []struct {
		name      string
		ttl       time.Duration
		wantCalls int32 // token endpoint calls for start-up plus 3 requests
	}{
		{"long-lived tokens are reused", time.Hour, 1},
		{"tokens within the refresh margin are renewed before use", 30 * time.Second, 4},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t, worldOptions{clients: []authn.Client{{ID: "cli"}}, tokenTTL: tt.ttl})
			rt, err := w.issuer.RefreshToken("cli", "dana")
			require.NoError(t, err)
			src, err := auth.Resolve(context.Background(), auth.Options{
				Getenv: env{"OIDC_ISSUER": w.issuerURL, "OIDC_CLIENT_ID": "cli", "OIDC_REFRESH_TOKEN": rt, "OIDC_AUDIENCE": authn.DefaultAudience}.get,
			})
			require.NoError(t, err)
			assert.Equal(t, "dana", src.Principal)
			assert.Equal(t, "refresh_token", src.Status().TokenSource)
			for range 3 {
				got, err := whoami(t, w.backend, src)
				require.NoError(t, err)
				assert.Equal(t, "dana", got.Whoami.Subject)
			}
			assert.Equal(t, tt.wantCalls, w.tokenHits.Load())
		})
	}
}

func TestOIDCClientCredentials(t *testing.T) {
	w := newWorld(t, worldOptions{clients: []authn.Client{{ID: "svc", Secret: clientSecret, Subject: "robot"}}})
	src, err := auth.Resolve(context.Background(), auth.Options{
		Getenv: env{"OIDC_ISSUER": w.issuerURL, "OIDC_CLIENT_ID": "svc", "OIDC_CLIENT_SECRET": clientSecret, "OIDC_AUDIENCE": authn.DefaultAudience}.get,
	})
	require.NoError(t, err)
	assert.Equal(t, "robot", src.Principal)
	got, err := whoami(t, w.backend, src)
	require.NoError(t, err)
	assert.Equal(t, "robot", got.Whoami.Subject)
}

// TestOIDCRefreshFailure: when the issuer is gone, a token that is still
// valid keeps being sent; once it has expired the transport fails with an
// *auth.Error instead of sending anything.
func TestOIDCRefreshFailure(t *testing.T) {
	clk := newClock(time.Now())
	w := newWorld(t, worldOptions{clients: []authn.Client{{ID: "svc", Secret: clientSecret}}, tokenTTL: 30 * time.Second})
	var captured logs
	src, err := auth.Resolve(context.Background(), auth.Options{
		Getenv: env{"OIDC_ISSUER": w.issuerURL, "OIDC_CLIENT_ID": "svc", "OIDC_CLIENT_SECRET": clientSecret, "OIDC_AUDIENCE": authn.DefaultAudience}.get,
		Now:    clk.Now,
		Logger: captured.logger(),
	})
	require.NoError(t, err)
	w.closeIss()

	_, err = whoami(t, w.backend, src)
	require.NoError(t, err)
	assert.Contains(t, captured.String(), "OIDC token refresh failed; still sending the current token")

	clk.Set(clk.Now().Add(time.Hour))
	_, err = whoami(t, w.backend, src)
	var ae *auth.Error
	require.True(t, errors.As(err, &ae), "%v", err)
	assert.Equal(t, auth.OIDC, ae.Method)
	assert.Contains(t, ae.Error(), "token endpoint "+w.issuerURL+"/token unreachable")
	var ge *graphql.Error
	require.True(t, errors.As(err, &ge))
}

// TestOIDCSendsBareJWT: AppSync wants the token itself in Authorization,
// without "Bearer ".
func TestOIDCSendsBareJWT(t *testing.T) {
	clk := newClock(t0)
	w := newWorld(t, worldOptions{now: clk.Now})
	tok := w.mint(t, authn.Claims{Subject: "alice"})
	src, err := auth.Resolve(context.Background(), auth.Options{
		Getenv: env{"OIDC_ISSUER": w.issuerURL, "OIDC_AUDIENCE": authn.DefaultAudience, "OIDC_TOKEN": tok}.get,
		Now:    clk.Now,
	})
	require.NoError(t, err)
	var seen string
	rec := &http.Client{Transport: src.Transport}
	srv := headerRecorder(t, &seen)
	resp, err := rec.Post(srv, "application/json", strings.NewReader("{}"))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, tok, seen)
}
