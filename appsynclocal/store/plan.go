package store

import (
	"context"
	"fmt"
	"math/bits"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Search returns one page of companies matching q.
//
// Results come in this order, and pages follow it:
//
//   - With a sort, by the sort's key, ties by id.
//   - With a keyword, by relevance tier, then by id. The tier is where the
//     words were found: all of them in the name; else each in the name or
//     the categories; else also the city; else anywhere, the description too
//     (with AnyWord: any of them, likewise). This keeps the order bm25's
//     column weights once gave (a name match first, a description mention
//     last) without scoring every match.
//   - Otherwise by id.
//
// How a page is found (plan.go's doc on planning): every query is a
// conjunction of sets (a word's postings, a country's or a category's
// companies, a head-count or founding range) and tests (exclusions). The
// smallest set lists candidates in id order and the others test them, so a
// selective filter keeps a common word's long list from being read, and a
// page stops once it is full. A sorted page either walks the precomputed
// order, testing companies until the page is full (when matches are
// common), or collects every match from the smallest set and keeps the best
// few (when they are rare), whichever the sizes say is shorter; it never
// sorts every match. Page tokens are keysets (tier and id, or a place in the
// order), so deep pages cost what the first does.
func (s *Store) Search(ctx context.Context, q SearchQuery) (*CompanyPage, error) {
	if q.Limit < 1 {
		return nil, invalidf("limit must be at least 1")
	}
	terms := Terms(q.Keyword)
	if strings.TrimSpace(q.Keyword) != "" && len(terms) == 0 {
		return nil, invalidf("keyword %q has no searchable words", q.Keyword)
	}
	o, sorted := sortOrder[q.Sort]
	if q.Sort != SortRelevance && !sorted {
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
	p, err := s.plan(ctx, terms, q)
	if err != nil {
		return nil, err
	}
	var (
		page *CompanyPage
		nums []uint32
		next int64
		more bool
	)
	switch {
	case sorted:
		page, nums, next, more = p.sorted(o, pos)
	case len(terms) > 0:
		page, nums, next, more = p.ranked(pos)
	default:
		page, nums, next, more = p.listed(pos)
	}
	if more {
		page.NextToken = s.tokens.encode(scope, next)
	}
	ints := make([]int, len(nums))
	for i, n := range nums {
		ints[i] = int(n)
	}
	byNum, err := s.companiesByNum(ctx, ints)
	if err != nil {
		return nil, err
	}
	page.Items = make([]Company, 0, len(nums))
	for _, n := range ints {
		if c := byNum[n]; c != nil {
			page.Items = append(page.Items, *c)
		}
	}
	return page, nil
}

// Count returns how many companies match q, as Search's Total and
// TotalIsLowerBound would, without finding or loading any page: what
// aiSearch asks of each keyword before it searches. q's Sort, Limit and
// NextToken are ignored.
func (s *Store) Count(ctx context.Context, q SearchQuery) (total int, lowerBound bool, err error) {
	terms := Terms(q.Keyword)
	if strings.TrimSpace(q.Keyword) != "" && len(terms) == 0 {
		return 0, false, invalidf("keyword %q has no searchable words", q.Keyword)
	}
	p, err := s.plan(ctx, terms, q)
	if err != nil {
		return 0, false, err
	}
	page := &CompanyPage{}
	p.count(page, -1)
	return page.Total, page.TotalIsLowerBound, nil
}

// queryPlan is one search, with the postings of its words read.
type queryPlan struct {
	x        *memIndex
	q        SearchQuery
	n        int
	terms    []*termPostings // each word's postings, by field mark
	empty    bool            // a word is in no profile (all words, with AnyWord)
	maxCount int
	// walkFactor, when set by tests, forces the sorted plan: 1 walks the
	// order, -1 collects the matches.
	walkFactor int
	// all holds every match, in id order, when complete: counting found
	// no more than maxCount. A page is then cut from it, not searched again.
	all      []uint32
	complete bool
}

// termPostings is one searched word's postings: plain, and in the name,
// categories and city.
type termPostings struct {
	plain, name, category, city *postingList
}

// plan reads the postings q's words need.
func (s *Store) plan(ctx context.Context, terms []string, q SearchQuery) (*queryPlan, error) {
	p := &queryPlan{x: s.index, q: q, n: s.gen.Len(), maxCount: s.maxCounted, walkFactor: s.walkFactor}
	found := 0
	for _, w := range terms {
		t := termOf(w)
		var tp termPostings
		for _, f := range []struct {
			dst  **postingList
			term string
		}{{&tp.plain, t}, {&tp.name, markName + t}, {&tp.category, markCategory + t}, {&tp.city, markCity + t}} {
			l, err := s.postings(ctx, f.term)
			if err != nil {
				return nil, fmt.Errorf("search: %w", err)
			}
			*f.dst = l
		}
		if tp.plain.size() > 0 {
			found++
		}
		p.terms = append(p.terms, &tp)
	}
	p.empty = len(terms) > 0 && (found == 0 || !q.AnyWord && found < len(terms))
	return p, nil
}

// tiers is the number of relevance tiers; the last is the plain words.
const tiers = 4

// wordConds are the conds for the words found in tier's fields or better
// (tier 0: the name; 1: also the categories; 2: also the city; 3:
// anywhere): one per word, or one for any word with AnyWord.
func (p *queryPlan) wordConds(tier int) []cond {
	per := make([]cond, len(p.terms))
	for i, t := range p.terms {
		var lists []*postingList
		switch tier {
		case 0:
			lists = []*postingList{t.name}
		case 1:
			lists = []*postingList{t.name, t.category}
		case 2:
			lists = []*postingList{t.name, t.category, t.city}
		default:
			lists = []*postingList{t.plain}
		}
		parts := make([]cond, 0, len(lists))
		for _, l := range lists {
			if l.size() > 0 {
				parts = append(parts, postingCond(l))
			}
		}
		switch len(parts) {
		case 0:
			per[i] = &listCond{}
		case 1:
			per[i] = parts[0]
		default:
			per[i] = &unionCond{parts: parts}
		}
	}
	if p.q.AnyWord {
		return []cond{&unionCond{parts: per}}
	}
	return per
}

// filterConds are the conds of q's facets, exclusions and bounds.
func (p *queryPlan) filterConds() []cond {
	x, q := p.x, p.q
	var out []cond
	if len(q.Facets.Countries) > 0 {
		var in [256]bool
		u := &unionCond{}
		var bms [][]uint64
		for _, code := range q.Facets.Countries {
			if i := countryIndex(code); i >= 0 && !in[i] {
				in[i] = true
				u.parts = append(u.parts, &listCond{ids: x.byCountry[i]})
				bms = append(bms, x.countryBits[i])
			}
		}
		u.bits = union(bms, p.n)
		out = append(out, u)
	}
	if len(q.Facets.Categories) > 0 {
		u := &unionCond{}
		var bms [][]uint64
		for _, k := range q.Facets.Categories {
			u.parts = append(u.parts, &listCond{ids: x.byCategory[k]})
			bms = append(bms, x.categoryBits[k])
		}
		u.bits = union(bms, p.n)
		out = append(out, u)
	}
	if len(q.Exclude.Countries) > 0 {
		var out_ [256]bool
		for _, code := range q.Exclude.Countries {
			if i := countryIndex(code); i >= 0 {
				out_[i] = true
			}
		}
		out = append(out, &predCond{n: p.n, test: func(n uint32) bool { return !out_[x.facts[n].country] }})
	}
	if len(q.Exclude.Categories) > 0 {
		mask := categoryMask(q.Exclude.Categories)
		out = append(out, &predCond{n: p.n, test: func(n uint32) bool { return x.facts[n].catMask&mask == 0 }})
	}
	if c := x.employeeRange(q); c != nil {
		out = append(out, c)
	}
	if c := x.foundedRange(q); c != nil {
		out = append(out, c)
	}
	return out
}

// union is the union of bitmaps of n bits: the one itself, or a new one.
func union(bms [][]uint64, n int) []uint64 {
	if len(bms) == 1 {
		return bms[0]
	}
	u := make([]uint64, (n+63)/64)
	for _, b := range bms {
		for i := range u {
			u[i] |= b[i]
		}
	}
	return u
}

// bounds returns a range [lo, hi] from bounds where 0 means none.
// A negative bound, which callers refuse, reads as any head count or year
// for a minimum and none for a maximum, as the comparison would.
func bounds(least, most int) (lo, hi uint32) {
	lo, hi = uint32(max(least, 0)), 1<<32-1
	if most != 0 {
		hi = uint32(max(most, 0))
	}
	return lo, hi
}

// employeeRange and foundedRange are q's bounds as conds, or nil.
func (x *memIndex) employeeRange(q SearchQuery) *rangeCond {
	if q.MinEmployees == 0 && q.MaxEmployees == 0 {
		return nil
	}
	lo, hi := bounds(q.MinEmployees, q.MaxEmployees)
	c := &rangeCond{facts: x.facts, lo: lo, hi: hi}
	x.span(c, orderEmployeesAsc)
	return c
}

func (x *memIndex) foundedRange(q SearchQuery) *rangeCond {
	if q.FoundedFrom == 0 && q.FoundedTo == 0 {
		return nil
	}
	lo, hi := bounds(q.FoundedFrom, q.FoundedTo)
	c := &rangeCond{facts: x.facts, byFounded: true, lo: lo, hi: hi}
	x.span(c, orderFoundedAsc)
	return c
}

// span counts c's members by binary search in order o (ascending by c's
// key) and lets c list them from there.
func (x *memIndex) span(c *rangeCond, o int) {
	ord := x.order[o]
	key := func(n uint32) uint32 {
		if c.byFounded {
			return uint32(c.facts[n].founded)
		}
		return c.facts[n].employees
	}
	i := sort.Search(len(ord), func(i int) bool { return key(ord[i]) >= c.lo })
	j := sort.Search(len(ord), func(i int) bool { return key(ord[i]) > c.hi })
	j = max(i, j)
	c.count = j - i
	c.list = func() []uint32 { ids := slices.Clone(ord[i:j]); slices.Sort(ids); return ids }
}

// matches is the conjunction of every condition of q (all tiers together).
func (p *queryPlan) matches() conjunction {
	conds := p.filterConds()
	if len(p.terms) > 0 {
		conds = append(conds, p.wordConds(tiers-1)...)
	}
	return conjunction{conds: conds, n: p.n}
}

// count fills page's total: exact for a filter-only query without bounds
// (summed from the facet combinations, whatever the count) or on request
// (for a single word with nothing else, its postings' count); otherwise
// counted up to maxCount. known, if not negative, is the exact count a plan
// already has.
func (p *queryPlan) count(page *CompanyPage, known int) {
	q := p.q
	switch {
	case p.empty:
		return
	case len(p.terms) == 0 && !hasRanges(q):
		page.Total = p.comboCount()
		return
	case len(p.terms) == 0 && (q.MinEmployees != 0 || q.MaxEmployees != 0) != (q.FoundedFrom != 0 || q.FoundedTo != 0):
		known = p.comboCount()
	case q.ExactCount && len(p.terms) == 1 && q.Facets.Empty() && q.Exclude.Empty() && !hasRanges(q):
		known = p.terms[0].plain.size()
	}
	if known < 0 && q.ExactCount {
		known = p.bitmapCount()
	}
	if known < 0 {
		limit := p.maxCount + 1
		if q.ExactCount {
			limit = p.n + 1
		}
		known = 0
		p.matches().scan(0, func(x uint32) bool {
			known++
			if known <= p.maxCount {
				p.all = append(p.all, x)
			}
			return known < limit
		})
		p.complete = known <= p.maxCount
	}
	if !q.ExactCount && known > p.maxCount {
		page.Total, page.TotalIsLowerBound = p.maxCount, true
		return
	}
	page.Total = known
}

// bitmapCount counts every match of q by combining bitmaps a word at a
// time (64 companies a step): each word's postings, the facets' and the
// exclusions'; only the bounds, if any, are then tested company by
// company, and only on the companies the bitmaps leave.
func (p *queryPlan) bitmapCount() int {
	x, q := p.x, p.q
	words := (p.n + 63) / 64
	all := make([]uint64, words)
	for i := range all {
		all[i] = ^uint64(0)
	}
	if p.n%64 != 0 {
		all[words-1] = 1<<(p.n%64) - 1
	}
	bitsOf := func(l *postingList) []uint64 {
		if l.bitmap != nil {
			return l.bitmap
		}
		return bitmapOf(l.ids, p.n)
	}
	and := func(b []uint64) {
		for i := range all {
			all[i] &= b[i]
		}
	}
	anyOf := func(sets [][]uint64) []uint64 {
		u := make([]uint64, words)
		for _, b := range sets {
			for i := range u {
				u[i] |= b[i]
			}
		}
		return u
	}
	var sets [][]uint64
	for _, t := range p.terms {
		sets = append(sets, bitsOf(t.plain))
	}
	if q.AnyWord && len(sets) > 0 {
		and(anyOf(sets))
	} else {
		for _, b := range sets {
			and(b)
		}
	}
	facet := func(codes []string, cats []int) [][]uint64 {
		var out [][]uint64
		for _, code := range codes {
			if i := countryIndex(code); i >= 0 {
				out = append(out, x.countryBits[i])
			}
		}
		for _, k := range cats {
			out = append(out, x.categoryBits[k])
		}
		return out
	}
	if len(q.Facets.Countries) > 0 {
		and(anyOf(facet(q.Facets.Countries, nil)))
	}
	if len(q.Facets.Categories) > 0 {
		and(anyOf(facet(nil, q.Facets.Categories)))
	}
	if ex := facet(q.Exclude.Countries, q.Exclude.Categories); len(ex) > 0 {
		u := anyOf(ex)
		for i := range all {
			all[i] &^= u[i]
		}
	}
	var ranges []cond
	if c := x.employeeRange(q); c != nil {
		ranges = append(ranges, c)
	}
	if c := x.foundedRange(q); c != nil {
		ranges = append(ranges, c)
	}
	n := 0
	for w, m := range all {
		if len(ranges) == 0 {
			n += bits.OnesCount64(m)
			continue
		}
		for ; m != 0; m &= m - 1 {
			if y := uint32(w*64 + bits.TrailingZeros64(m)); (conjunction{}).test(ranges, y) {
				n++
			}
		}
	}
	return n
}

// comboCount counts the companies matching q's facets, exclusions and one
// of its bounds (if any) from the (country, categories) combinations: a
// few thousand rows, not a million companies.
func (p *queryPlan) comboCount() int {
	q := p.q
	var inC, outC [256]bool
	for _, c := range q.Facets.Countries {
		if i := countryIndex(c); i >= 0 {
			inC[i] = true
		}
	}
	for _, c := range q.Exclude.Countries {
		if i := countryIndex(c); i >= 0 {
			outC[i] = true
		}
	}
	inK, outK := categoryMask(q.Facets.Categories), categoryMask(q.Exclude.Categories)
	n := 0
	for _, c := range p.x.combos {
		if (len(q.Facets.Countries) == 0 || inC[c.country]) && !outC[c.country] &&
			(inK == 0 || c.mask&inK != 0) && c.mask&outK == 0 {
			switch {
			case q.MinEmployees != 0 || q.MaxEmployees != 0:
				lo, hi := bounds(q.MinEmployees, q.MaxEmployees)
				i, _ := slices.BinarySearch(c.employees, lo)
				j := len(c.employees)
				if hi < 1<<32-1 {
					j, _ = slices.BinarySearch(c.employees, hi+1)
				}
				n += max(j-i, 0)
			case q.FoundedFrom != 0 || q.FoundedTo != 0:
				lo, hi := bounds(q.FoundedFrom, q.FoundedTo)
				i, _ := slices.BinarySearch(c.founded, uint16(min(lo, 1<<16-1)))
				j := len(c.founded)
				if hi < 1<<16-1 {
					j, _ = slices.BinarySearch(c.founded, uint16(hi+1))
				}
				n += max(j-i, 0)
			default:
				n += c.count
			}
		}
	}
	return n
}

// listed is a page in id order from pos, the first company number of the
// page: the next token is the first of the next page.
func (p *queryPlan) listed(pos int64) (*CompanyPage, []uint32, int64, bool) {
	page := &CompanyPage{}
	p.count(page, -1)
	if p.empty || page.Total == 0 || pos >= int64(p.n) {
		return page, nil, 0, false
	}
	// Counting found every match below known (all of them when complete):
	// the page is cut from those, and searched for only beyond them.
	var nums []uint32
	known := uint32(0)
	if len(p.all) > 0 {
		known = uint32(p.n)
		if !p.complete {
			known = p.all[len(p.all)-1] + 1
		}
		i, _ := slices.BinarySearch(p.all, uint32(pos))
		nums = slices.Clone(p.all[i:min(len(p.all), i+p.q.Limit+1)])
	}
	if len(nums) <= p.q.Limit && int(known) < p.n {
		nums = p.collect(p.matches(), max(uint32(pos), known), p.q.Limit+1-len(nums), nums)
	}
	if len(nums) > p.q.Limit {
		return page, nums[:p.q.Limit], int64(nums[p.q.Limit]), true
	}
	return page, nums, 0, false
}

// collect appends to out up to n members of j at or after from.
func (p *queryPlan) collect(j conjunction, from uint32, n int, out []uint32) []uint32 {
	if n <= 0 {
		return out
	}
	j.scan(from, func(x uint32) bool {
		out = append(out, x)
		return len(out) < n
	})
	return out
}

// tierShift places the tier above the company number in a page position.
const tierShift = 32

// ranked is a page of keyword matches by relevance tier, then id, from
// pos: the tier in the high bits and one more than the last company number
// returned in the low bits. Each tier is the conjunction of the filters,
// the words in the tier's fields, and not the words in the previous
// tier's; it is listed in id order until the page is full.
func (p *queryPlan) ranked(pos int64) (*CompanyPage, []uint32, int64, bool) {
	page := &CompanyPage{}
	p.count(page, -1)
	if p.empty || page.Total == 0 {
		return page, nil, 0, false
	}
	type hit struct {
		tier int64
		num  uint32
	}
	var hits []hit
	tier, from := pos>>tierShift, pos&(1<<tierShift-1)
	if len(p.all) > 0 {
		// Counting found the first matches in id order: every match below
		// known. Their tiers are tested here, one by one; a tier is
		// searched only beyond known, and only if the page is not full.
		known := uint32(p.n)
		if !p.complete {
			known = p.all[len(p.all)-1] + 1
		}
		better := make([]conjunction, tiers-1)
		for t := range better {
			better[t] = conjunction{conds: p.wordConds(t), n: p.n}
		}
		tierOf := make([]int8, len(p.all))
		for i, n := range p.all {
			tierOf[i] = tiers - 1
			for b := range better {
				if better[b].test(better[b].conds, n) {
					tierOf[i] = int8(b)
					break
				}
			}
		}
		for ; tier < tiers && len(hits) <= p.q.Limit; tier, from = tier+1, 0 {
			for i, n := range p.all {
				if int64(tierOf[i]) == tier && int64(n) >= from {
					hits = append(hits, hit{tier, n})
					if len(hits) > p.q.Limit {
						break
					}
				}
			}
			if len(hits) <= p.q.Limit && int(known) < p.n {
				for _, n := range p.collect(p.tier(int(tier)), max(uint32(from), known), p.q.Limit+1-len(hits), nil) {
					hits = append(hits, hit{tier, n})
				}
			}
		}
	}
	for ; tier < tiers && len(hits) <= p.q.Limit; tier, from = tier+1, 0 {
		for _, n := range p.collect(p.tier(int(tier)), uint32(from), p.q.Limit+1-len(hits), nil) {
			hits = append(hits, hit{tier, n})
		}
	}
	nums := make([]uint32, 0, len(hits))
	for _, h := range hits[:min(len(hits), p.q.Limit)] {
		nums = append(nums, h.num)
	}
	if len(hits) > p.q.Limit {
		last := hits[p.q.Limit-1]
		return page, nums, last.tier<<tierShift | int64(last.num+1), true
	}
	return page, nums, 0, false
}

// tier is the conjunction of the filters, the words in tier's fields, and
// not the words in the previous tier's.
func (p *queryPlan) tier(tier int) conjunction {
	conds := append(p.filterConds(), p.wordConds(tier)...)
	if tier > 0 {
		conds = append(conds, &notCond{all: p.wordConds(tier - 1), n: p.n})
	}
	return conjunction{conds: conds, n: p.n}
}

// sorted is a page in order o from pos, the place in the order of the
// page's first company; the next token is the place of the next page's.
//
// Two plans give the same page. Walking the order tests companies one by
// one from pos until the page is full: about (limit+1)·N/matches tests,
// short when matches are common. Collecting lists every match from the
// smallest set (as an id-order search does) and keeps the limit+1 best at
// or after pos: as long as that set, short when it is small. The plan walks
// when its expected length is below the set's size, giving up for the
// other after as many tests as collecting would take, so it never costs
// more than about twice the better plan.
func (p *queryPlan) sorted(o int, pos int64) (*CompanyPage, []uint32, int64, bool) {
	page := &CompanyPage{}
	if p.empty || pos >= int64(p.n) {
		p.count(page, -1)
		return page, nil, 0, false
	}
	need := p.q.Limit + 1
	j := p.matches()
	drv, _ := j.driver()
	budget := drv.size() + 64
	walk := float64(need)*float64(p.n)/max(j.estimate(), 1) < float64(budget)
	switch p.walkFactor {
	case 1:
		walk, budget = true, p.n
	case -1:
		walk = false
	}
	var (
		nums  []uint32
		known = -1
		done  bool
	)
	if walk {
		nums, done = p.walk(j, o, int(pos), need, budget)
	}
	if !done {
		nums, known = p.gather(o, int(pos), need)
	}
	p.count(page, known)
	if len(nums) > p.q.Limit {
		return page, nums[:p.q.Limit], int64(p.x.place(o, nums[p.q.Limit])), true
	}
	return page, nums, 0, false
}

// walk tests the companies of order o from place pos until need match,
// or gives up (done false) after budget tests.
func (p *queryPlan) walk(j conjunction, o, pos, need, budget int) ([]uint32, bool) {
	var nums []uint32
	ord := p.x.order[o]
	for i := pos; i < len(ord); i++ {
		if i-pos >= budget {
			return nil, false
		}
		if x := ord[i]; j.test(j.conds, x) {
			nums = append(nums, x)
			if len(nums) == need {
				break
			}
		}
	}
	return nums, true
}

// gather collects every match and keeps the need first in order o at or
// after place pos; it also returns how many match in all.
func (p *queryPlan) gather(o, pos, need int) ([]uint32, int) {
	x := p.x
	var first uint32
	hasFirst := pos > 0
	if hasFirst {
		first = x.order[o][pos]
	}
	// best is a max-heap of at most need companies in order o.
	best := make([]uint32, 0, need)
	less := func(a, b uint32) bool { return x.less(o, a, b) }
	total := 0
	p.matches().scan(0, func(n uint32) bool {
		total++
		if hasFirst && less(n, first) {
			return true
		}
		if len(best) < need {
			best = append(best, n)
			heapUp(best, len(best)-1, less)
		} else if less(n, best[0]) {
			best[0] = n
			heapDown(best, 0, less)
		}
		return true
	})
	slices.SortFunc(best, func(a, b uint32) int {
		if less(a, b) {
			return -1
		}
		return 1
	})
	return best, total
}

// heapUp and heapDown keep h a max-heap under less.
func heapUp(h []uint32, i int, less func(a, b uint32) bool) {
	for i > 0 {
		parent := (i - 1) / 2
		if !less(h[parent], h[i]) {
			return
		}
		h[parent], h[i] = h[i], h[parent]
		i = parent
	}
}

func heapDown(h []uint32, i int, less func(a, b uint32) bool) {
	for {
		l, big := 2*i+1, i
		if l < len(h) && less(h[big], h[l]) {
			big = l
		}
		if r := l + 1; r < len(h) && less(h[big], h[r]) {
			big = r
		}
		if big == i {
			return
		}
		h[i], h[big] = h[big], h[i]
		i = big
	}
}

// place returns the place of company n in order o.
func (x *memIndex) place(o int, n uint32) int {
	if o == orderName {
		return int(x.nameRank[n])
	}
	i, _ := slices.BinarySearchFunc(x.order[o], n, func(a, b uint32) int {
		switch {
		case a == b:
			return 0
		case x.less(o, a, b):
			return -1
		}
		return 1
	})
	return i
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
