package store

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// maxTerms bounds the words of one keyword search.
const maxTerms = 32

// SearchQuery is one page of a company search.
type SearchQuery struct {
	// Keyword is free text; its words are matched against name, description,
	// categories and city. Empty lists companies by id.
	Keyword string
	// AnyWord matches companies having any of the words instead of all.
	AnyWord bool
	// Facets restrict by country and category.
	Facets Facets
	// Exclude leaves out every company in any of its countries or
	// categories.
	Exclude Facets
	// MinEmployees and MaxEmployees bound the head count; 0 means no bound.
	MinEmployees, MaxEmployees int
	// FoundedFrom and FoundedTo bound the founding year; 0 means no bound.
	FoundedFrom, FoundedTo int
	// Sort orders the matches; the zero value is by relevance.
	Sort Sort
	// ExactCount counts every match instead of stopping at MaxCounted.
	ExactCount bool
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
	// Total counts every match, not just this page, up to MaxCounted.
	Total int
	// TotalIsLowerBound says counting stopped at MaxCounted: at least Total
	// companies match, possibly many more. Total is then MaxCounted.
	TotalIsLowerBound bool
}

// MaxCounted is how far a search counts its matches. Counting is the one
// part of a search whose cost grows with the number of matches: at 1,000,000
// companies "software" matches 306,617, 117,685 of them in the United States,
// and counting those took longer than ranking them had (~300 ms); counting
// 10,000 matches of a two-word query with two countries took ~25 ms on the
// shared 2-core machine, 1,000 took under 1 ms. Past this many, Total says
// "at least" (TotalIsLowerBound) instead. Filter-only searches without
// employee or founding bounds are always counted exactly, from facet_combos.
const MaxCounted = 1000

// Sort is an order of search results other than relevance. Each breaks ties
// by id, so that an order is total and pages neither repeat nor skip.
type Sort string

// The orders Search knows; "" is by relevance.
const (
	SortRelevance     Sort = ""
	SortEmployeesDesc Sort = "employees_desc"
	SortEmployeesAsc  Sort = "employees_asc"
	SortFoundedDesc   Sort = "founded_desc"
	SortFoundedAsc    Sort = "founded_asc"
	SortNameAsc       Sort = "name_asc"
)

// sortSQL is each order's ORDER BY on facts alias c; the name is looked up
// in companies, which facts does not carry.
var sortSQL = map[Sort]string{
	SortEmployeesDesc: `c.employees DESC, c.num`,
	SortEmployeesAsc:  `c.employees, c.num`,
	SortFoundedDesc:   `c.founded DESC, c.num`,
	SortFoundedAsc:    `c.founded, c.num`,
	SortNameAsc:       `(SELECT name FROM companies WHERE num = c.num), c.num`,
}

// Terms splits a keyword into the lower-case words search matches: runs of
// letters and digits. Everything else separates words, which also keeps FTS5
// query syntax out of user input.
func Terms(keyword string) []string {
	words := words(keyword)
	if len(words) > maxTerms {
		words = words[:maxTerms]
	}
	return words
}

