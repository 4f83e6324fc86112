package store

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/companyintel/mcp-server/appsynclocal/dataset"
)

// schemaVersion identifies the companies database layout. Together with
// dataset.Version, the size and the seed, it decides whether a database on
// disk can be reused.
const schemaVersion = 3

// companiesDDL creates the tables. The build writes each table once, in
// bulk: there is no index to maintain row by row, and no full-text engine.
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
-- The inverted index: for each index word (indexWords), the companies that
-- have it, in number order, as one blob (see encodePostings): a search
-- reads a few blobs instead of a row per match.
CREATE TABLE postings (
	term  TEXT PRIMARY KEY,
	count INTEGER NOT NULL,
	list  BLOB NOT NULL
);
-- What filters and orders read, one array per column over every company
-- (see columns.go): loaded into memory when the store opens.
CREATE TABLE columns (
	name TEXT PRIMARY KEY,
	data BLOB NOT NULL
);
`

// insertBatch is how many rows one INSERT statement carries. Fewer, larger
// statements cut the per-statement cost that dominates bulk loads.
const insertBatch = 64

// buildChunk is how many companies a generating worker makes at a time.
const buildChunk = 256

// companyColumns and postingColumns are bound per row.
const (
	companyColumns = 10
	postingColumns = 3
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

// progressInterval is how often the build logs a progress line: a person
// watching a million companies being built sees it working.
var progressInterval = 3 * time.Second

// writeCompanies fills a new database file. Durability pragmas are off: if
// the process dies the file is simply not renamed into place.
//
// Companies are generated in chunks by one worker per CPU (company i
// depends only on the seed and i); the chunks are then taken in order by
// two goroutines at once: one inserts the rows into SQLite, the other adds
// each company's words to the in-memory postings and its facts to the
// columns. Last, the postings, the columns and the name order are written,
// in the same transaction.
func writeCompanies(ctx context.Context, path string, gen *dataset.Generator, meta map[string]string, log *slog.Logger) error {
	db, err := openDB(ctx, path, nil, "page_size(16384)", "journal_mode(OFF)", "synchronous(OFF)",
		"cache_size(-32768)", "temp_store(MEMORY)", "locking_mode(EXCLUSIVE)")
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(ctx, companiesDDL); err != nil {
		return fmt.Errorf("creating tables: %w", err)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	start := time.Now()
	dict := newTermDict()
	chunks := generateChunks(ctx, gen, dict)
	toInsert, toIndex := make(chan *genChunk, 4), make(chan *genChunk, 4)
	go func() {
		defer close(toInsert)
		defer close(toIndex)
		for c := range chunks {
			select {
			case <-c.done:
			case <-ctx.Done():
				return
			}
			toInsert <- c
			toIndex <- c
		}
	}()
	ix := newIndexBuilder(gen.Len(), dict)
	indexed := make(chan struct{})
	go func() {
		defer close(indexed)
		for c := range toIndex {
			ix.add(c)
		}
	}()
	insertErr := insertRows(ctx, tx, toInsert, gen.Len(), start, log)
	if insertErr != nil {
		cancel()
		for range toInsert { // let the feeder and the indexer finish
		}
	}
	<-indexed
	if insertErr != nil {
		return insertErr
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	log.Info("indexing companies database", "companies", gen.Len(), "words", ix.words(),
		"elapsed", time.Since(start).Round(100*time.Millisecond).String())
	if err := ix.write(ctx, tx); err != nil {
		return fmt.Errorf("writing the index: %w", err)
	}
	for _, k := range []string{"schema", "generator", "companies", "seed", "complete"} {
		if _, err := tx.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES (?, ?)`, k, meta[k]); err != nil {
			return fmt.Errorf("writing meta: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	return db.Close()
}

// genChunk is companies lo.. generated by one worker, with what the index
// needs of each; done is closed when it is filled.
type genChunk struct {
	lo        int
	companies []dataset.Company
	words     [][]int32 // each company's distinct index words, numbered by a termDict
	done      chan struct{}
}

// generateChunks generates every company on one worker per CPU and returns
// the chunks in order; a chunk's done is closed once it is filled. At most
// a few chunks per worker are ahead of their consumer.
func generateChunks(ctx context.Context, gen *dataset.Generator, dict *termDict) <-chan *genChunk {
	workers := max(1, runtime.GOMAXPROCS(0))
	ordered := make(chan *genChunk, 4*workers)
	jobs := make(chan *genChunk)
	go func() {
		defer close(ordered)
		defer close(jobs)
		for lo := 0; lo < gen.Len(); lo += buildChunk {
			c := &genChunk{lo: lo, done: make(chan struct{})}
			select {
			case ordered <- c:
			case <-ctx.Done():
				return
			}
			select {
			case jobs <- c:
			case <-ctx.Done():
				return
			}
		}
	}()
	for range workers {
		go func() {
			words := newWordIndexer(dict)
			for c := range jobs {
				hi := min(c.lo+buildChunk, gen.Len())
				c.companies = make([]dataset.Company, 0, hi-c.lo)
				c.words = make([][]int32, 0, hi-c.lo)
				for i := c.lo; i < hi; i++ {
					co := gen.Company(i)
					c.companies = append(c.companies, co)
					c.words = append(c.words, words.of(co))
				}
				close(c.done)
			}
		}()
	}
	return ordered
}

// insertRows inserts the companies of each chunk, in order, with prepared
// multi-row statements, logging progress every progressInterval.
func insertRows(ctx context.Context, tx *sql.Tx, chunks <-chan *genChunk, total int, start time.Time, log *slog.Logger) error {
	stmts := map[int]*sql.Stmt{} // by rows per statement
	defer func() {
		for _, s := range stmts {
			s.Close()
		}
	}()
	args := make([]any, 0, insertBatch*companyColumns)
	done, lastLog := 0, start
	for c := range chunks {
		for lo := 0; lo < len(c.companies); lo += insertBatch {
			batch := c.companies[lo:min(lo+insertBatch, len(c.companies))]
			stmt, ok := stmts[len(batch)]
			if !ok {
				var err error
				if stmt, err = tx.PrepareContext(ctx, insertSQL("companies (num, name, domain, description, country, city, categories, employees, founded, updated_ms)",
					companyColumns, len(batch))); err != nil {
					return err
				}
				stmts[len(batch)] = stmt
			}
			args = args[:0]
			for _, co := range batch {
				args = append(args, co.Num, co.Name, co.Domain, co.Description, co.CountryCode, co.City,
					strings.Join(co.CategoryNames(), "|"), co.Employees, co.Founded, co.UpdatedAt.UnixMilli())
			}
			if _, err := stmt.ExecContext(ctx, args...); err != nil {
				return fmt.Errorf("inserting companies: %w", err)
			}
		}
		done += len(c.companies)
		if now := time.Now(); now.Sub(lastLog) >= progressInterval || done == total {
			lastLog = now
			log.Info("building companies database", "inserted", done, "of", total,
				"elapsed", now.Sub(start).Round(100*time.Millisecond).String())
		}
	}
	return ctx.Err()
}

// insertSQL is an INSERT into table (with its column list) of n rows of
// cols placeholders each.
func insertSQL(table string, cols, n int) string {
	row := "(" + placeholders(cols) + ")"
	return `INSERT INTO ` + table + ` VALUES ` + strings.TrimSuffix(strings.Repeat(row+",", n), ",")
}

// categoryMask sets bit i for each category index i.
func categoryMask(cats []int) uint64 {
	var m uint64
	for _, c := range cats {
		m |= 1 << c
	}
	return m
}
