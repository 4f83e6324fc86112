package store

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/companyintel/mcp-server/appsynclocal/dataset"
)

// The inverted index (the postings table) lists, for each index word, the
// companies that have it. A searched word is matched by its index form:
// lower case, diacritics removed, Porter-stemmed (termOf), so "Robots"
// finds "robotics" and "Krakow" finds "Kraków". Each word of a company's
// name, categories and city is indexed a second time with its field's mark,
// for the relevance tiers; '_' never occurs in a word (words splits on it),
// so a marked word is never a searched word.
const (
	markName     = "n_"
	markCategory = "c_"
	markCity     = "t_"
)

// termOf is the index form of one word as words split it.
func termOf(w string) string { return stem(fold(w)) }

// words splits text into lower-case runs of letters and digits, as a
// keyword is split (Terms), so a marked word of the index and a marked
// search word are made the same way.
func words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// eachWord calls fn with each word of text as words splits it, in a buffer
// fn must not keep; plain ASCII text is split without allocating.
func eachWord(text string, buf []byte, fn func(w []byte)) []byte {
	for i := 0; i < len(text); {
		c := text[i]
		if c >= utf8.RuneSelf {
			// Rare: finish this stretch of text the general way.
			j := i
			for j > 0 && isWordByte(text[j-1]) {
				j--
			}
			if len(buf) > 0 {
				buf = buf[:0] // the word in progress is redone below
			}
			k := i
			for k < len(text) && text[k] != ' ' {
				k++
			}
			for _, w := range words(text[j:k]) {
				fn([]byte(w))
			}
			i = k
			continue
		}
		if isWordByte(c) {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			buf = append(buf, c)
		} else if len(buf) > 0 {
			fn(buf)
			buf = buf[:0]
		}
		i++
	}
	if len(buf) > 0 {
		fn(buf)
		buf = buf[:0]
	}
	return buf
}

func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// termDict numbers the index words of one build, shared by its workers.
type termDict struct {
	mu    sync.Mutex
	ids   map[string]int32
	terms []string
}

func newTermDict() *termDict { return &termDict{ids: map[string]int32{}} }

func (d *termDict) id(term string) int32 {
	d.mu.Lock()
	defer d.mu.Unlock()
	id, ok := d.ids[term]
	if !ok {
		id = int32(len(d.terms))
		d.ids[term] = id
		d.terms = append(d.terms, term)
	}
	return id
}

// wordTerms are the index words one word gives, as numbers of a termDict:
// plain, and marked as in a name, a category and a city.
type wordTerms [4]int32

// wordIndexer makes companies' index words, remembering each word's index
// words: a data set repeats its words, and stemming is most of the cost.
// One per goroutine.
type wordIndexer struct {
	dict  *termDict
	known map[string]*wordTerms
	stamp []int32 // stamp[id] == company+1: the company has the word
	buf   []byte
}

func newWordIndexer(dict *termDict) *wordIndexer {
	return &wordIndexer{dict: dict, known: map[string]*wordTerms{}}
}

// of returns the numbers of c's distinct index words: the words of its
// name, description, categories and city, and again, marked, those of its
// name, categories and city.
func (w *wordIndexer) of(c dataset.Company) []int32 {
	out := make([]int32, 0, 64)
	stamp := int32(c.Num + 1)
	add := func(id int32) {
		if int(id) >= len(w.stamp) {
			w.stamp = append(w.stamp, make([]int32, int(id)+1-len(w.stamp)+1024)...)
		}
		if w.stamp[id] != stamp {
			w.stamp[id] = stamp
			out = append(out, id)
		}
	}
	for field, text := range [4]string{c.Description, c.Name, strings.Join(c.CategoryNames(), " "), c.City} {
		w.buf = eachWord(text, w.buf, func(word []byte) {
			t := w.known[string(word)]
			if t == nil {
				term := termOf(string(word))
				t = &wordTerms{w.dict.id(term), w.dict.id(markName + term), w.dict.id(markCategory + term), w.dict.id(markCity + term)}
				w.known[string(word)] = t
			}
			add(t[0])
			if field > 0 {
				add(t[field])
			}
		})
	}
	return out
}

// indexWords returns c's index words, for tests.
func indexWords(c dataset.Company) []string {
	d := newTermDict()
	var out []string
	for _, id := range newWordIndexer(d).of(c) {
		out = append(out, d.terms[id])
	}
	return out
}
