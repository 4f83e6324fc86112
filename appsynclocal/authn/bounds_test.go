package authn

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRefreshTableNeverRefuses: past maxRefresh outstanding refresh
// tokens, a new one is still issued, and the one closest to expiry is the
// one forgotten.
func TestRefreshTableNeverRefuses(t *testing.T) {
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	i, err := NewIssuer(IssuerConfig{URL: "http://issuer.test", Clients: []Client{{ID: "cli"}}, Now: func() time.Time { return now }})
	require.NoError(t, err)
	oldest, err := i.newRefreshToken(refreshGrant{clientID: "cli", subject: "first"})
	require.NoError(t, err)
	for range maxRefresh {
		now = now.Add(time.Millisecond)
		_, err := i.newRefreshToken(refreshGrant{clientID: "cli", subject: "flood"})
		require.NoError(t, err)
	}
	assert.Len(t, i.refresh, maxRefresh)
	assert.NotContains(t, i.refresh, oldest)
}
