package store

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// testCompanies is the size of the shared test data set: big enough for
// every filter to match something, small enough to build in a second.
const testCompanies = 2000

// baseDir holds the test data set, built once per test binary and copied
// into each test's own directory.
var baseDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "store-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	baseDir = dir
	s, err := Open(context.Background(), Options{Dir: dir, Companies: testCompanies, Seed: 1})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	s.Close()
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// openTest opens a store over a copy of the shared data set in a fresh
// directory, so state written by one test never reaches another.
func openTest(t *testing.T, o Options) (*Store, string) {
	t.Helper()
	dir := t.TempDir()
	name := fmt.Sprintf("companies-%d-1.db", testCompanies)
	copyFile(t, filepath.Join(baseDir, name), filepath.Join(dir, name))
	o.Dir, o.Companies, o.Seed = dir, testCompanies, 1
	s, err := Open(context.Background(), o)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s, dir
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	src, err := os.Open(from)
	require.NoError(t, err)
	defer src.Close()
	dst, err := os.Create(to)
	require.NoError(t, err)
	_, err = io.Copy(dst, src)
	require.NoError(t, err)
	require.NoError(t, dst.Close())
}

// clock is a settable time source.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func newClock() *clock {
	return &clock{now: time.Date(2026, 11, 30, 2, 0, 0, 0, time.UTC)}
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}
