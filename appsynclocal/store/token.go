package store

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"fmt"
)

// A nextToken is opaque to callers: base64url of
//
//	version (1 byte) | scope (8) | position (8) | MAC (8)
//
// scope binds the token to the query that issued it, position is an offset or
// the last id returned, and the MAC (HMAC-SHA256 keyed by the data set,
// truncated) makes a tampered or made-up token fail cleanly. It is an
// integrity check for an emulator, not a secret.
const (
	tokenVersion = 2
	tokenLen     = 1 + 8 + 8 + 8
)

// tokenCodec makes and checks page tokens for one data set.
type tokenCodec struct{ key []byte }

func newTokenCodec(seed int64, companies int) tokenCodec {
	k := sha256.Sum256(fmt.Appendf(nil, "appsync-local nextToken %d %d", seed, companies))
	return tokenCodec{key: k[:]}
}

// encode returns the token for the page after position in the query scope.
func (c tokenCodec) encode(scope string, position int64) string {
	b := make([]byte, tokenLen)
	b[0] = tokenVersion
	copy(b[1:9], c.scopeHash(scope))
	binary.BigEndian.PutUint64(b[9:17], uint64(position))
	copy(b[17:], c.mac(b[:17]))
	return base64.RawURLEncoding.EncodeToString(b)
}

// decode returns the position a token carries. Any token not made by encode
// for this scope is an *InvalidError.
func (c tokenCodec) decode(token, scope string) (int64, error) {
	bad := invalidf("nextToken is invalid: pass back the nextToken of the previous page of the same query, unchanged")
	b, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil || len(b) != tokenLen || b[0] != tokenVersion {
		return 0, bad
	}
	if !hmac.Equal(b[17:], c.mac(b[:17])) || !hmac.Equal(b[1:9], c.scopeHash(scope)) {
		return 0, bad
	}
	pos := binary.BigEndian.Uint64(b[9:17])
	if pos > 1<<62 {
		return 0, bad
	}
	return int64(pos), nil
}

func (c tokenCodec) scopeHash(scope string) []byte {
	h := sha256.Sum256([]byte(scope))
	return h[:8]
}

func (c tokenCodec) mac(b []byte) []byte {
	m := hmac.New(sha256.New, c.key)
	m.Write(b)
	return m.Sum(nil)[:8]
}
