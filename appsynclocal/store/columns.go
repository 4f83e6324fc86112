package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"

	"github.com/companyintel/mcp-server/appsynclocal/dataset"
)

// columnsData is what filters and orders read of every company, one array
// per column, indexed by company number.
type columnsData struct {
	country   []uint8  // index into dataset.Countries
	catMask   []uint64 // bit k: the company is in dataset.Categories[k]
	employees []uint32
	founded   []uint16
}

// blobs renders the columns as the columns table stores them.
func (c columnsData) blobs() map[string][]byte {
	mask := make([]byte, 0, 8*len(c.catMask))
	for _, m := range c.catMask {
		mask = binary.LittleEndian.AppendUint64(mask, m)
	}
	emp := uint32Bytes(c.employees)
	founded := make([]byte, 0, 2*len(c.founded))
	for _, f := range c.founded {
		founded = binary.LittleEndian.AppendUint16(founded, f)
	}
	return map[string][]byte{"country": c.country, "cat_mask": mask, "employees": emp, "founded": founded}
}

func uint32Bytes(v []uint32) []byte {
	out := make([]byte, 0, 4*len(v))
	for _, x := range v {
		out = binary.LittleEndian.AppendUint32(out, x)
	}
	return out
}

// The orders a sorted search walks, each a permutation of the company
// numbers; ties are broken by number.
const (
	orderEmployeesDesc = iota
	orderEmployeesAsc
	orderFoundedDesc
	orderFoundedAsc
	orderName
	numOrders
)

// sortOrder maps a Sort to its order.
var sortOrder = map[Sort]int{
	SortEmployeesDesc: orderEmployeesDesc,
	SortEmployeesAsc:  orderEmployeesAsc,
	SortFoundedDesc:   orderFoundedDesc,
	SortFoundedAsc:    orderFoundedAsc,
	SortNameAsc:       orderName,
}

// facetCombo is how many companies have one country and one set of
// categories, and their head counts and founding years, each in
// increasing order: a filter-only count with one bound is a binary search
// per combination, not a test per company.
type facetCombo struct {
	comboKey
	count     int
	employees []uint32
	founded   []uint16
}

type comboKey struct {
	country uint8
	mask    uint64
}

// fact is what a search tests of one company, in one 16-byte record so
// that a test reads one cache line, not one per column.
type fact struct {
	catMask   uint64
	employees uint32
	founded   uint16
	country   uint8
}

// memIndex is the part of the data set a search plans with, held in memory:
// about 70 bytes a company (70 MB at a million).
type memIndex struct {
	n           int
	columnsData // while deriving; then facts holds the same
	facts       []fact
	// byCountry and byCategory list each value's companies in number order;
	// countryBits and categoryBits are the same sets as bitmaps, for exact
	// counts (about 12 MB at a million companies).
	byCountry    [][]uint32
	byCategory   [][]uint32
	countryBits  [][]uint64
	categoryBits [][]uint64
	// order[o] lists the companies in order o; rank[o][num] is num's place
	// in it. The name order alone needs rank: the others compare their key.
	order    [numOrders][]uint32
	nameRank []uint32
	combos   []facetCombo
}

