// Package dataset generates the embedded backend's synthetic companies.
//
// Generation is deterministic: company number i of seed s is the same on every
// machine and for every data-set size, because each company draws from its own
// random stream seeded by (s, i). That is what lets a database be rebuilt
// instead of shipped, and lets tests name companies by id.
//
// Every domain is under the reserved .example TLD (RFC 2606), so no generated
// address can reach a real organisation.
package dataset

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
)

// Version identifies the generator's output. Bump it whenever a change to this
// package changes any generated value, so stored databases are rebuilt.
const Version = 1

// MaxCompanies bounds a data set's size.
const MaxCompanies = 10_000_000

// idPrefix starts every company id.
const idPrefix = "cmp_"

// minIDDigits is the zero padding of ids: numbers below a million keep the
// same id whatever the data-set size, so "cmp_000123" means one company.
const minIDDigits = 6

// updatedEpoch is the latest updatedAt a company can have. A fixed instant
// keeps the data independent of when it was built.
var updatedEpoch = time.Date(2026, time.June, 30, 0, 0, 0, 0, time.UTC)

// Company is one generated company profile.
type Company struct {
	// Num is the company's position in the data set, from 0.
	Num int
	// ID is the stable public id, e.g. "cmp_000123".
	ID string
	// Name is the company's name, e.g. "Summit Robotics GmbH".
	Name string
	// Domain is the company's domain, always under .example.
	Domain string
	// Website is https://www.<Domain>.
	Website string
	// Description is two to four sentences about the company.
	Description string
	// CountryCode is the ISO alpha-2 code of one of Countries.
	CountryCode string
	// City is one of the country's cities.
	City string
	// Categories are indexes into Categories, the first being the main one.
	Categories []int
	// Employees is the head count, 1 to 100,000, log-distributed.
	Employees int
	// Founded is the founding year, 1950 to 2025.
	Founded int
	// UpdatedAt is when the profile last changed, to the millisecond.
	UpdatedAt time.Time
}

// Country returns the company's country.
func (c Company) Country() Country {
	co, _ := CountryByCode(c.CountryCode)
	return co
}

// CategoryNames returns the names of the company's categories.
func (c Company) CategoryNames() []string {
	names := make([]string, len(c.Categories))
	for i, k := range c.Categories {
		names[i] = Categories[k].Name
	}
	return names
}

// Generator makes the companies of one data set.
type Generator struct {
	seed      int64
	n         int
	digits    int
	countries cumulative
	cats      cumulative
}

// New returns the generator of the n-company data set for seed.
func New(seed int64, n int) (*Generator, error) {
	if n < 1 || n > MaxCompanies {
		return nil, fmt.Errorf("data-set size must be between 1 and %d, got %d", MaxCompanies, n)
	}
	cw := make([]int, len(Countries))
	for i, c := range Countries {
		cw[i] = c.Weight
	}
	return &Generator{
		seed:      seed,
		n:         n,
		digits:    max(minIDDigits, len(strconv.Itoa(n-1))),
		countries: newCumulative(cw),
		cats:      newCumulative(categoryWeights()),
	}, nil
}

// Len returns the number of companies in the data set.
func (g *Generator) Len() int { return g.n }

// ID returns the id of company number num.
func (g *Generator) ID(num int) string {
	return fmt.Sprintf("%s%0*d", idPrefix, g.digits, num)
}

// Num parses an id back into a company number. It accepts only ids this data
// set issues: the exact prefix and padding, and a number below Len.
func (g *Generator) Num(id string) (int, bool) {
	digits, ok := strings.CutPrefix(id, idPrefix)
	if !ok || len(digits) != g.digits {
		return 0, false
	}
	num := 0
	for i := 0; i < len(digits); i++ {
		d := digits[i]
		if d < '0' || d > '9' {
			return 0, false
		}
		num = num*10 + int(d-'0')
	}
	if num >= g.n {
		return 0, false
	}
	return num, true
}

// Company returns company number num, which must be below Len.
func (g *Generator) Company(num int) Company {
	r := g.stream(uint64(num), 0)
	c := Company{Num: num, ID: g.ID(num)}

	country := Countries[g.countries.pick(r)]
	c.CountryCode = country.Code
	c.City = pickCity(r, country.Cities)
	c.Categories = g.pickCategories(r)

	main := Categories[c.Categories[0]]
	base := companyName(r, main)
	c.Name = base
	if suffix, ok := legalSuffixes[country.Code]; ok && r.IntN(10) < 3 {
		c.Name = base + " " + suffix
	}
	c.Domain = fmt.Sprintf("%s-%d.example", slug(base), num)
	c.Website = "https://www." + c.Domain

	// Log-uniform over 1..100,000: as many companies of 10-100 people as of
	// 10,000-100,000 would overstate large firms, but it keeps every size
	// band populated for size filters.
	c.Employees = min(100_000, max(1, int(math.Exp(r.Float64()*math.Log(100_001)))))
	// Skewed towards recent years, as company registries are.
	c.Founded = 2025 - int(75*math.Pow(r.Float64(), 1.6))
	c.UpdatedAt = updatedEpoch.Add(-time.Duration(r.Int64N(int64(365*24*time.Hour/time.Millisecond))) * time.Millisecond)
	c.Description = describe(r, c)
	return c
}

