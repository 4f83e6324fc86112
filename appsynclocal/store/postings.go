package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"github.com/companyintel/mcp-server/appsynclocal/dataset"
)

// A postings list is stored in one of two forms, whichever is smaller, told
// apart by its first byte:
//
//   - postingsDeltas: the company numbers in increasing order, each as the
//     uvarint of its distance from the previous one, minus one (the first
//     from -1). A rare word costs about a byte a company.
//   - postingsBitmap: one bit per company of the data set, little-endian
//     64-bit words; bit i of word w is company 64w+i. A word in a third of
//     all profiles costs an eighth of a byte a company, and is tested for a
//     company in one step.
const (
	postingsDeltas byte = 0
	postingsBitmap byte = 1
)

// postingBuilder accumulates one word's postings during the build.
type postingBuilder struct {
	count int
	last  int
	buf   []byte
}

// indexBuilder accumulates the postings and the columns as the build hands
// it the companies in number order.
type indexBuilder struct {
	n     int
	dict  *termDict
	terms []postingBuilder // by term number
	cols  columnsData
	names []string
}

func newIndexBuilder(n int, dict *termDict) *indexBuilder {
	return &indexBuilder{
		n:    n,
		dict: dict,
		cols: columnsData{
			country:   make([]uint8, 0, n),
			catMask:   make([]uint64, 0, n),
			employees: make([]uint32, 0, n),
			founded:   make([]uint16, 0, n),
		},
		names: make([]string, 0, n),
	}
}

// add takes the next chunk of companies.
func (b *indexBuilder) add(c *genChunk) {
	for i, co := range c.companies {
		for _, t := range c.words[i] {
			for int(t) >= len(b.terms) {
				b.terms = append(b.terms, postingBuilder{last: -1})
			}
			p := &b.terms[t]
			p.buf = binary.AppendUvarint(p.buf, uint64(co.Num-p.last-1))
			p.last = co.Num
			p.count++
		}
		b.cols.country = append(b.cols.country, uint8(countryIndex(co.CountryCode)))
		b.cols.catMask = append(b.cols.catMask, categoryMask(co.Categories))
		b.cols.employees = append(b.cols.employees, uint32(co.Employees))
		b.cols.founded = append(b.cols.founded, uint16(co.Founded))
		b.names = append(b.names, co.Name)
	}
}

// words is the number of index words some company has.
func (b *indexBuilder) words() int {
	n := 0
	for i := range b.terms {
		if b.terms[i].count > 0 {
			n++
		}
	}
	return n
}

// write stores the postings, the columns and the name order in tx.
func (b *indexBuilder) write(ctx context.Context, tx *sql.Tx) error {
	nameOrder := make(chan []uint32, 1)
	go func() { nameOrder <- orderByName(b.names) }()

	terms := make([]int32, 0, len(b.terms))
	for id := range b.terms {
		if b.terms[id].count > 0 {
			terms = append(terms, int32(id))
		}
	}
	b.dict.mu.Lock()
	names := b.dict.terms
	b.dict.mu.Unlock()
	slices.SortFunc(terms, func(x, y int32) int { return strings.Compare(names[x], names[y]) })
	stmts := map[int]*sql.Stmt{}
	defer func() {
		for _, s := range stmts {
			s.Close()
		}
	}()
	args := make([]any, 0, insertBatch*postingColumns)
	for lo := 0; lo < len(terms); lo += insertBatch {
		batch := terms[lo:min(lo+insertBatch, len(terms))]
		stmt, ok := stmts[len(batch)]
		if !ok {
			var err error
			if stmt, err = tx.PrepareContext(ctx, insertSQL("postings (term, count, list)", postingColumns, len(batch))); err != nil {
				return err
			}
			stmts[len(batch)] = stmt
		}
		args = args[:0]
		for _, t := range batch {
			p := &b.terms[t]
			args = append(args, names[t], p.count, encodePostings(p, b.n))
		}
		if _, err := stmt.ExecContext(ctx, args...); err != nil {
			return fmt.Errorf("inserting postings: %w", err)
		}
	}
	cols := b.cols.blobs()
	cols["name_order"] = uint32Bytes(<-nameOrder)
	for _, name := range []string{"country", "cat_mask", "employees", "founded", "name_order"} {
		if _, err := tx.ExecContext(ctx, `INSERT INTO columns (name, data) VALUES (?, ?)`, name, cols[name]); err != nil {
			return fmt.Errorf("inserting column %s: %w", name, err)
		}
	}
	return nil
}

// encodePostings renders p in the smaller of the two forms.
func encodePostings(p *postingBuilder, n int) []byte {
	words := (n + 63) / 64
	if len(p.buf) < 8*words {
		return append([]byte{postingsDeltas}, p.buf...)
	}
	bm := make([]uint64, words)
	num := -1
	for buf := p.buf; len(buf) > 0; {
		d, k := binary.Uvarint(buf)
		buf = buf[k:]
		num += int(d) + 1
		bm[num/64] |= 1 << (num % 64)
	}
	out := make([]byte, 1, 1+8*words)
	out[0] = postingsBitmap
	for _, w := range bm {
		out = binary.LittleEndian.AppendUint64(out, w)
	}
	return out
}

// decodePostings reads a stored list of a data set of n companies.
func decodePostings(data []byte, count, n int) (*postingList, error) {
	if len(data) == 0 {
		return nil, fmt.Errorf("empty postings")
	}
	switch data[0] {
	case postingsDeltas:
		ids := make([]uint32, 0, count)
		num := -1
		for buf := data[1:]; len(buf) > 0; {
			d, k := binary.Uvarint(buf)
			if k <= 0 {
				return nil, fmt.Errorf("corrupt postings")
			}
			buf = buf[k:]
			num += int(d) + 1
			ids = append(ids, uint32(num))
		}
		return &postingList{ids: ids}, nil
	case postingsBitmap:
		words := (n + 63) / 64
		if len(data) != 1+8*words {
			return nil, fmt.Errorf("corrupt postings bitmap")
		}
		bm := make([]uint64, words)
		for i := range bm {
			bm[i] = binary.LittleEndian.Uint64(data[1+8*i:])
		}
		c := 0
		for _, w := range bm {
			c += bits.OnesCount64(w)
		}
		return &postingList{bitmap: bm, count: c}, nil
	}
	return nil, fmt.Errorf("unknown postings form %d", data[0])
}

// orderByName returns the company numbers by name, ties by number.
func orderByName(names []string) []uint32 {
	perm := make([]uint32, len(names))
	for i := range perm {
		perm[i] = uint32(i)
	}
	slices.SortFunc(perm, func(a, b uint32) int {
		if c := strings.Compare(names[a], names[b]); c != 0 {
			return c
		}
		return int(a) - int(b)
	})
	return perm
}

// countryIndex is the index of an ISO code in dataset.Countries, or -1.
func countryIndex(code string) int {
	for i, c := range dataset.Countries {
		if c.Code == code {
			return i
		}
	}
	return -1
}
