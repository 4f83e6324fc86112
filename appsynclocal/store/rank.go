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
	ranges, rargs := rangeSQL(q)
	from := ` FROM companies_fts f WHERE companies_fts MATCH ?`
	if ranges != "" {
		// CROSS JOIN keeps the FTS index as the outer loop, in rowid order.
		from = ` FROM companies_fts f CROSS JOIN facts c ON c.num = f.rowid WHERE companies_fts MATCH ?` + ranges
	}
	args := func(match string, more ...any) []any {
		return append(append([]any{match}, rargs...), more...)
	}
	facets := ftsFacets(q.Facets)

	page := &CompanyPage{}
	all := wordsIn(terms, q.AnyWord, len(tierMarks)-1) + facets
	if err := s.countCapped(ctx, `SELECT 1`+from, args(all), page); err != nil {
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
