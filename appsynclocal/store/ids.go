package store

import (
	"crypto/rand"
	"encoding/hex"
)

// newID returns prefix followed by 16 random hex digits. Random rather than
// sequential ids give away nothing about other users' collections or jobs.
func newID(prefix string) string {
	b := make([]byte, 8)
	rand.Read(b) // never fails (crypto/rand documents it)
	return prefix + hex.EncodeToString(b)
}