// loadIndex reads the columns and derives the lists, orders and combos.
func loadIndex(ctx context.Context, db *sql.DB, n int) (*memIndex, error) {
	blobs := map[string][]byte{}
	rows, err := db.QueryContext(ctx, `SELECT name, data FROM columns`)
	if err != nil {
		return nil, fmt.Errorf("reading columns: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			name string
			data []byte
		)
		if err := rows.Scan(&name, &data); err != nil {
			return nil, err
		}
		blobs[name] = data
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for name, width := range map[string]int{"country": 1, "cat_mask": 8, "employees": 4, "founded": 2, "name_order": 4} {
		if len(blobs[name]) != width*n {
			return nil, fmt.Errorf("column %s has %d bytes, want %d", name, len(blobs[name]), width*n)
		}
	}
	x := &memIndex{n: n}
	x.country = blobs["country"]
	x.catMask = make([]uint64, n)
	x.employees = make([]uint32, n)
	x.founded = make([]uint16, n)
	names := make([]uint32, n)
	for i := range n {
		x.catMask[i] = binary.LittleEndian.Uint64(blobs["cat_mask"][8*i:])
		x.employees[i] = binary.LittleEndian.Uint32(blobs["employees"][4*i:])
		x.founded[i] = binary.LittleEndian.Uint16(blobs["founded"][2*i:])
		names[i] = binary.LittleEndian.Uint32(blobs["name_order"][4*i:])
	}
	x.derive(names)
	x.columnsData = columnsData{}
	return x, nil
}

// derive computes what loadIndex does not read: lists, orders, combos.
func (x *memIndex) derive(names []uint32) {
	x.facts = make([]fact, x.n)
	for i := range x.facts {
		x.facts[i] = fact{catMask: x.catMask[i], employees: x.employees[i], founded: x.founded[i], country: x.country[i]}
	}
	x.byCountry = make([][]uint32, len(dataset.Countries))
	x.byCategory = make([][]uint32, len(dataset.Categories))
	combos := map[comboKey]int{}
	for i := range x.n {
		num := uint32(i)
		x.byCountry[x.country[i]] = append(x.byCountry[x.country[i]], num)
		for m := x.catMask[i]; m != 0; m &= m - 1 {
			k := bits.TrailingZeros64(m)
			x.byCategory[k] = append(x.byCategory[k], num)
		}
		combos[comboKey{country: x.country[i], mask: x.catMask[i]}]++
	}
	x.countryBits, x.categoryBits = toBitmaps(x.byCountry, x.n), toBitmaps(x.byCategory, x.n)
	for k, count := range combos {
		x.combos = append(x.combos, facetCombo{comboKey: k, count: count})
	}
	slices.SortFunc(x.combos, func(a, b facetCombo) int {
		if a.country != b.country {
			return int(a.country) - int(b.country)
		}
		if a.mask < b.mask {
			return -1
		}
		if a.mask > b.mask {
			return 1
		}
		return 0
	})
	emp := func(i int) int { return int(x.employees[i]) }
	founded := func(i int) int { return int(x.founded[i]) }
	x.order[orderEmployeesAsc] = countingOrder(x.n, emp, false)
	x.order[orderEmployeesDesc] = countingOrder(x.n, emp, true)
	x.order[orderFoundedAsc] = countingOrder(x.n, founded, false)
	x.order[orderFoundedDesc] = countingOrder(x.n, founded, true)
	x.order[orderName] = names
	at := make(map[comboKey]int, len(x.combos))
	for i, c := range x.combos {
		at[c.comboKey] = i
	}
	combo := make([]int32, x.n) // each company's combination
	for i := range x.n {
		combo[i] = int32(at[comboKey{country: x.country[i], mask: x.catMask[i]}])
	}
	for _, n := range x.order[orderEmployeesAsc] {
		c := &x.combos[combo[n]]
		c.employees = append(c.employees, x.employees[n])
	}
	for _, n := range x.order[orderFoundedAsc] {
		c := &x.combos[combo[n]]
		c.founded = append(c.founded, x.founded[n])
	}
	x.nameRank = make([]uint32, x.n)
	for r, num := range names {
		x.nameRank[num] = uint32(r)
	}
}

// countingOrder sorts the company numbers by key (small integers), ties by
// number, in linear time.
func countingOrder(n int, key func(int) int, desc bool) []uint32 {
	hi := 0
	for i := range n {
		hi = max(hi, key(i))
	}
	start := make([]int, hi+2)
	for i := range n {
		k := key(i)
		if desc {
			k = hi - k
		}
		start[k+1]++
	}
	for k := 1; k < len(start); k++ {
		start[k] += start[k-1]
	}
	out := make([]uint32, n)
	for i := range n {
		k := key(i)
		if desc {
			k = hi - k
		}
		out[start[k]] = uint32(i)
		start[k]++
	}
	return out
}

// less reports whether company a comes before b in order o.
func (x *memIndex) less(o int, a, b uint32) bool {
	var ka, kb uint32
	switch o {
	case orderEmployeesDesc:
		ka, kb = x.facts[b].employees, x.facts[a].employees
	case orderEmployeesAsc:
		ka, kb = x.facts[a].employees, x.facts[b].employees
	case orderFoundedDesc:
		ka, kb = uint32(x.facts[b].founded), uint32(x.facts[a].founded)
	case orderFoundedAsc:
		ka, kb = uint32(x.facts[a].founded), uint32(x.facts[b].founded)
	default:
		return x.nameRank[a] < x.nameRank[b]
	}
	if ka != kb {
		return ka < kb
	}
	return a < b
}

// toBitmaps renders lists of company numbers as bitmaps of n bits.
func toBitmaps(lists [][]uint32, n int) [][]uint64 {
	out := make([][]uint64, len(lists))
	for i, l := range lists {
		out[i] = bitmapOf(l, n)
	}
	return out
}

// bitmapOf renders a list of company numbers as a bitmap of n bits.
func bitmapOf(ids []uint32, n int) []uint64 {
	bm := make([]uint64, (n+63)/64)
	for _, x := range ids {
		bm[x/64] |= 1 << (x % 64)
	}
	return bm
}
