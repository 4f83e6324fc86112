package store

import (
	"context"
	"fmt"
	"strings"
)

// tierMarks are the relevance tiers of a keyword search, best first: the
// fields in which every word (or, with AnyWord, some word) must be found,
// as the marks of those fields' words in the index (ftsWords). Each tier's
// fields include the previous tier's, and the last tier is the plain words,
// found anywhere, the description too; a company belongs to the first tier
// it matches. The order follows the weights bm25 was given before (name 10,
// categories 4, city 2, description 1).
var tierMarks = [][]string{
	{markName},
	{markName, markCategory},
	{markName, markCategory, markCity},
	{""},
}

// tierShift places the tier above the company number in a page position.
const tierShift = 32

// searchText returns one page of keyword matches, in relevance tier and then
// id order (see Search), starting after pos: the tier in its high bits and
// one more than the last company number returned in its low bits.
//
// Each tier is one FTS5 query, `ORDER BY rowid LIMIT n`, which FTS5 answers
// by walking the matching index entries in rowid order and stopping after n:
// no match beyond the page is read, let alone scored. Countries and
// categories are words of the facets column, intersected by FTS5 itself;
// employee and founding bounds, which only aiSearch sets, are checked
// against facts row by row.
func (s *Store) searchText(ctx context.Context, terms []string, q SearchQuery, pos int64, scope string) (*CompanyPage, []int, error) {
	from, args := textFrom(q)
	facets := ftsFacets(q.Facets)

	page := &CompanyPage{}
	all := wordsIn(terms, q.AnyWord, len(tierMarks)-1) + facets
	if err := s.countCapped(ctx, `SELECT 1`+from, args(all), q.ExactCount, page); err != nil {
		return nil, nil, fmt.Errorf("search count: %w", err)
	}

	type hit struct {
		tier int64
		num  int
	}
	var hits []hit
	tier, after := pos>>tierShift, pos&(1<<tierShift-1)-1
	for ; tier < int64(len(tierMarks)) && len(hits) <= q.Limit; tier, after = tier+1, -1 {
		nums, err := s.queryNums(ctx, `SELECT f.rowid`+from+` AND f.rowid > ? ORDER BY f.rowid LIMIT ?`,
			args(tierMatch(terms, q.AnyWord, int(tier))+facets, after, q.Limit+1-len(hits))...)
		if err != nil {
			return nil, nil, fmt.Errorf("search: %w", err)
		}
		for _, n := range nums {
			hits = append(hits, hit{tier, n})
		}
	}
	if len(hits) > q.Limit {
		last := hits[q.Limit-1]
		page.NextToken = s.tokens.encode(scope, last.tier<<tierShift|int64(last.num+1))
		hits = hits[:q.Limit]
	}
	nums := make([]int, len(hits))
	for i, h := range hits {
		nums[i] = h.num
	}
	return page, nums, nil
}

// textFrom is the FROM and WHERE of a keyword search, apart from its FTS5
// match, and a function giving its arguments for a match and what follows.
// Exclusions and bounds are checked against facts row by row; CROSS JOIN
// keeps the FTS index as the outer loop, in rowid order.
func textFrom(q SearchQuery) (string, func(match string, more ...any) []any) {
	excl, eargs := excludeSQL(q.Exclude)
	ranges, rargs := rangeSQL(q)
	from := ` FROM companies_fts f WHERE companies_fts MATCH ?`
	if excl+ranges != "" {
		from = ` FROM companies_fts f CROSS JOIN facts c ON c.num = f.rowid WHERE companies_fts MATCH ?` + excl + ranges
	}
	return from, func(match string, more ...any) []any {
		return append(append(append([]any{match}, eargs...), rargs...), more...)
	}
}

// searchSorted returns one page of matches in q.Sort's order, starting at
// offset pos. Every match is sorted to find a page, so a page costs as much
// as the matches are many (a few ms for 10,000 at 1,000,000 companies, up
// to about half a second for the largest country); pages are offsets, not
// keysets, which a name order could not carry in a position.
func (s *Store) searchSorted(ctx context.Context, terms []string, q SearchQuery, pos int64, scope string) (*CompanyPage, []int, error) {
	page := &CompanyPage{}
	var (
		from string
		args []any
	)
	if len(terms) > 0 {
		// The tiers only order; their union is the last tier's match.
		f, a := textFrom(q)
		match := wordsIn(terms, q.AnyWord, len(tierMarks)-1) + ftsFacets(q.Facets)
		if err := s.countCapped(ctx, `SELECT 1`+f, a(match), q.ExactCount, page); err != nil {
			return nil, nil, fmt.Errorf("search count: %w", err)
		}
		if !strings.Contains(f, "facts c") {
			f = ` FROM companies_fts f CROSS JOIN facts c ON c.num = f.rowid WHERE companies_fts MATCH ?`
		}
		from, args = f, a(match)
	} else {
		where, wargs := factsSQL(q)
		if err := s.countList(ctx, q, where, wargs, page); err != nil {
			return nil, nil, fmt.Errorf("list count: %w", err)
		}
		from, args = ` FROM facts c WHERE 1`+where, wargs
	}
	if page.Total == 0 {
		return page, nil, nil
	}
	nums, err := s.queryNums(ctx, `SELECT c.num`+from+` ORDER BY `+sortSQL[q.Sort]+` LIMIT ? OFFSET ?`,
		append(args, q.Limit+1, pos)...)
	if err != nil {
		return nil, nil, fmt.Errorf("sorted search: %w", err)
	}
	if len(nums) > q.Limit {
		page.NextToken = s.tokens.encode(scope, pos+int64(q.Limit))
		nums = nums[:q.Limit]
	}
	return page, nums, nil
}

// tierMatch is the FTS5 query for the companies in one relevance tier:
// found by the tier's fields and not by the previous tier's. Earlier tiers
// are also intersected with the last: stemming a marked word could in
// principle differ from stemming the word, and the tiers must divide the
// matches exactly, so that paging visits each once.
func tierMatch(terms []string, anyWord bool, tier int) string {
	last := len(tierMarks) - 1
	m := wordsIn(terms, anyWord, tier)
	if tier < last {
		m = `(` + m + ` AND ` + wordsIn(terms, anyWord, last) + `)`
	}
	if tier > 0 {
		m = `(` + m + ` NOT ` + wordsIn(terms, anyWord, tier-1) + `)`
	}
	return m
}

// wordsIn is the FTS5 query for the companies whose tier is at most tier:
// all terms (or any) found in one of tierMarks[tier]'s fields. Each word is
// quoted, so it is taken as a word and never as FTS5 syntax.
func wordsIn(terms []string, anyWord bool, tier int) string {
	each := make([]string, len(terms))
	for i, t := range terms {
		alts := make([]string, len(tierMarks[tier]))
		for j, mark := range tierMarks[tier] {
			alts[j] = `"` + mark + t + `"`
		}
		each[i] = `(` + strings.Join(alts, " OR ") + `)`
	}
	sep := " AND "
	if anyWord {
		sep = " OR "
	}
	return `(` + strings.Join(each, sep) + `)`
}
