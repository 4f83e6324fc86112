package store

import (
	"math/bits"
	"slices"
)

// postingList is one index word's companies, shared by every query that
// reads it (never changed once decoded).
type postingList struct {
	ids    []uint32 // in increasing order, unless bitmap is set
	bitmap []uint64
	count  int // members of bitmap
}

func (p *postingList) size() int {
	if p.bitmap != nil {
		return p.count
	}
	return len(p.ids)
}

// cond is one condition of a conjunction a search evaluates: a set of
// companies. Every cond answers has; an iterable one also lists its
// members in number order, so the smallest can drive the conjunction and
// the others are only tested. Both are cheapest when asked about
// increasing numbers. A cond belongs to one evaluation (it keeps a cursor).
type cond interface {
	// size is the number of members, or an upper bound.
	size() int
	// has reports whether company x is a member.
	has(x uint32) bool
	// next returns the first member at or after x; ok is false past the
	// last. Only for iterable conds.
	next(x uint32) (y uint32, ok bool)
	iterable() bool
}

// listCond is a set given as a list of numbers in increasing order.
type listCond struct {
	ids []uint32
	pos int // ids[:pos] are below the last number asked about
}

func (c *listCond) size() int      { return len(c.ids) }
func (c *listCond) iterable() bool { return true }

// seek moves pos to the first id at or after x: galloping forward from
// the last position when x did not go back, else a binary search.
func (c *listCond) seek(x uint32) {
	if c.pos > 0 && c.ids[c.pos-1] >= x {
		c.pos = 0
	}
	lo, step := c.pos, 1
	hi := lo
	for hi < len(c.ids) && c.ids[hi] < x {
		lo = hi + 1
		hi += step
		step *= 2
	}
	hi = min(hi, len(c.ids))
	i, _ := slices.BinarySearch(c.ids[lo:hi], x)
	c.pos = lo + i
}

func (c *listCond) has(x uint32) bool {
	c.seek(x)
	return c.pos < len(c.ids) && c.ids[c.pos] == x
}

func (c *listCond) next(x uint32) (uint32, bool) {
	c.seek(x)
	if c.pos < len(c.ids) {
		return c.ids[c.pos], true
	}
	return 0, false
}

// bitmapCond is a set given as a bitmap.
type bitmapCond struct {
	bm    []uint64
	count int
}

func (c *bitmapCond) size() int      { return c.count }
func (c *bitmapCond) iterable() bool { return true }
func (c *bitmapCond) has(x uint32) bool {
	return int(x/64) < len(c.bm) && c.bm[x/64]&(1<<(x%64)) != 0
}

func (c *bitmapCond) next(x uint32) (uint32, bool) {
	w := int(x / 64)
	if w >= len(c.bm) {
		return 0, false
	}
	if m := c.bm[w] >> (x % 64); m != 0 {
		return x + uint32(bits.TrailingZeros64(m)), true
	}
	for w++; w < len(c.bm); w++ {
		if c.bm[w] != 0 {
			return uint32(w*64 + bits.TrailingZeros64(c.bm[w])), true
		}
	}
	return 0, false
}

// postingCond is the cond of one posting list.
func postingCond(p *postingList) cond {
	if p.bitmap != nil {
		return &bitmapCond{bm: p.bitmap, count: p.count}
	}
	return &listCond{ids: p.ids}
}

// unionCond is the companies in any of its parts.
type unionCond struct {
	parts []cond
	// bits, when set, answers has instead of the parts: the union as a
	// bitmap (a country's or a category's companies: 125 KB at a million
	// companies, which stays in the CPU's cache where a test of the
	// company's record would read memory).
	bits []uint64
	// heads caches each part's next member, for next.
	heads []uint32
	ok    []bool
	from  uint32
	init  bool
}

func (c *unionCond) size() int {
	n := 0
	for _, p := range c.parts {
		n += p.size()
	}
	return n
}

func (c *unionCond) iterable() bool {
	for _, p := range c.parts {
		if !p.iterable() {
			return false
		}
	}
	return true
}

func (c *unionCond) has(x uint32) bool {
	if c.bits != nil {
		return c.bits[x/64]&(1<<(x%64)) != 0
	}
	for _, p := range c.parts {
		if p.has(x) {
			return true
		}
	}
	return false
}

func (c *unionCond) next(x uint32) (uint32, bool) {
	if !c.init || x < c.from {
		c.heads, c.ok = make([]uint32, len(c.parts)), make([]bool, len(c.parts))
		for i, p := range c.parts {
			c.heads[i], c.ok[i] = p.next(x)
		}
		c.init = true
	}
	c.from = x
	best, found := uint32(0), false
	for i, p := range c.parts {
		if c.ok[i] && c.heads[i] < x {
			c.heads[i], c.ok[i] = p.next(x)
		}
		if c.ok[i] && (!found || c.heads[i] < best) {
			best, found = c.heads[i], true
		}
	}
	return best, found
}

