package store

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/companyintel/mcp-server/appsynclocal/dataset"
)

// schemaVersion identifies the companies database layout. Together with
// dataset.Version, the size and the seed, it decides whether a database on
// disk can be reused.
const schemaVersion = 2

// companiesDDL creates the tables. Indexes and the FTS content are added after
// the bulk insert, which is several times faster than maintaining them row by
// row.
const companiesDDL = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE companies (
	num         INTEGER PRIMARY KEY, -- the number in the id: cmp_000123 is 123
	name        TEXT NOT NULL,
	domain      TEXT NOT NULL,
	description TEXT NOT NULL,
	country     TEXT NOT NULL,    -- ISO alpha-2
	city        TEXT NOT NULL,
	categories  TEXT NOT NULL,    -- names joined by '|', main category first
	employees   INTEGER NOT NULL,
	founded     INTEGER NOT NULL,
	updated_ms  INTEGER NOT NULL  -- Unix milliseconds
);
-- What filters test, apart from the text: rows of ~20 bytes, so checking a
-- full-text match against filters, or scanning for a list, touches a few
-- megabytes instead of every profile.
CREATE TABLE facts (
	num       INTEGER PRIMARY KEY,
	country   TEXT NOT NULL,
	cat_mask  INTEGER NOT NULL, -- bit i set: the company is in dataset.Categories[i]
	employees INTEGER NOT NULL,
	founded   INTEGER NOT NULL
);
-- Counts per (country, category set): facet totals and filter-only totals
-- are sums over a few thousand rows instead of scans over a million.
CREATE TABLE facet_combos (
	country  TEXT NOT NULL,
	cat_mask INTEGER NOT NULL,
	count    INTEGER NOT NULL,
	PRIMARY KEY (country, cat_mask)
) WITHOUT ROWID;
-- Contentless FTS5 keyed by company number: search needs only which rows
-- match (the text lives once, in companies). One column of words (ftsWords):
-- the profile's words; the same words again, marked with the field they are
-- in (n_ name, c_ categories, t_ city), for the relevance tiers; and one word
-- per country and per category, for filters. So each tier and each filter
-- value is a list of its own, which FTS5 intersects with the words, skipping
-- through the longer lists, instead of checking positions or looking up a
-- row for every match. '_' is a token character, and is removed from the
-- text, so a marked word is never a word of the text. Porter stemming lets
-- "robots" find "robotics". detail=none: no query needs positions.
CREATE VIRTUAL TABLE companies_fts USING fts5(
	words,
	content='', detail=none,
	tokenize='porter unicode61 remove_diacritics 2 tokenchars ''_'''
);
`

// companiesIndexDDL runs after the bulk insert and mergeIndex.
const companiesIndexDDL = `
CREATE INDEX facts_facets ON facts (country, cat_mask, employees, founded);
INSERT INTO facet_combos SELECT country, cat_mask, count(*) FROM facts GROUP BY country, cat_mask;
ANALYZE;
`

// insertBatch is how many companies one INSERT statement carries. Fewer,
// larger statements cut the per-statement cost that dominates bulk loads.
const insertBatch = 64

// companyColumns, factColumns and ftsColumns are bound per row.
const (
	companyColumns = 10
	factColumns    = 5
	ftsColumns     = 2
)

// openCompanies opens the companies database at path, building it first when
// it is missing, incomplete, or made by another generator or layout.
func openCompanies(ctx context.Context, path string, gen *dataset.Generator, seed int64, log *slog.Logger) (*sql.DB, error) {
	want := map[string]string{
		"schema":    strconv.Itoa(schemaVersion),
		"generator": strconv.Itoa(dataset.Version),
		"companies": strconv.Itoa(gen.Len()),
		"seed":      strconv.FormatInt(seed, 10),
		"complete":  "1",
	}
	if _, err := os.Stat(path); err == nil {
		db, reason := reuseCompanies(ctx, path, want)
		if db != nil {
			log.Info("reusing companies database", "path", path, "companies", gen.Len())
			return db, nil
		}
		log.Warn("rebuilding companies database", "path", path, "reason", reason)
	}
	if err := buildCompanies(ctx, path, gen, want, log); err != nil {
		return nil, err
	}
	return openCompaniesReadOnly(ctx, path)
}

// openCompaniesReadOnly opens a built database for queries. immutable=1 tells
// SQLite the file never changes, which skips locking on every read.
func openCompaniesReadOnly(ctx context.Context, path string) (*sql.DB, error) {
	db, err := openDB(ctx, path, url.Values{"mode": {"ro"}, "immutable": {"1"}},
		"query_only(1)", "cache_size(-32768)", "mmap_size(1073741824)")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(8)
	db.SetMaxIdleConns(8)
	return db, nil
}

// reuseCompanies opens the database at path if it holds exactly what want
// describes; otherwise it says why not.
func reuseCompanies(ctx context.Context, path string, want map[string]string) (*sql.DB, string) {
	db, err := openCompaniesReadOnly(ctx, path)
	if err != nil {
		return nil, err.Error()
	}
	reason, err := checkMeta(ctx, db, want)
	if err != nil {
		reason = err.Error()
	}
	if reason != "" {
		db.Close()
		return nil, reason
	}
	return db, ""
}

// checkMeta returns why db does not hold what want describes, or "".
func checkMeta(ctx context.Context, db *sql.DB, want map[string]string) (string, error) {
	rows, err := db.QueryContext(ctx, `SELECT key, value FROM meta`)
	if err != nil {
		return "", fmt.Errorf("reading meta: %w", err)
	}
	defer rows.Close()
	got := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return "", err
		}
		got[k] = v
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	for k, v := range want {
		if got[k] != v {
			return fmt.Sprintf("meta %s is %q, want %q", k, got[k], v), nil
		}
	}
	return "", nil
}

// buildCompanies writes the whole data set to a temporary file and renames it
// into place, so an interrupted build never leaves a file that looks usable.
// It logs its progress (a million companies take about 30 s), and stops
// soon after ctx is cancelled: generation checks ctx between batches and
// SQLite is interrupted mid-statement, then the temporary file is removed.
func buildCompanies(ctx context.Context, path string, gen *dataset.Generator, meta map[string]string, log *slog.Logger) error {
	start := time.Now()
	log.Info("building companies database", "path", path, "companies", gen.Len())
	tmp := fmt.Sprintf("%s.building-%d", path, os.Getpid())
	os.Remove(tmp)
	err := writeCompanies(ctx, tmp, gen, meta, log)
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		if ctx.Err() != nil {
			log.Info("stopped building companies database; nothing was kept", "path", path,
				"after", time.Since(start).Round(time.Millisecond).String())
			return fmt.Errorf("building %s: stopped: %w", path, context.Cause(ctx))
		}
		return fmt.Errorf("building %s: %w", path, err)
	}
	log.Info("built companies database", "path", path, "companies", gen.Len(), "duration", time.Since(start).Round(time.Millisecond).String())
	return nil
}

// progressEvery is how many companies the build inserts between two progress
// lines: ten lines for a million, none for the default 20,000.
var progressEvery = 100_000

// writeCompanies fills a new database file. Durability pragmas are off: if
// the process dies the file is simply not renamed into place.
func writeCompanies(ctx context.Context, path string, gen *dataset.Generator, meta map[string]string, log *slog.Logger) error {
	db, err := openDB(ctx, path, nil, "journal_mode(OFF)", "synchronous(OFF)",
		"cache_size(-262144)", "temp_store(MEMORY)", "locking_mode(EXCLUSIVE)")
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(ctx, companiesDDL); err != nil {
		return fmt.Errorf("creating tables: %w", err)
	}
	if err := insertCompanies(ctx, db, gen, log); err != nil {
		return err
	}
	log.Info("indexing companies database", "companies", gen.Len())
	if err := mergeIndex(ctx, db); err != nil {
		return fmt.Errorf("merging the full-text index: %w", err)
	}
	if _, err := db.ExecContext(ctx, companiesIndexDDL); err != nil {
		return fmt.Errorf("indexing: %w", err)
	}
	for _, k := range []string{"schema", "generator", "companies", "seed", "complete"} {
		if _, err := db.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES (?, ?)`, k, meta[k]); err != nil {
			return fmt.Errorf("writing meta: %w", err)
		}
	}
	return db.Close()
}

