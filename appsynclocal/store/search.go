package store

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// maxTerms bounds the words of one keyword search.
const maxTerms = 32

// SearchQuery is one page of a company search.
type SearchQuery struct {
	// Keyword is free text; its words are matched against name, description,
	// categories and city, and results are ranked by bm25. Empty lists
	// companies in id order.
	Keyword string
	// AnyWord matches companies having any of the words instead of all.
	AnyWord bool
	// Facets restrict by country and category.
	Facets Facets
	// MinEmployees and MaxEmployees bound the head count; 0 means no bound.
	MinEmployees, MaxEmployees int
	// FoundedFrom and FoundedTo bound the founding year; 0 means no bound.
	FoundedFrom, FoundedTo int
	// Limit is the page size, already checked with a Limit.
	Limit int
	// NextToken continues a previous page of the same query.
	NextToken string
}

// CompanyPage is one page of search results.
type CompanyPage struct {
	Items []Company
	// NextToken fetches the next page; "" on the last page.
	NextToken string
	// Total counts every match, not just this page.
	Total int
}

// Terms splits a keyword into the lower-case words search matches: runs of
// letters and digits. Everything else separates words, which also keeps FTS5
// query syntax out of user input.
func Terms(keyword string) []string {
	words := strings.FieldsFunc(strings.ToLower(keyword), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	if len(words) > maxTerms {
		words = words[:maxTerms]
	}
	return words
}

// Search returns one page of companies matching q.
func (s *Store) Search(ctx context.Context, q SearchQuery) (*CompanyPage, error) {
	if q.Limit < 1 {
		return nil, invalidf("limit must be at least 1")
	}
	terms := Terms(q.Keyword)
	if strings.TrimSpace(q.Keyword) != "" && len(terms) == 0 {
		return nil, invalidf("keyword %q has no searchable words", q.Keyword)
	}
	where, args := filterSQL(q)
	scope := searchScope(terms, q)
	var pos int64
	if q.NextToken != "" {
		var err error
		if pos, err = s.tokens.decode(q.NextToken, scope); err != nil {
			return nil, err
		}
	}

	var (
		page *CompanyPage
		nums []int
		err  error
	)
	if len(terms) > 0 {
		page, nums, err = s.rankText(ctx, ftsQuery(terms, q.AnyWord), where, args, q.Limit, pos, scope)
	} else {
		page, nums, err = s.listFacts(ctx, q, where, args, pos, scope)
	}
	if err != nil {
		return nil, err
	}
	byNum, err := s.companiesByNum(ctx, nums)
	if err != nil {
		return nil, err
	}
	page.Items = make([]Company, 0, len(nums))
	for _, n := range nums {
		if c := byNum[n]; c != nil {
			page.Items = append(page.Items, *c)
		}
	}
	return page, nil
}

// rankText ranks full-text matches by bm25 and returns one page of company
// numbers; pages are offsets.
func (s *Store) rankText(ctx context.Context, match, where string, args []any, limit int, offset int64, scope string) (*CompanyPage, []int, error) {
	from := ` FROM companies_fts f WHERE companies_fts MATCH ?`
	if where != "" {
		// CROSS JOIN keeps the FTS index as the outer loop: SQLite must not
		// drive from a facts index and re-run MATCH for every row.
		from = ` FROM companies_fts f CROSS JOIN facts c ON c.num = f.rowid WHERE companies_fts MATCH ?` + where
	}
	qargs := append([]any{match}, args...)

	page := &CompanyPage{}
	if err := s.companies.QueryRowContext(ctx, `SELECT count(*)`+from, qargs...).Scan(&page.Total); err != nil {
		return nil, nil, fmt.Errorf("search count: %w", err)
	}
	if offset >= int64(page.Total) {
		return page, nil, nil
	}
	nums, err := s.topRanked(ctx, from, qargs, limit+1, offset)
	if err != nil {
		return nil, nil, fmt.Errorf("search: %w", err)
	}
	if len(nums) > limit {
		nums = nums[:limit]
		page.NextToken = s.tokens.encode(scope, offset+int64(limit))
	}
	return page, nums, nil
}

// listFacts lists matching companies in id order; pages are keysets (the
// next company number), so deep pages cost no more than the first.
func (s *Store) listFacts(ctx context.Context, q SearchQuery, where string, args []any, after int64, scope string) (*CompanyPage, []int, error) {
	page := &CompanyPage{}
	var err error
	if page.Total, err = s.countList(ctx, q, where, args); err != nil {
		return nil, nil, fmt.Errorf("list count: %w", err)
	}
	if page.Total == 0 {
		return page, nil, nil
	}
	// Walking facts in id order finds a page after about limit×N/total rows;
	// an index on the filter columns instead collects every match in the
	// chosen countries and sorts them. Walk when the walk is short (common
	// matches), let SQLite use the index when it is not (rare ones).
	table := `facts c`
	if int64(q.Limit+1)*int64(s.gen.Len())/int64(page.Total) <= maxWalk {
		table = `facts c NOT INDEXED`
	}
	nums, err := s.queryNums(ctx, `SELECT c.num FROM `+table+` WHERE c.num >= ?`+where+` ORDER BY c.num LIMIT ?`,
		append(append([]any{after}, args...), q.Limit+1)...)
	if err != nil {
		return nil, nil, fmt.Errorf("list: %w", err)
	}
	if len(nums) > q.Limit {
		page.NextToken = s.tokens.encode(scope, int64(nums[q.Limit]))
		nums = nums[:q.Limit]
	}
	return page, nums, nil
}

// maxWalk is the most facts rows a list query walks in id order before an
// index becomes the better plan (about 5 ms of scanning).
const maxWalk = 50_000

// countList counts the companies a list query matches. Facet-only queries
// are answered from facet_combos; size and age bounds need facts.
func (s *Store) countList(ctx context.Context, q SearchQuery, where string, args []any) (int, error) {
	var n int
	if q.MinEmployees == 0 && q.MaxEmployees == 0 && q.FoundedFrom == 0 && q.FoundedTo == 0 {
		err := s.companies.QueryRowContext(ctx,
			`SELECT coalesce(sum(count), 0) FROM facet_combos c WHERE 1`+where, args...).Scan(&n)
		return n, err
	}
	err := s.companies.QueryRowContext(ctx, `SELECT count(*) FROM facts c WHERE 1`+where, args...).Scan(&n)
	return n, err
}

// queryNums runs a query returning one integer column.
func (s *Store) queryNums(ctx context.Context, query string, args ...any) ([]int, error) {
	rows, err := s.companies.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var nums []int
	for rows.Next() {
		var n int
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		nums = append(nums, n)
	}
	return nums, rows.Err()
}

// filterSQL renders q's restrictions as " AND …" conditions on alias c: facts,
// or facet_combos for the country and category conditions.
func filterSQL(q SearchQuery) (string, []any) {
	var (
		b    strings.Builder
		args []any
	)
	if len(q.Facets.Countries) > 0 {
		b.WriteString(` AND c.country IN (` + placeholders(len(q.Facets.Countries)) + `)`)
		for _, c := range q.Facets.Countries {
			args = append(args, c)
		}
	}
	if len(q.Facets.Categories) > 0 {
		b.WriteString(` AND (c.cat_mask & ?) != 0`)
		args = append(args, categoryMask(q.Facets.Categories))
	}
	for _, bound := range []struct {
		sql string
		v   int
	}{
		{` AND c.employees >= ?`, q.MinEmployees},
		{` AND c.employees <= ?`, q.MaxEmployees},
		{` AND c.founded >= ?`, q.FoundedFrom},
		{` AND c.founded <= ?`, q.FoundedTo},
	} {
		if bound.v != 0 {
			b.WriteString(bound.sql)
			args = append(args, bound.v)
		}
	}
	return b.String(), args
}

// ftsQuery quotes each term, so it is taken as a word and never as FTS5
// syntax, and joins them with AND (implicit) or OR.
func ftsQuery(terms []string, any bool) string {
	quoted := make([]string, len(terms))
	for i, t := range terms {
		quoted[i] = `"` + t + `"`
	}
	if any {
		return strings.Join(quoted, " OR ")
	}
	return strings.Join(quoted, " ")
}

// searchScope identifies a query for its page tokens.
func searchScope(terms []string, q SearchQuery) string {
	var b strings.Builder
	b.WriteString("search\x00")
	b.WriteString(strings.Join(terms, " "))
	fmt.Fprintf(&b, "\x00%t\x00%s\x00", q.AnyWord, strings.Join(q.Facets.Countries, ","))
	for _, k := range q.Facets.Categories {
		b.WriteString(strconv.Itoa(k) + ",")
	}
	fmt.Fprintf(&b, "\x00%d-%d\x00%d-%d", q.MinEmployees, q.MaxEmployees, q.FoundedFrom, q.FoundedTo)
	return b.String()
}