// stream returns the random stream for one draw of the data set. stream 0 is
// a company's profile; others are derived for other uses (contacts).
func (g *Generator) stream(key, stream uint64) *rand.Rand {
	hi := splitmix(uint64(g.seed) ^ splitmix(stream))
	return rand.New(rand.NewPCG(hi, splitmix(key^hi)))
}

// pickCategories draws one to three distinct categories.
func (g *Generator) pickCategories(r *rand.Rand) []int {
	n := 1
	switch x := r.IntN(100); {
	case x >= 85:
		n = 3
	case x >= 50:
		n = 2
	}
	out := make([]int, 0, n)
	for len(out) < n {
		k := g.cats.pick(r)
		if !containsInt(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// categoryWeights makes software and AI companies more common than, say,
// aerospace, as they are in company databases.
func categoryWeights() []int {
	w := make([]int, len(Categories))
	for i, c := range Categories {
		switch c.Name {
		case "Software":
			w[i] = 5
		case "AI & Machine Learning", "Fintech", "Healthcare", "E-commerce":
			w[i] = 3
		default:
			w[i] = 2
		}
	}
	return w
}

// pickCity favours a country's first (largest) city.
func pickCity(r *rand.Rand, cities []string) string {
	if r.IntN(3) == 0 {
		return cities[0]
	}
	return cities[r.IntN(len(cities))]
}

// companyName combines word lists in one of three familiar shapes.
func companyName(r *rand.Rand, c Category) string {
	word := c.NameWords[r.IntN(len(c.NameWords))]
	switch x := r.IntN(4); {
	case x < 2: // "Summit Robotics"
		return namePrefixes[r.IntN(len(namePrefixes))] + " " + word
	case x == 2: // "Novastack AI"
		return namePrefixes[r.IntN(len(namePrefixes))] + compoundRoots[r.IntN(len(compoundRoots))] + " " + word
	default: // "Hartley & Moss Logistics"
		a := surnames[r.IntN(len(surnames))]
		b := surnames[r.IntN(len(surnames))]
		if a == b {
			return a + " " + word
		}
		return a + " & " + b + " " + word
	}
}

// describe writes a short profile from the company's categories and facts.
func describe(r *rand.Rand, c Company) string {
	var b strings.Builder
	main := Categories[c.Categories[0]]
	fmt.Fprintf(&b, "%s %s %s for %s.", c.Name, verbs[r.IntN(len(verbs))],
		main.Products[r.IntN(len(main.Products))], main.Customers[r.IntN(len(main.Customers))])
	if len(c.Categories) > 1 {
		other := Categories[c.Categories[1]]
		fmt.Fprintf(&b, " It also offers %s for %s.",
			other.Products[r.IntN(len(other.Products))], other.Customers[r.IntN(len(other.Customers))])
	}
	fmt.Fprintf(&b, " Founded in %d and headquartered in %s, the company employs %s.",
		c.Founded, c.City, headcount(c.Employees))
	if r.IntN(2) == 0 {
		b.WriteString(" ")
		b.WriteString(closingSentences[r.IntN(len(closingSentences))])
	}
	return b.String()
}

// headcount says a head count the way a profile would.
func headcount(n int) string {
	switch {
	case n == 1:
		return "a single person"
	case n < 50:
		return fmt.Sprintf("a team of %d people", n)
	case n < 1000:
		return fmt.Sprintf("around %d people", n/10*10)
	default:
		return fmt.Sprintf("more than %s people", thousands(n/1000*1000))
	}
}

// thousands formats n with comma separators.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// slug makes a DNS label from a name: ASCII letters and digits, words joined
// by hyphens ("Hartley & Moss Logistics" → "hartley-moss-logistics"). Names
// are built from ASCII word lists, so nothing is lost.
func slug(name string) string {
	var b strings.Builder
	hyphen := false
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			if hyphen && b.Len() > 0 {
				b.WriteByte('-')
			}
			hyphen = false
			b.WriteByte(c)
		case c >= 'A' && c <= 'Z':
			if hyphen && b.Len() > 0 {
				b.WriteByte('-')
			}
			hyphen = false
			b.WriteByte(c + 'a' - 'A')
		default:
			hyphen = true
		}
	}
	return b.String()
}

// cumulative picks an index with probability proportional to its weight.
type cumulative []int

func newCumulative(weights []int) cumulative {
	c := make(cumulative, len(weights))
	sum := 0
	for i, w := range weights {
		sum += w
		c[i] = sum
	}
	return c
}

func (c cumulative) pick(r *rand.Rand) int {
	x := r.IntN(c[len(c)-1])
	for i, v := range c {
		if x < v {
			return i
		}
	}
	return len(c) - 1
}

// splitmix is SplitMix64's finaliser: it spreads nearby inputs (company 41,
// company 42) over unrelated random streams.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