// mergePages is how many pages one step of mergeIndex writes: 0.05-0.25 s
// each at 400,000 companies on the loaded 2-core machine (2,000 pages took
// 3-17 s a step), so a cancelled build stops soon.
const mergePages = 200

// mergeIndex merges the full-text index into one b-tree, as FTS5's
// 'optimize' does, so queries read one list per word. 'optimize' is one
// long command (seconds at a million companies) that SQLite cannot
// interrupt, so this runs FTS5's incremental 'merge' in steps and checks
// ctx between them. A negative page count puts every segment on one level
// first, and usermerge=2 lets the last two be merged; FTS5 documents that a
// step changing fewer than 2 rows (total_changes) had nothing left to do.
// db must hold one connection, so total_changes counts this one's work.
func mergeIndex(ctx context.Context, db *sql.DB) error {
	if _, err := db.ExecContext(ctx, `INSERT INTO companies_fts (companies_fts, rank) VALUES ('usermerge', 2)`); err != nil {
		return err
	}
	for {
		var before, after int64
		if err := db.QueryRowContext(ctx, `SELECT total_changes()`).Scan(&before); err != nil {
			return err
		}
		if _, err := db.ExecContext(ctx, `INSERT INTO companies_fts (companies_fts, rank) VALUES ('merge', ?)`, -mergePages); err != nil {
			return err
		}
		if err := db.QueryRowContext(ctx, `SELECT total_changes()`).Scan(&after); err != nil {
			return err
		}
		if after-before < 2 {
			return nil
		}
	}
}