// predCond is a test on a company's columns; it lists nothing.
type predCond struct {
	test func(x uint32) bool
	n    int
}

func (c *predCond) size() int                  { return c.n }
func (c *predCond) iterable() bool             { return false }
func (c *predCond) has(x uint32) bool          { return c.test(x) }
func (c *predCond) next(uint32) (uint32, bool) { panic("predCond is not iterable") }

// rangeCond is the companies whose head count or founding year is within
// [lo, hi]; its members can be listed, at the cost of collecting them from
// the order by that key (list), when it is the smallest cond.
type rangeCond struct {
	facts     []fact
	byFounded bool // the key: the founding year, else the head count
	lo, hi    uint32
	count     int
	list      func() []uint32
	ids       *listCond
}

func (c *rangeCond) size() int      { return c.count }
func (c *rangeCond) iterable() bool { return true }
func (c *rangeCond) has(x uint32) bool {
	k := c.facts[x].employees
	if c.byFounded {
		k = uint32(c.facts[x].founded)
	}
	return k >= c.lo && k <= c.hi
}

func (c *rangeCond) listed() *listCond {
	if c.ids == nil {
		c.ids = &listCond{ids: c.list()}
	}
	return c.ids
}

func (c *rangeCond) next(x uint32) (uint32, bool) { return c.listed().next(x) }

// notCond is the companies not in every one of its parts (not in their
// intersection).
type notCond struct {
	all []cond
	n   int
}

func (c *notCond) size() int      { return c.n }
func (c *notCond) iterable() bool { return false }
func (c *notCond) has(x uint32) bool {
	for _, p := range c.all {
		if !p.has(x) {
			return true
		}
	}
	return false
}
func (c *notCond) next(uint32) (uint32, bool) { panic("notCond is not iterable") }

// allCond is every company.
type allCond struct{ n int }

func (c allCond) size() int         { return c.n }
func (c allCond) iterable() bool    { return true }
func (c allCond) has(x uint32) bool { return int(x) < c.n }
func (c allCond) next(x uint32) (uint32, bool) {
	return x, int(x) < c.n
}

// conjunction is the companies in every one of its conds.
type conjunction struct {
	conds []cond
	n     int
}

// driver returns the smallest iterable cond and the others, smallest first.
func (j conjunction) driver() (cond, []cond) {
	var drv cond = allCond{j.n}
	for _, c := range j.conds {
		if c.iterable() && c.size() < drv.size() {
			drv = c
		}
	}
	others := make([]cond, 0, len(j.conds))
	for _, c := range j.conds {
		if c != drv {
			others = append(others, c)
		}
	}
	// Lists are tested first: they are read in order (a cursor moves
	// forward), while a column test reads a company's record wherever it is.
	slices.SortStableFunc(others, func(a, b cond) int {
		if la, lb := isList(a), isList(b); la != lb {
			if la {
				return -1
			}
			return 1
		}
		return a.size() - b.size()
	})
	return drv, others
}

// scan calls fn with each member at or after from, in number order, until
// fn returns false. The smallest iterable cond lists candidates; the
// others only test them, so the cost follows the smallest cond, not the
// largest. It returns how many candidates it tested.
func (j conjunction) scan(from uint32, fn func(x uint32) bool) {
	drv, others := j.driver()
	switch d := drv.(type) {
	case *rangeCond:
		drv = d.listed()
	case *unionCond:
		if len(d.parts) == 1 {
			drv = d.parts[0]
		}
	}
	switch d := drv.(type) {
	case *listCond: // the common drivers, walked without a search per member
		i, _ := slices.BinarySearch(d.ids, from)
		for _, y := range d.ids[i:] {
			if j.test(others, y) && !fn(y) {
				return
			}
		}
		return
	case *bitmapCond:
		for w := int(from / 64); w < len(d.bm); w++ {
			m := d.bm[w]
			if w == int(from/64) {
				m &= ^uint64(0) << (from % 64)
			}
			for ; m != 0; m &= m - 1 {
				if y := uint32(w*64 + bits.TrailingZeros64(m)); j.test(others, y) && !fn(y) {
					return
				}
			}
		}
		return
	}
	for x := from; ; x++ {
		y, ok := drv.next(x)
		if !ok {
			return
		}
		x = y
		if j.test(others, y) && !fn(y) {
			return
		}
	}
}

// test reports whether x is in every one of conds.
func (j conjunction) test(conds []cond, x uint32) bool {
	for _, c := range conds {
		if !c.has(x) {
			return false
		}
	}
	return true
}

// estimate is the expected number of members, taking the conds as
// independent.
func (j conjunction) estimate() float64 {
	e := float64(j.n)
	for _, c := range j.conds {
		e *= float64(min(c.size(), j.n)) / float64(max(j.n, 1))
	}
	return e
}

// isList reports whether c tests a company against a list or a bitmap.
func isList(c cond) bool {
	switch c := c.(type) {
	case *listCond, *bitmapCond:
		return true
	case *unionCond:
		return c.bits != nil
	}
	return false
}
