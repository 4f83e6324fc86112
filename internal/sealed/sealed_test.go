package sealed

import (
	"context"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/ratelimit/redistest"
)

func TestSealedTokenOpensUnderTheSameKeyOnly(t *testing.T) {
	secret := []byte(strings.Repeat("k", KeySize))
	a, err := NewKey(secret)
	require.NoError(t, err)
	b, err := ParseKey(base64.StdEncoding.EncodeToString(secret)) // another replica, the same key
	require.NoError(t, err)

	tok := a.Seal("purpose", []byte(`{"c":"alice"}`))
	assert.NotContains(t, tok, "alice", "the payload is encrypted, not only signed")
	got, err := b.Open("purpose", tok)
	require.NoError(t, err)
	assert.Equal(t, `{"c":"alice"}`, string(got))
	assert.NotEqual(t, tok, a.Seal("purpose", []byte(`{"c":"alice"}`)), "each seal has its own nonce")

	_, err = RandomKey().Open("purpose", tok)
	assert.ErrorIs(t, err, ErrInvalid, "another key")
	_, err = a.Open("other purpose", tok)
	assert.ErrorIs(t, err, ErrInvalid, "another purpose")

	raw, _ := base64.RawURLEncoding.DecodeString(tok)
	for i := range raw {
		flipped := append([]byte(nil), raw...)
		flipped[i] ^= 1
		_, err := a.Open("purpose", base64.RawURLEncoding.EncodeToString(flipped))
		assert.ErrorIs(t, err, ErrInvalid, "byte %d altered", i)
	}
	for _, bad := range []string{"", "not base64!", tok[:len(tok)-4], strings.Repeat("A", MaxToken+1)} {
		_, err := a.Open("purpose", bad)
		assert.ErrorIs(t, err, ErrInvalid, "%.20q", bad)
	}
}

func TestParseKeyReadsBase64OrAFileAndRefusesTheRest(t *testing.T) {
	secret := []byte(strings.Repeat("s", KeySize))
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		_, err := ParseKey(" " + enc.EncodeToString(secret) + "\n")
		assert.NoError(t, err)
	}
	path := filepath.Join(t.TempDir(), "key")
	require.NoError(t, os.WriteFile(path, []byte(base64.StdEncoding.EncodeToString(secret)+"\n"), 0o600))
	_, err := ParseKey("file:" + path)
	assert.NoError(t, err)

	_, err = ParseKey(base64.StdEncoding.EncodeToString(secret[:16]))
	assert.ErrorContains(t, err, "the key is 16 bytes; it must be 32 random bytes")
	_, err = ParseKey("correct horse battery staple")
	assert.ErrorContains(t, err, "not base64")
	_, err = ParseKey("file:" + filepath.Join(t.TempDir(), "missing"))
	assert.ErrorContains(t, err, "reading the key file")
}

func TestMemoryHonoursAnIDOnceUntilItExpires(t *testing.T) {
	now := time.Unix(1000, 0)
	m := &Memory{Now: func() time.Time { return now }, Max: 2}
	ctx := context.Background()
	first, err := m.First(ctx, "a", now.Add(time.Minute))
	require.NoError(t, err)
	assert.True(t, first)
	first, err = m.First(ctx, "a", now.Add(time.Minute))
	require.NoError(t, err)
	assert.False(t, first, "replayed")

	first, _ = m.First(ctx, "b", now.Add(time.Minute))
	assert.True(t, first)
	_, err = m.First(ctx, "c", now.Add(time.Minute))
	assert.Error(t, err, "full: refused, never honoured twice by forgetting")

	now = now.Add(2 * time.Minute) // a and b expired: their tokens can no longer be sent
	first, err = m.First(ctx, "c", now.Add(time.Minute))
	require.NoError(t, err)
	assert.True(t, first)
}

func TestRedisHonoursAnIDOnceAcrossReplicas(t *testing.T) {
	srv := redistest.Start(t)
	a, b := &Redis{Client: srv.Client()}, &Redis{Client: srv.Client()} // two replicas, one Redis
	ctx := context.Background()
	until := time.Now().Add(time.Minute)
	first, err := a.First(ctx, "state-1", until)
	require.NoError(t, err)
	assert.True(t, first)
	first, err = b.First(ctx, "state-1", until)
	require.NoError(t, err)
	assert.False(t, first, "replayed to the other replica")
	ttl, err := srv.Client().TTL(ctx, "mcp:once:state-1").Result()
	require.NoError(t, err)
	assert.LessOrEqual(t, ttl, time.Minute, "remembered only as long as the token lives")

	srv.Kill()
	_, err = a.First(ctx, "state-2", until)
	assert.Error(t, err, "a Redis that does not answer is an error (the state is refused), never a yes")
}

// A token has one spelling: changing any one character to any other of the
// alphabet is refused, the last one included (whose low bits a lenient
// base64 decoder ignores).
func TestEveryOneCharacterChangeOfATokenIsRefused(t *testing.T) {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	k := RandomKey()
	for _, size := range []int{0, 1, 2, 3, 10} { // each length mod 3 of the last group
		token := k.Seal("test", make([]byte, size))
		_, err := k.Open("test", token)
		require.NoError(t, err)
		for i := range token {
			for _, c := range alphabet {
				if byte(c) == token[i] {
					continue
				}
				changed := token[:i] + string(c) + token[i+1:]
				_, err := k.Open("test", changed)
				require.ErrorIs(t, err, ErrInvalid, "position %d of %d changed to %q", i, len(token), c)
			}
		}
	}
}