// insertCompanies generates companies on one goroutine while this one inserts
// them, in one transaction with prepared multi-row statements, logging every
// progressEvery companies.
func insertCompanies(ctx context.Context, db *sql.DB, gen *dataset.Generator, log *slog.Logger) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	batches := make(chan []dataset.Company, 8)
	go func() {
		defer close(batches)
		for lo := 0; lo < gen.Len(); lo += insertBatch {
			hi := min(lo+insertBatch, gen.Len())
			b := make([]dataset.Company, 0, hi-lo)
			for i := lo; i < hi; i++ {
				b = append(b, gen.Company(i))
			}
			select {
			case batches <- b:
			case <-ctx.Done():
				return
			}
		}
	}()

	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	tables := []struct {
		name string // with its column list
		cols int
		row  func(c dataset.Company) []any
	}{
		{"companies (num, name, domain, description, country, city, categories, employees, founded, updated_ms)", companyColumns, func(c dataset.Company) []any {
			return []any{c.Num, c.Name, c.Domain, c.Description, c.CountryCode, c.City,
				strings.Join(c.CategoryNames(), "|"), c.Employees, c.Founded, c.UpdatedAt.UnixMilli()}
		}},
		{"facts (num, country, cat_mask, employees, founded)", factColumns, func(c dataset.Company) []any {
			return []any{c.Num, c.CountryCode, categoryMask(c.Categories), c.Employees, c.Founded}
		}},
		{"companies_fts (rowid, words)", ftsColumns, func(c dataset.Company) []any {
			return []any{c.Num, ftsWords(c)}
		}},
	}
	stmts := map[int][]*sql.Stmt{} // by batch length, one per table
	defer func() {
		for _, ss := range stmts {
			for _, s := range ss {
				s.Close()
			}
		}
	}()
	prepared := func(n int) ([]*sql.Stmt, error) {
		if ss, ok := stmts[n]; ok {
			return ss, nil
		}
		for _, t := range tables {
			s, err := tx.PrepareContext(ctx, insertSQL(t.name, t.cols, n))
			if err != nil {
				return nil, err
			}
			stmts[n] = append(stmts[n], s)
		}
		return stmts[n], nil
	}
	args := make([]any, 0, insertBatch*companyColumns)
	start, done := time.Now(), 0
	for b := range batches {
		ss, err := prepared(len(b)) // every batch but the last is full
		if err != nil {
			return err
		}
		for i, t := range tables {
			args = args[:0]
			for _, c := range b {
				args = append(args, t.row(c)...)
			}
			if _, err := ss[i].ExecContext(ctx, args...); err != nil {
				return fmt.Errorf("inserting into %s: %w", strings.Fields(t.name)[0], err)
			}
		}
		if done/progressEvery != (done+len(b))/progressEvery {
			log.Info("building companies database", "inserted", done+len(b), "of", gen.Len(),
				"elapsed", time.Since(start).Round(100*time.Millisecond).String())
		}
		done += len(b)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return tx.Commit()
}

// insertSQL is an INSERT into table (with its column list) of n rows of
// cols placeholders each.
func insertSQL(table string, cols, n int) string {
	row := "(" + placeholders(cols) + ")"
	return `INSERT INTO ` + table + ` VALUES ` + strings.TrimSuffix(strings.Repeat(row+",", n), ",")
}

// categoryMask sets bit i for each category index i.
func categoryMask(cats []int) int64 {
	var m int64
	for _, c := range cats {
		m |= 1 << c
	}
	return m
}
