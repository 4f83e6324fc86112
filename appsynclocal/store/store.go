// Package store keeps the embedded backend's data in SQLite (modernc.org/sqlite,
// so the binary stays cgo-free).
//
// Two files live in the data directory:
//
//   - companies-<N>-<seed>.db: the generated companies, an inverted index
//     of their words (postings) and their filter and order columns.
//     It is built once, then opened read-only and reused by later starts;
//     a meta table records what it holds so a stale file is rebuilt.
//   - state-<N>-<seed>.db: what users change (collections, email-discovery
//     jobs, contacts). It belongs to one data set because it refers to its
//     company ids.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/companyintel/mcp-server/appsynclocal/dataset"
)

// Options says which data set to open and how the store behaves.
type Options struct {
	// Dir holds the database files. It is created if missing.
	Dir string
	// Companies is the data-set size.
	Companies int
	// Seed selects the data set.
	Seed int64
	// JobDelay is how long an email-discovery job stays PENDING; 0 completes
	// jobs as they are created.
	JobDelay time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Logger receives build progress; nil discards it.
	Logger *slog.Logger
}

// Store answers the backend's queries and mutations.
type Store struct {
	gen       *dataset.Generator
	companies *sql.DB // read-only once built
	state     *sql.DB
	tokens    tokenCodec
	// index is what searches plan with (columns, lists, orders).
	index *memIndex
	// postingsCache keeps recently read postings lists, decoded.
	postingsCache *lru.Cache[string, *postingList]
	// maxCounted is MaxCounted, lowered by tests.
	maxCounted int
	// walkFactor forces a sorted search's plan in tests (see queryPlan).
	walkFactor int
	jobDelay   time.Duration
	now        func() time.Time
	log        *slog.Logger
}

// ErrNotFound means the thing asked for does not exist, or belongs to someone
// else (the two are deliberately indistinguishable).
var ErrNotFound = errors.New("not found")

// InvalidError is a request the store refuses: a bad filter, limit or token.
// Its message is written for the caller.
type InvalidError struct{ Msg string }

// Error returns the message for the caller.
func (e *InvalidError) Error() string { return e.Msg }

// invalidf returns an *InvalidError.
func invalidf(format string, args ...any) error {
	return &InvalidError{Msg: fmt.Sprintf(format, args...)}
}

// Open opens the data set described by o, building its companies database
// first if no usable one is in o.Dir.
func Open(ctx context.Context, o Options) (*Store, error) {
	gen, err := dataset.New(o.Seed, o.Companies)
	if err != nil {
		return nil, err
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating data dir: %w", err)
	}
	name := fmt.Sprintf("%d-%d.db", o.Companies, o.Seed)
	companies, err := openCompanies(ctx, filepath.Join(o.Dir, "companies-"+name), gen, o.Seed, o.Logger)
	if err != nil {
		return nil, err
	}
	index, err := loadIndex(ctx, companies, gen.Len())
	if err != nil {
		companies.Close()
		return nil, fmt.Errorf("loading the search index: %w", err)
	}
	cache, err := lru.New[string, *postingList](postingsCacheSize)
	if err != nil {
		companies.Close()
		return nil, err
	}
	state, err := openState(ctx, filepath.Join(o.Dir, "state-"+name))
	if err != nil {
		companies.Close()
		return nil, err
	}
	return &Store{
		gen:           gen,
		companies:     companies,
		state:         state,
		tokens:        newTokenCodec(o.Seed, o.Companies),
		index:         index,
		postingsCache: cache,
		maxCounted:    MaxCounted,
		jobDelay:      o.JobDelay,
		now:           o.Now,
		log:           o.Logger,
	}, nil
}

// Close closes both databases.
func (s *Store) Close() error {
	return errors.Join(s.companies.Close(), s.state.Close())
}

// Len returns the number of companies in the data set.
func (s *Store) Len() int { return s.gen.Len() }

// postingsCacheSize is how many decoded postings lists the store keeps: at
// a million companies a common word's list is a 125 KB bitmap, a rare
// word's a few KB.
const postingsCacheSize = 256

// postings returns the companies having the index word term (none if no
// company has it).
func (s *Store) postings(ctx context.Context, term string) (*postingList, error) {
	if l, ok := s.postingsCache.Get(term); ok {
		return l, nil
	}
	var (
		count int
		data  []byte
	)
	err := s.companies.QueryRowContext(ctx, `SELECT count, list FROM postings WHERE term = ?`, term).Scan(&count, &data)
	if errors.Is(err, sql.ErrNoRows) {
		l := &postingList{}
		s.postingsCache.Add(term, l)
		return l, nil
	}
	if err != nil {
		return nil, err
	}
	l, err := decodePostings(data, count, s.gen.Len())
	if err != nil {
		return nil, fmt.Errorf("postings of %q: %w", term, err)
	}
	s.postingsCache.Add(term, l)
	return l, nil
}
