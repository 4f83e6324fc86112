// Package tail keeps the last bytes a child process wrote, for the bench
// drivers: shown when something fails, without holding every log line of a
// long run.
package tail

import "sync"

// Buffer is an io.Writer that keeps only the last bytes written to it. It is
// safe for one writer and concurrent readers.
type Buffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

// New returns a Buffer that keeps the last max bytes.
func New(max int) *Buffer { return &Buffer{max: max} }

// Write appends p and drops what falls beyond the last max bytes.
func (t *Buffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if over := len(t.b) - t.max; over > 0 {
		t.b = append(t.b[:0], t.b[over:]...)
	}
	return len(p), nil
}

// String returns the bytes kept.
func (t *Buffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}
