package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Bounds on what a user may store.
const (
	maxCollectionName        = 100
	maxCollectionDescription = 1000
	// MaxAddIDs is how many company ids one AddToCollection or
	// RemoveFromCollection accepts.
	MaxAddIDs = 50
)

// Collection is a named set of companies owned by one user.
type Collection struct {
	ID          string
	Name        string
	Description *string
	ItemCount   int
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// CollectionPage is one page of a user's collections, newest first.
type CollectionPage struct {
	Items     []Collection
	NextToken string
	Total     int
}

// CollectionItem is a company in a collection.
type CollectionItem struct {
	Company Company
	AddedAt time.Time
}

// ItemPage is one page of a collection's companies, in the order added.
type ItemPage struct {
	Collection Collection
	Items      []CollectionItem
	NextToken  string
	Total      int
}

// AddResult says what AddToCollection did with each id: every id asked for is
// in exactly one list, in the order asked. An id repeated in one request is
// added once and then reported as already present.
type AddResult struct {
	Collection     Collection
	Added          []string
	AlreadyPresent []string
	NotFound       []string
}

// RemoveResult says what RemoveFromCollection did with each id: every id
// asked for is in exactly one list, in the order asked. An id repeated in one
// request is removed once and then reported as not present.
type RemoveResult struct {
	Collection Collection
	Removed    []string
	NotPresent []string
}

const collectionColumns = `id, name, description, item_count, created_ms, updated_ms`

// CreateCollection creates owner's collection called name, or returns the
// existing one of that name (compared case-insensitively) with created false.
func (s *Store) CreateCollection(ctx context.Context, owner, name string, description *string) (*Collection, bool, error) {
	name = strings.TrimSpace(name)
	switch {
	case owner == "":
		return nil, false, errNoOwner
	case name == "":
		return nil, false, invalidf("name must not be empty")
	case utf8.RuneCountInString(name) > maxCollectionName:
		return nil, false, invalidf("name has %d characters; at most %d are allowed", utf8.RuneCountInString(name), maxCollectionName)
	case description != nil && utf8.RuneCountInString(*description) > maxCollectionDescription:
		return nil, false, invalidf("description has %d characters; at most %d are allowed", utf8.RuneCountInString(*description), maxCollectionDescription)
	}
	tx, err := s.state.BeginTx(ctx, nil)
	if err != nil {
		return nil, false, err
	}
	defer tx.Rollback()
	now := s.now().UnixMilli()
	res, err := tx.ExecContext(ctx, `
		INSERT INTO collections (id, owner, name, description, created_ms, updated_ms)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (owner, name COLLATE NOCASE) DO NOTHING`,
		newID("col_"), owner, name, description, now, now)
	if err != nil {
		return nil, false, fmt.Errorf("create collection: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return nil, false, err
	}
	c, err := scanCollection(tx.QueryRowContext(ctx,
		`SELECT `+collectionColumns+` FROM collections WHERE owner = ? AND name = ? COLLATE NOCASE`, owner, name))
	if err != nil {
		return nil, false, fmt.Errorf("create collection: %w", err)
	}
	return c, n == 1, tx.Commit()
}

// ListCollections returns one page of owner's collections, newest first.
func (s *Store) ListCollections(ctx context.Context, owner string, limit int, token string) (*CollectionPage, error) {
	if owner == "" {
		return nil, errNoOwner
	}
	scope := "collections\x00" + owner
	offset, err := s.decodeToken(token, scope)
	if err != nil {
		return nil, err
	}
	rows, err := s.state.QueryContext(ctx, `
		SELECT `+collectionColumns+` FROM collections WHERE owner = ?
		ORDER BY created_ms DESC, seq DESC LIMIT ? OFFSET ?`, owner, limit+1, offset)
	if err != nil {
		return nil, fmt.Errorf("list collections: %w", err)
	}
	defer rows.Close()
	page := &CollectionPage{Items: []Collection{}}
	for rows.Next() {
		c, err := scanCollection(rows)
		if err != nil {
			return nil, err
		}
		page.Items = append(page.Items, *c)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(page.Items) > limit {
		page.Items = page.Items[:limit]
		page.NextToken = s.tokens.encode(scope, offset+int64(limit))
	}
	err = s.state.QueryRowContext(ctx, `SELECT count(*) FROM collections WHERE owner = ?`, owner).Scan(&page.Total)
	return page, err
}

// AddToCollection adds companies to one of owner's collections. A collection
// that does not exist or belongs to someone else is ErrNotFound.
func (s *Store) AddToCollection(ctx context.Context, owner, collectionID string, companyIDs []string) (*AddResult, error) {
	tx, seq, count, err := s.beginChange(ctx, "add to collection", owner, collectionID, companyIDs)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	// New companies go after the last position taken, not at item_count:
	// a removal leaves a gap, and positions are unique and page the items.
	var next int64
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(position) + 1, 0) FROM collection_items WHERE collection = ?`,
		seq).Scan(&next); err != nil {
		return nil, fmt.Errorf("add to collection: %w", err)
	}
	now := s.now().UnixMilli()
	r := &AddResult{Added: []string{}, AlreadyPresent: []string{}, NotFound: []string{}}
	for _, id := range companyIDs {
		if _, ok := s.gen.Num(id); !ok {
			r.NotFound = append(r.NotFound, id)
			continue
		}
		res, err := tx.ExecContext(ctx, `
			INSERT INTO collection_items (collection, company, position, added_ms) VALUES (?, ?, ?, ?)
			ON CONFLICT (collection, company) DO NOTHING`, seq, id, next, now)
		if err != nil {
			return nil, fmt.Errorf("add to collection: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 1 {
			r.Added = append(r.Added, id)
			count++
			next++
		} else {
			r.AlreadyPresent = append(r.AlreadyPresent, id)
		}
	}
	if len(r.Added) > 0 {
		if _, err := tx.ExecContext(ctx, `UPDATE collections SET item_count = ?, updated_ms = ? WHERE seq = ?`,
			count, now, seq); err != nil {
			return nil, fmt.Errorf("add to collection: %w", err)
		}
	}
	c, err := scanCollection(tx.QueryRowContext(ctx, `SELECT `+collectionColumns+` FROM collections WHERE seq = ?`, seq))
	if err != nil {
		return nil, err
	}
	r.Collection = *c
	return r, tx.Commit()
}

// beginChange checks a change of 1 to MaxAddIDs companies in one of
// owner's collections and opens its transaction, reading the collection's
// last position and its count. A collection that does not exist or belongs
// to someone else is ErrNotFound. The caller rolls tx back (a no-op after
// a commit).
func (s *Store) beginChange(ctx context.Context, op, owner, collectionID string, companyIDs []string) (tx *sql.Tx, seq, count int64, err error) {
	switch {
	case owner == "":
		return nil, 0, 0, errNoOwner
	case len(companyIDs) == 0 || len(companyIDs) > MaxAddIDs:
		return nil, 0, 0, invalidf("companyIds has %d entries; give 1 to %d", len(companyIDs), MaxAddIDs)
	}
	tx, err = s.state.BeginTx(ctx, nil)
	if err != nil {
		return nil, 0, 0, err
	}
	err = tx.QueryRowContext(ctx, `SELECT seq, item_count FROM collections WHERE id = ? AND owner = ?`,
		collectionID, owner).Scan(&seq, &count)
	if errors.Is(err, sql.ErrNoRows) {
		_ = tx.Rollback()
		return nil, 0, 0, ErrNotFound
	}
	if err != nil {
		_ = tx.Rollback()
		return nil, 0, 0, fmt.Errorf("%s: %w", op, err)
	}
	return tx, seq, count, nil
}

// RemoveFromCollection removes companies from one of owner's collections. It
// is idempotent: an id not in the collection (never added, removed before,
// or no company's id at all) is reported as not present, not as an error,
// so a repeated call changes nothing and fails nothing. A collection that
// does not exist or belongs to someone else is ErrNotFound.
func (s *Store) RemoveFromCollection(ctx context.Context, owner, collectionID string, companyIDs []string) (*RemoveResult, error) {
	tx, seq, count, err := s.beginChange(ctx, "remove from collection", owner, collectionID, companyIDs)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	r := &RemoveResult{Removed: []string{}, NotPresent: []string{}}
	for _, id := range companyIDs {
		res, err := tx.ExecContext(ctx, `DELETE FROM collection_items WHERE collection = ? AND company = ?`, seq, id)
		if err != nil {
			return nil, fmt.Errorf("remove from collection: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 1 {
			r.Removed = append(r.Removed, id)
			count--
		} else {
			r.NotPresent = append(r.NotPresent, id)
		}
	}
	if len(r.Removed) > 0 {
		if _, err := tx.ExecContext(ctx, `UPDATE collections SET item_count = ?, updated_ms = ? WHERE seq = ?`,
			count, s.now().UnixMilli(), seq); err != nil {
			return nil, fmt.Errorf("remove from collection: %w", err)
		}
	}
	c, err := scanCollection(tx.QueryRowContext(ctx, `SELECT `+collectionColumns+` FROM collections WHERE seq = ?`, seq))
	if err != nil {
		return nil, err
	}
	r.Collection = *c
	return r, tx.Commit()
}

// CollectionItems returns one page of the companies in one of owner's
// collections, in the order they were added.
func (s *Store) CollectionItems(ctx context.Context, owner, collectionID string, limit int, token string) (*ItemPage, error) {
	if owner == "" {
		return nil, errNoOwner
	}
	var seq int64
	c, err := scanCollection(s.state.QueryRowContext(ctx,
		`SELECT `+collectionColumns+`, seq FROM collections WHERE id = ? AND owner = ?`, collectionID, owner), &seq)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("collection items: %w", err)
	}
	scope := "items\x00" + collectionID
	from, err := s.decodeToken(token, scope)
	if err != nil {
		return nil, err
	}
	rows, err := s.state.QueryContext(ctx, `
		SELECT company, position, added_ms FROM collection_items
		WHERE collection = ? AND position >= ? ORDER BY position LIMIT ?`, seq, from, limit+1)
	if err != nil {
		return nil, fmt.Errorf("collection items: %w", err)
	}
	type entry struct {
		num      int
		position int64
		added    int64
	}
	var entries []entry
	for rows.Next() {
		var (
			id string
			e  entry
		)
		if err := rows.Scan(&id, &e.position, &e.added); err != nil {
			rows.Close()
			return nil, err
		}
		e.num, _ = s.gen.Num(id) // stored ids were checked when added
		entries = append(entries, e)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	page := &ItemPage{Collection: *c, Items: []CollectionItem{}, Total: c.ItemCount}
	if len(entries) > limit {
		page.NextToken = s.tokens.encode(scope, entries[limit].position)
		entries = entries[:limit]
	}
	nums := make([]int, len(entries))
	for i, e := range entries {
		nums[i] = e.num
	}
	companies, err := s.companiesByNum(ctx, nums)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if co := companies[e.num]; co != nil {
			page.Items = append(page.Items, CollectionItem{Company: *co, AddedAt: time.UnixMilli(e.added).UTC()})
		}
	}
	return page, nil
}

// errNoOwner guards the store against a caller that forgot to check identity:
// user data needs a user.
var errNoOwner = errors.New("collections and jobs need a user identity")

// decodeToken decodes an optional page token; "" is the first page.
func (s *Store) decodeToken(token, scope string) (int64, error) {
	if token == "" {
		return 0, nil
	}
	return s.tokens.decode(token, scope)
}

// rowScanner is *sql.Row or *sql.Rows.
type rowScanner interface{ Scan(dest ...any) error }

// scanCollection reads collectionColumns, then any extra columns into extra.
func scanCollection(r rowScanner, extra ...any) (*Collection, error) {
	var (
		c                Collection
		desc             sql.NullString
		created, updated int64
	)
	if err := r.Scan(append([]any{&c.ID, &c.Name, &desc, &c.ItemCount, &created, &updated}, extra...)...); err != nil {
		return nil, err
	}
	if desc.Valid {
		c.Description = &desc.String
	}
	c.CreatedAt = time.UnixMilli(created).UTC()
	c.UpdatedAt = time.UnixMilli(updated).UTC()
	return &c, nil
}
