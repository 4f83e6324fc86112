package auth_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/appsynclocal/authn"
	"github.com/companyintel/mcp-server/auth"
)

// TestExpiredTokenIsNotSent: past its expiry a token stays home; the caller
// gets an auth error saying so, which the tools report as unauthorized.
func TestExpiredTokenIsNotSent(t *testing.T) {
	clk := newClock(t0)
	w := newWorld(t, worldOptions{now: clk.Now})
	tok := w.mint(t, authn.Claims{Subject: "alice", Expiry: t0.Add(time.Hour)})
	src, err := auth.Resolve(context.Background(), auth.Options{
		Getenv: env{"OIDC_ISSUER": w.issuerURL, "OIDC_AUDIENCE": authn.DefaultAudience, "OIDC_TOKEN": tok}.get,
		Now:    clk.Now,
	})
	require.NoError(t, err)
	_, err = whoami(t, w.backend, src)
	require.NoError(t, err)

	clk.Set(t0.Add(time.Hour))
	_, err = whoami(t, w.backend, src)
	var ae *auth.Error
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, "auth oidc: the OIDC token expired at 2026-11-30T03:00:00Z, so it was not sent", ae.Error())
}

// TestSharedTokenFileIsWarnedAbout: a token file other users can read is
// named in a warning at start-up, with the fix; a private one is not.
func TestSharedTokenFileIsWarnedAbout(t *testing.T) {
	clk := newClock(t0)
	w := newWorld(t, worldOptions{now: clk.Now})
	for mode, warned := range map[os.FileMode]bool{0o600: false, 0o640: true, 0o604: true} {
		path := filepath.Join(t.TempDir(), "token")
		require.NoError(t, os.WriteFile(path, []byte(w.mint(t, authn.Claims{Subject: "alice"})), 0o600))
		require.NoError(t, os.Chmod(path, mode))
		var captured logs
		_, err := auth.Resolve(context.Background(), auth.Options{
			Getenv: env{"OIDC_ISSUER": w.issuerURL, "OIDC_AUDIENCE": authn.DefaultAudience, "OIDC_TOKEN_FILE": path}.get,
			Now:    clk.Now, Logger: captured.logger(),
		})
		require.NoError(t, err)
		if warned {
			assert.Contains(t, captured.String(), "can be read by other users", "mode %04o", mode)
			assert.Contains(t, captured.String(), "chmod 600")
		} else {
			assert.NotContains(t, captured.String(), "can be read by other users", "mode %04o", mode)
		}
	}
}
