package store

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// openDB opens path with the given SQLite pragmas, each applied to every
// connection the pool makes.
func openDB(ctx context.Context, path string, query url.Values, pragmas ...string) (*sql.DB, error) {
	if query == nil {
		query = url.Values{}
	}
	for _, p := range pragmas {
		query.Add("_pragma", p)
	}
	dsn := (&url.URL{Scheme: "file", OmitHost: true, Path: path, RawQuery: query.Encode()}).String()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	return db, nil
}
