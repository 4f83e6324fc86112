package store

import "context"

// bm25 ranks full-text matches. The column weights (name, description,
// categories, city) make a word in the name count most, then in the
// categories, the city and the description. It is called explicitly rather
// than through FTS5's configurable rank column, which measured slower.
const bm25 = `bm25(companies_fts, 10.0, 1.0, 4.0, 2.0)`

// topRanked returns the numbers of the n matches of from (a FROM … WHERE
// clause with a MATCH) that follow the best offset, best first, ties broken
// by number.
//
// bm25 must score every match before the best are known, so ranking costs
// time in proportion to how common the words are (about 1.2µs a match here).
// Splitting the rowid range across connections was tried and gained nothing:
// modernc's SQLite serialises on its allocator, so queries do not run in
// parallel.
func (s *Store) topRanked(ctx context.Context, from string, args []any, n int, offset int64) ([]int, error) {
	return s.queryNums(ctx, `SELECT f.rowid`+from+` ORDER BY `+bm25+`, f.rowid LIMIT ? OFFSET ?`,
		append(append([]any{}, args...), n, offset)...)
}