// Search returns one page of companies matching q.
//
// Results come in this order, and pages follow it:
//
//   - With a keyword, by relevance tier, then by id. The tier is where the
//     words were found: all of them in the name; else each in the name or
//     the categories; else also the city; else anywhere, the description too
//     (with AnyWord: any of them, likewise). This keeps the order the bm25
//     column weights gave (a name match first, a description mention last),
//     without scoring every match: each tier is a set the full-text index
//     lists in id order, so a page reads about as many index entries as it
//     returns, whether 50 companies match or 300,000. bm25 must score every
//     match before it knows the best one (400 ms for "software" in the
//     United States at 1,000,000 companies); its finer distinctions (how
//     often a word occurs, how long the text is) mean little in generated
//     profiles.
//   - Without a keyword, by id.
//
// Ids are the data set's own stable order and carry no meaning, so within a
// tier the order favours no company. Page tokens are keysets (tier and last
// id), so each match is visited once and deep pages cost what the first does.
func (s *Store) Search(ctx context.Context, q SearchQuery) (*CompanyPage, error) {
	if q.Limit < 1 {
		return nil, invalidf("limit must be at least 1")
	}
	terms := Terms(q.Keyword)
	if strings.TrimSpace(q.Keyword) != "" && len(terms) == 0 {
		return nil, invalidf("keyword %q has no searchable words", q.Keyword)
	}
	if _, ok := sortSQL[q.Sort]; q.Sort != SortRelevance && !ok {
		return nil, invalidf("sort %q is not an order this search knows", q.Sort)
	}
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
	switch {
	case q.Sort != SortRelevance:
		page, nums, err = s.searchSorted(ctx, terms, q, pos, scope)
	case len(terms) > 0:
		page, nums, err = s.searchText(ctx, terms, q, pos, scope)
	default:
		page, nums, err = s.listFacts(ctx, q, pos, scope)
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

// listFacts lists matching companies in id order; pages are keysets (the
// next company number), so deep pages cost no more than the first.
func (s *Store) listFacts(ctx context.Context, q SearchQuery, after int64, scope string) (*CompanyPage, []int, error) {
	where, args := factsSQL(q)
	page := &CompanyPage{}
	var err error
	if err = s.countList(ctx, q, where, args, page); err != nil {
		return nil, nil, fmt.Errorf("list count: %w", err)
	}
	if page.Total == 0 {
		return page, nil, nil
	}
	// Walking facts in id order finds a page after about limit×N/total rows;
	// an index on the filter columns instead collects every match in the
	// chosen countries and sorts them. Walk when the walk is short (common
	// matches), let SQLite use the index when it is not (rare ones). A total
	// that is a lower bound only makes the walk shorter than estimated.
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

// countList counts the companies a list query matches into page. Facet-only
// queries are answered exactly from facet_combos; size and age bounds need
// facts, counted up to MaxCounted.
func (s *Store) countList(ctx context.Context, q SearchQuery, where string, args []any, page *CompanyPage) error {
	if !hasRanges(q) && !q.ExactCount {
		return s.companies.QueryRowContext(ctx,
			`SELECT coalesce(sum(count), 0) FROM facet_combos c WHERE 1`+where, args...).Scan(&page.Total)
	}
	return s.countCapped(ctx, `SELECT 1 FROM facts c WHERE 1`+where, args, q.ExactCount, page)
}

// countCapped counts the rows of query, stopping after s.maxCounted unless
// exact is set. An exact count is bounded by the data set: every company is
// counted at most once (about 300 ms for 300,000 matches at 1,000,000
// companies), which is why it is asked for, not the default.
func (s *Store) countCapped(ctx context.Context, query string, args []any, exact bool, page *CompanyPage) error {
	if exact {
		err := s.companies.QueryRowContext(ctx, `SELECT count(*) FROM (`+query+`)`, args...).Scan(&page.Total)
		return err
	}
	var n int
	err := s.companies.QueryRowContext(ctx, `SELECT count(*) FROM (`+query+` LIMIT ?)`,
		append(append([]any{}, args...), s.maxCounted+1)...).Scan(&n)
	page.Total, page.TotalIsLowerBound = min(n, s.maxCounted), n > s.maxCounted
	return err
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

// factsSQL renders q's restrictions as " AND …" conditions on alias c:
// facts, or facet_combos for the country and category conditions.
func factsSQL(q SearchQuery) (string, []any) {
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
	excl, eargs := excludeSQL(q.Exclude)
	ranges, rargs := rangeSQL(q)
	return b.String() + excl + ranges, append(append(args, eargs...), rargs...)
}

// excludeSQL renders exclusions as " AND …" conditions on alias c, which
// may be facts or facet_combos: both have the country and the category
// mask, so a filter-only count stays exact and cheap with exclusions.
func excludeSQL(f Facets) (string, []any) {
	var (
		b    strings.Builder
		args []any
	)
	if len(f.Countries) > 0 {
		b.WriteString(` AND c.country NOT IN (` + placeholders(len(f.Countries)) + `)`)
		for _, c := range f.Countries {
			args = append(args, c)
		}
	}
	if len(f.Categories) > 0 {
		b.WriteString(` AND (c.cat_mask & ?) = 0`)
		args = append(args, categoryMask(f.Categories))
	}
	return b.String(), args
}

// rangeSQL renders q's employee and founding bounds as " AND …" conditions
// on facts alias c.
func rangeSQL(q SearchQuery) (string, []any) {
	var (
		b    strings.Builder
		args []any
	)
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

// hasRanges reports whether q bounds the head count or the founding year.
func hasRanges(q SearchQuery) bool {
	return q.MinEmployees != 0 || q.MaxEmployees != 0 || q.FoundedFrom != 0 || q.FoundedTo != 0
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
	fmt.Fprintf(&b, "\x00%d-%d\x00%d-%d\x00%s\x00%s", q.MinEmployees, q.MaxEmployees, q.FoundedFrom, q.FoundedTo,
		strings.Join(q.Exclude.Strings(), ","), q.Sort)
	return b.String()
}
