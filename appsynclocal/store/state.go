package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strconv"
)

// stateVersion is the state database's layout. Unlike the companies database
// it holds user data, so a mismatch is an error, never a rebuild.
const stateVersion = 1

const stateDDL = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS collections (
	seq         INTEGER PRIMARY KEY AUTOINCREMENT, -- creation order, breaks ties of created_ms
	id          TEXT NOT NULL UNIQUE,
	owner       TEXT NOT NULL,
	name        TEXT NOT NULL,
	description TEXT,
	item_count  INTEGER NOT NULL DEFAULT 0,
	created_ms  INTEGER NOT NULL,
	updated_ms  INTEGER NOT NULL,
	UNIQUE (owner, name COLLATE NOCASE) -- createCollection is idempotent by name
);
CREATE INDEX IF NOT EXISTS collections_newest ON collections (owner, created_ms DESC, seq DESC);
CREATE TABLE IF NOT EXISTS collection_items (
	collection INTEGER NOT NULL REFERENCES collections (seq),
	company    TEXT NOT NULL,
	position   INTEGER NOT NULL, -- order added, from 0
	added_ms   INTEGER NOT NULL,
	PRIMARY KEY (collection, company)
) WITHOUT ROWID;
CREATE UNIQUE INDEX IF NOT EXISTS collection_items_order ON collection_items (collection, position);
CREATE TABLE IF NOT EXISTS jobs (
	seq          INTEGER PRIMARY KEY AUTOINCREMENT, -- also seeds the job's contacts
	id           TEXT NOT NULL UNIQUE,
	owner        TEXT NOT NULL,
	company      TEXT NOT NULL,
	roles        TEXT NOT NULL, -- JSON array
	status       TEXT NOT NULL,
	requested_ms INTEGER NOT NULL,
	due_ms       INTEGER NOT NULL,
	completed_ms INTEGER
);
CREATE INDEX IF NOT EXISTS jobs_pending ON jobs (status, due_ms);
CREATE TABLE IF NOT EXISTS contacts (
	job           INTEGER NOT NULL REFERENCES jobs (seq),
	ordinal       INTEGER NOT NULL, -- order found within the job
	company       TEXT NOT NULL,
	email         TEXT NOT NULL,
	role          TEXT NOT NULL,
	confidence    REAL NOT NULL,
	discovered_ms INTEGER NOT NULL,
	PRIMARY KEY (job, ordinal)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS contacts_company ON contacts (company, email, job);
`

// openState opens (creating if needed) the state database at path. WAL lets
// reads go on while a write commits; _txlock=immediate takes the write lock
// at BEGIN, so two writers queue on busy_timeout instead of deadlocking.
func openState(ctx context.Context, path string) (*sql.DB, error) {
	db, err := openDB(ctx, path, url.Values{"_txlock": {"immediate"}},
		"journal_mode(WAL)", "synchronous(NORMAL)", "busy_timeout(10000)", "foreign_keys(ON)")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(4)
	if err := migrateState(ctx, db); err != nil {
		db.Close()
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	return db, nil
}

func migrateState(ctx context.Context, db *sql.DB) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, stateDDL); err != nil {
		return fmt.Errorf("creating tables: %w", err)
	}
	var v string
	err = tx.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'schema'`).Scan(&v)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		if _, err := tx.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES ('schema', ?)`, strconv.Itoa(stateVersion)); err != nil {
			return err
		}
	case err != nil:
		return err
	case v != strconv.Itoa(stateVersion):
		return fmt.Errorf("state database has layout version %s; this build reads version %d (move the file aside to start afresh)", v, stateVersion)
	}
	return tx.Commit()
}
