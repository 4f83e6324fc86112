package authn

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/go-jose/go-jose/v4"
)

// loadOrCreateKey returns the signing key kept in path, creating it when the
// file does not exist. An empty path means a fresh key held only in memory.
func loadOrCreateKey(path string) (*ecdsa.PrivateKey, error) {
	if path == "" {
		return ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return createKey(path)
	}
	if err != nil {
		return nil, fmt.Errorf("issuer key: %w", err)
	}
	block, _ := pem.Decode(b)
	if block == nil || block.Type != "PRIVATE KEY" {
		return nil, fmt.Errorf("issuer key %s: not a PEM PRIVATE KEY", path)
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("issuer key %s: %w", path, err)
	}
	ec, ok := k.(*ecdsa.PrivateKey)
	if !ok || ec.Curve != elliptic.P256() {
		return nil, fmt.Errorf("issuer key %s: want an ECDSA P-256 key", path)
	}
	return ec, nil
}

// createKey generates a key and writes it to path, readable by the owner
// only, through a rename so that a crash never leaves half a key.
func createKey(path string) (*ecdsa.PrivateKey, error) {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	der, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("issuer key: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".issuer-key-*")
	if err != nil {
		return nil, fmt.Errorf("issuer key: %w", err)
	}
	defer os.Remove(tmp.Name()) // a no-op after the rename
	if err := pem.Encode(tmp, &pem.Block{Type: "PRIVATE KEY", Bytes: der}); err != nil {
		tmp.Close()
		return nil, fmt.Errorf("issuer key: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return nil, fmt.Errorf("issuer key: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return nil, fmt.Errorf("issuer key: %w", err)
	}
	return k, nil
}

// keyID is the key's RFC 7638 thumbprint, so a persisted key keeps its kid.
func keyID(k *ecdsa.PrivateKey) (string, error) {
	jwk := jose.JSONWebKey{Key: &k.PublicKey}
	tp, err := jwk.Thumbprint(crypto.SHA256)
	if err != nil {
		return "", fmt.Errorf("issuer key id: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(tp), nil
}

// deriveKey derives a key for another purpose from the signing key, so it
// is as stable as the signing key is (a persisted key keeps consent forms
// valid across a restart) and never the signing key itself.
func deriveKey(k *ecdsa.PrivateKey, purpose string) []byte {
	b, _ := k.Bytes()
	h := sha256.New()
	h.Write([]byte(purpose))
	h.Write([]byte{0})
	h.Write(b)
	return h.Sum(nil)
}
