// Package sealed seals small payloads that leave the server and come back:
// authenticated encryption (AES-256-GCM) under a key every replica of a
// deployment shares, so that any replica can open what another sealed, and
// nobody without the key can read or alter it. The confirmation of a write
// travels this way as a 2026-07-28 requestState (package tools); the
// payload carries its own binding (caller, tool, arguments, expiry), and
// the purpose given to Seal and Open is authenticated with it, so a token
// sealed for one use cannot be opened for another.
package sealed

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"strings"
)

// KeySize is the key's length in bytes (AES-256).
const KeySize = 32

// version is the first byte of every token, so that a later format (a new
// cipher, key rotation) can be told from this one.
const version = 1

// MaxToken bounds a token accepted by Open, in bytes: a requestState is
// sent by the client and read before anything else is known about it.
const MaxToken = 4096

// ErrInvalid is a token that does not open: altered, truncated, not ours,
// or sealed under another key or for another purpose. Which of these it
// was is not told: the answer would help only someone forging one.
var ErrInvalid = errors.New("the sealed state was altered, cut short, or not issued by this service")

// Key seals and opens tokens.
type Key struct {
	aead cipher.AEAD
}

// NewKey returns a key from KeySize bytes of secret.
func NewKey(secret []byte) (*Key, error) {
	if len(secret) != KeySize {
		return nil, fmt.Errorf("the key is %d bytes; it must be %d random bytes (e.g. openssl rand -base64 32)", len(secret), KeySize)
	}
	block, err := aes.NewCipher(secret)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &Key{aead: aead}, nil
}

// RandomKey returns a fresh key known only to this process: what a single
// process (stdio, one loopback server) uses when the operator gave none.
func RandomKey() *Key {
	secret := make([]byte, KeySize)
	rand.Read(secret) // never fails (crypto/rand)
	k, _ := NewKey(secret)
	return k
}

// ParseKey reads a key written in base64 (standard or URL alphabet, with or
// without padding), or, as "file:PATH", from a file holding that text.
func ParseKey(text string) (*Key, error) {
	text = strings.TrimSpace(text)
	if path, ok := strings.CutPrefix(text, "file:"); ok {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("reading the key file: %w", err)
		}
		text = strings.TrimSpace(string(b))
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if secret, err := enc.DecodeString(text); err == nil {
			return NewKey(secret)
		}
	}
	return nil, errors.New("the key is not base64; give 32 random bytes in base64 (e.g. openssl rand -base64 32)")
}

// Seal encrypts and authenticates payload for purpose, and returns it as
// URL-safe base64 text.
func (k *Key) Seal(purpose string, payload []byte) string {
	nonce := make([]byte, k.aead.NonceSize(), 1+k.aead.NonceSize()+len(payload)+k.aead.Overhead())
	rand.Read(nonce)
	out := append([]byte{version}, nonce...)
	out = k.aead.Seal(out, nonce, payload, []byte(purpose))
	return base64.RawURLEncoding.EncodeToString(out)
}

// Open returns the payload of a token Seal made for purpose under this
// key, or ErrInvalid.
func (k *Key) Open(purpose, token string) ([]byte, error) {
	if len(token) > MaxToken {
		return nil, ErrInvalid
	}
	// Strict: the lenient decoder ignores the unused low bits of the last
	// character, so a token would have more than one spelling and a
	// changed link could still open.
	raw, err := base64.RawURLEncoding.Strict().DecodeString(token)
	n := k.aead.NonceSize()
	if err != nil || len(raw) < 1+n+k.aead.Overhead() || raw[0] != version {
		return nil, ErrInvalid
	}
	payload, err := k.aead.Open(nil, raw[1:1+n], raw[1+n:], []byte(purpose))
	if err != nil {
		return nil, ErrInvalid
	}
	return payload, nil
}
