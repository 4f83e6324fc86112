package store

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dump renders every row of the data tables, in order.
func dump(t *testing.T, s *Store) string {
	t.Helper()
	var b bytes.Buffer
	for _, q := range []string{
		`SELECT num, name, domain, description, country, city, categories, employees, founded, updated_ms FROM companies ORDER BY num`,
		`SELECT term, count, hex(list) FROM postings ORDER BY term`,
		`SELECT name, hex(data) FROM columns ORDER BY name`,
	} {
		rows, err := s.companies.Query(q)
		require.NoError(t, err)
		cols, _ := rows.Columns()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			require.NoError(t, rows.Scan(ptrs...))
			fmt.Fprintln(&b, vals...)
		}
		require.NoError(t, rows.Err())
		rows.Close()
	}
	return b.String()
}

func build(t *testing.T, seed int64, n int) *Store {
	t.Helper()
	s, err := Open(context.Background(), Options{Dir: t.TempDir(), Companies: n, Seed: seed})
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

func TestSameSeedBuildsIdenticalDatabases(t *testing.T) {
	a, b := dump(t, build(t, 5, 300)), dump(t, build(t, 5, 300))
	assert.Equal(t, a, b)
	assert.NotEqual(t, a, dump(t, build(t, 6, 300)), "another seed must give other data")
}

func TestReopenReusesTheDatabase(t *testing.T) {
	dir := t.TempDir()
	var logs bytes.Buffer
	o := Options{Dir: dir, Companies: 200, Seed: 3, Logger: slog.New(slog.NewTextHandler(&logs, nil))}
	s, err := Open(context.Background(), o)
	require.NoError(t, err)
	require.NoError(t, s.Close())
	path := filepath.Join(dir, "companies-200-3.db")
	before, err := os.Stat(path)
	require.NoError(t, err)
	assert.Contains(t, logs.String(), "building companies database")

	logs.Reset()
	s, err = Open(context.Background(), o)
	require.NoError(t, err)
	defer s.Close()
	after, err := os.Stat(path)
	require.NoError(t, err)
	assert.Contains(t, logs.String(), "reusing companies database")
	assert.NotContains(t, logs.String(), "building")
	assert.Equal(t, before.ModTime(), after.ModTime())
}

func TestStaleDatabaseIsRebuilt(t *testing.T) {
	dir := t.TempDir()
	o := Options{Dir: dir, Companies: 100, Seed: 3}
	s, err := Open(context.Background(), o)
	require.NoError(t, err)
	require.NoError(t, s.Close())

	// Pretend an older generator made the file.
	db, err := openDB(context.Background(), filepath.Join(dir, "companies-100-3.db"), nil)
	require.NoError(t, err)
	_, err = db.Exec(`UPDATE meta SET value = '0' WHERE key = 'generator'`)
	require.NoError(t, err)
	require.NoError(t, db.Close())

	var logs bytes.Buffer
	o.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	s, err = Open(context.Background(), o)
	require.NoError(t, err)
	defer s.Close()
	assert.Contains(t, logs.String(), "rebuilding companies database")
	assert.Contains(t, logs.String(), "meta generator")
	assert.Equal(t, 100, mustSearch(t, s, SearchQuery{Limit: 1}).Total)
}

func TestUnreadableDatabaseIsRebuilt(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "companies-50-3.db"), []byte("not a database"), 0o644))
	s, err := Open(context.Background(), Options{Dir: dir, Companies: 50, Seed: 3})
	require.NoError(t, err)
	defer s.Close()
	assert.Equal(t, 50, mustSearch(t, s, SearchQuery{Limit: 1}).Total)
}

func mustSearch(t *testing.T, s *Store, q SearchQuery) *CompanyPage {
	t.Helper()
	p, err := s.Search(context.Background(), q)
	require.NoError(t, err)
	return p
}

// cancelOnProgress cancels a build at its first progress line and keeps
// every line logged.
type cancelOnProgress struct {
	cancel context.CancelFunc
	lines  *bytes.Buffer
}

func (h cancelOnProgress) Enabled(context.Context, slog.Level) bool { return true }
func (h cancelOnProgress) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h cancelOnProgress) WithGroup(string) slog.Handler            { return h }
func (h cancelOnProgress) Handle(_ context.Context, r slog.Record) error {
	fmt.Fprint(h.lines, r.Message)
	r.Attrs(func(a slog.Attr) bool {
		fmt.Fprintf(h.lines, " %s=%v", a.Key, a.Value)
		if a.Key == "inserted" {
			h.cancel()
		}
		return true
	})
	fmt.Fprintln(h.lines)
	return nil
}

func TestBuildLogsProgressAndStopsWhenCancelled(t *testing.T) {
	defer func(d time.Duration) { progressInterval = d }(progressInterval)
	progressInterval = 0 // a line per chunk

	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var lines bytes.Buffer
	_, err := Open(ctx, Options{Dir: dir, Companies: 5000, Seed: 1, Logger: slog.New(cancelOnProgress{cancel, &lines})})

	require.ErrorIs(t, err, context.Canceled)
	assert.Contains(t, err.Error(), "stopped")
	assert.Contains(t, lines.String(), "inserted=256 of=5000")
	assert.NotContains(t, lines.String(), "inserted=512", "no chunk is inserted after the cancel")
	assert.Contains(t, lines.String(), "stopped building companies database; nothing was kept")
	left, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, left, "no database file, finished or partial, is left behind")
}

func TestBuildLogsProgressToTheEnd(t *testing.T) {
	defer func(d time.Duration) { progressInterval = d }(progressInterval)
	progressInterval = 0

	var logs bytes.Buffer
	s, err := Open(context.Background(), Options{Dir: t.TempDir(), Companies: 2500, Seed: 1, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	require.NoError(t, err)
	s.Close()
	for _, want := range []string{"inserted=1024 of=2500", "inserted=2048 of=2500", "indexing companies database", "built companies database"} {
		assert.Contains(t, logs.String(), want)
	}
}
