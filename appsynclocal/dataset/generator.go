// Package dataset generates the embedded backend's synthetic companies.
//
// Generation is deterministic: company number i of seed s is the same on every
// machine and for every data-set size, because each company draws from its own
// random stream seeded by (s, i). That is what lets a database be rebuilt
// instead of shipped, and lets tests name companies by id.
//
// Every domain is under the reserved .example TLD (RFC 2606), so no generated
// address can reach a real organisation.
//
// The profiles hold together, as a user trying the demo will check: head
// counts are heavy-tailed as in real catalogues and no larger than a
// company's age at ReferenceDate allows; a company carries only related
// categories, and its description states one offer of each, to customers
// that fit, with its founding year and exact head count. rules_test.go
// checks every rule over the whole default data set.
package dataset

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Version identifies the generator's output. Bump it whenever a change to this
// package changes any generated value, so stored databases are rebuilt.
const Version = 2

// MaxCompanies bounds a data set's size.
const MaxCompanies = 10_000_000

// idPrefix starts every company id.
const idPrefix = "cmp_"

// minIDDigits is the zero padding of ids: numbers below a million keep the
// same id whatever the data-set size, so "cmp_000123" means one company.
const minIDDigits = 6

// ReferenceDate is the day the data set describes: every profile was last
// updated before it, and ages ("founded three years ago") are counted to it.
// A fixed date keeps the data independent of when it was built.
var ReferenceDate = time.Date(2026, time.July, 1, 0, 0, 0, 0, time.UTC)

// The founding years the generator draws from.
const (
	EarliestFounded = 1950
	LatestFounded   = 2025
)

// updatedEpoch is the latest updatedAt a company can have.
var updatedEpoch = ReferenceDate.Add(-24 * time.Hour)

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
	// Description is two to four sentences about the company: one offer of
	// each of its categories, its founding year and its exact head count.
	Description string
	// CountryCode is the ISO alpha-2 code of one of Countries.
	CountryCode string
	// City is one of the country's cities.
	City string
	// Categories are indexes into Categories, the first being the main one.
	Categories []int
	// Employees is the head count, 1 to 100,000, heavy-tailed (see
	// sizeBands) and no more than the company's age allows (see MinAge).
	Employees int
	// Founded is the founding year, EarliestFounded to LatestFounded.
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
	seed       int64
	n          int
	digits     int
	countries  cumulative
	cats       cumulative
	catWeights []int
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
		seed:       seed,
		n:          n,
		digits:     max(minIDDigits, len(strconv.Itoa(n-1))),
		countries:  newCumulative(cw),
		cats:       newCumulative(categoryWeights()),
		catWeights: categoryWeights(),
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
	c.Employees = headCount(r)
	c.Categories = g.pickCategories(r, c.Employees)

	main := Categories[c.Categories[0]]
	base := companyName(r, main)
	c.Name = base
	if suffix, ok := legalSuffixes[country.Code]; ok && r.IntN(10) < 3 {
		c.Name = base + " " + suffix
	}
	c.Domain = fmt.Sprintf("%s-%d.example", slug(base), num)
	c.Website = "https://www." + c.Domain

	c.Founded = foundedYear(r, MinAge(c.Employees))
	c.UpdatedAt = updatedEpoch.Add(-time.Duration(r.Int64N(int64(365*24*time.Hour/time.Millisecond))) * time.Millisecond)
	c.Description = describe(r, c)
	return c
}

// sizeBands is the head-count distribution, in thousandths of companies, log
// uniform within a band. It is heavy-tailed like real company catalogues —
// three companies in four have at most 50 staff, the median about a dozen —
// but keeps about 4% above 1,000 (1.3% above 5,000) rather than the 1% a
// national register would, so that searches for large companies in one
// country and category still find some in a 20,000-company demo.
var sizeBands = []struct{ lo, hi, perMille int }{
	{1, 1, 20},
	{2, 10, 430},
	{11, 50, 280},
	{51, 200, 140},
	{201, 500, 60},
	{501, 1000, 30},
	{1001, 5000, 27},
	{5001, 10_000, 7},
	{10_001, 100_000, 6},
}

// headCount draws a head count from sizeBands.
func headCount(r *rand.Rand) int {
	x := r.IntN(1000)
	for _, b := range sizeBands {
		if x >= b.perMille {
			x -= b.perMille
			continue
		}
		n := int(float64(b.lo) * math.Pow(float64(b.hi+1)/float64(b.lo), r.Float64()))
		return min(max(n, b.lo), b.hi)
	}
	panic("sizeBands do not add up to 1000")
}

// growthCaps is the most staff a company can plausibly have by its age in
// whole years (the index; the last entry holds for all older ones): fast
// growers reach hundreds in three years and ten thousand in a decade, not
// sooner.
var growthCaps = []int{20, 50, 200, 800, 1500, 2500, 4000, 6000, 8000, 10_000,
	30_000, 30_000, 30_000, 30_000, 30_000, 60_000, 60_000, 60_000, 60_000, 60_000, 100_000}

// MinAge returns the fewest whole years a company with the given head count
// has been in business at ReferenceDate.
func MinAge(employees int) int {
	for age, most := range growthCaps {
		if employees <= most {
			return age
		}
	}
	return len(growthCaps) - 1
}

// Age returns the fewest whole years a company founded in year founded can
// have been in business at ReferenceDate: one founded on the last day of
// 2023 is two years old on 2026-07-01, not three.
func Age(founded int) int {
	return ReferenceDate.Year() - 1 - founded
}

// foundedYear draws a founding year from 1950 at the earliest to the latest
// year that leaves a company minAge whole years old at ReferenceDate, skewed
// towards recent years as company registries are.
func foundedYear(r *rand.Rand, minAge int) int {
	latest := min(LatestFounded, ReferenceDate.Year()-1-minAge)
	return latest - int(float64(latest-EarliestFounded)*math.Pow(r.Float64(), 1.6))
}

// stream returns the random stream for one draw of the data set. stream 0 is
// a company's profile; others are derived for other uses (contacts).
func (g *Generator) stream(key, stream uint64) *rand.Rand {
	hi := splitmix(uint64(g.seed) ^ splitmix(stream))
	return rand.New(rand.NewPCG(hi, splitmix(key^hi)))
}

// pickCategories draws a main category and up to two more, each related to
// every category already drawn. Small teams do one or two things; larger
// companies more often three.
func (g *Generator) pickCategories(r *rand.Rand, employees int) []int {
	two, three := 80, 100 // per cent: below two is one category, below three two
	switch {
	case employees > 200:
		two, three = 40, 80
	case employees > 10:
		two, three = 55, 90
	}
	n := 3
	switch x := r.IntN(100); {
	case x < two:
		n = 1
	case x < three:
		n = 2
	}
	out := []int{g.cats.pick(r)}
	for len(out) < n {
		var fits []int
		for k := range Categories {
			if slices.Contains(out, k) {
				continue
			}
			related := true
			for _, have := range out {
				related = related && Related(have, k)
			}
			if related {
				fits = append(fits, k)
			}
		}
		if len(fits) == 0 {
			break
		}
		w := make([]int, len(fits))
		for i, k := range fits {
			w[i] = g.catWeights[k]
		}
		out = append(out, fits[newCumulative(w).pick(r)])
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

// companyName combines word lists in one of three familiar shapes, ending in
// a word of the main category.
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

// describe writes a short profile that states one offer of each of the
// company's categories, its founding year and exact head count, and maybe a
// closing sentence that fits its size, age and trade.
func describe(r *rand.Rand, c Company) string {
	var b strings.Builder
	offer := func(k int) string {
		cat := Categories[k]
		o := cat.Offers[r.IntN(len(cat.Offers))]
		return o.Verb + " " + o.What + " for " + o.For[r.IntN(len(o.For))]
	}
	fmt.Fprintf(&b, "%s %s.", c.Name, offer(c.Categories[0]))
	switch len(c.Categories) {
	case 2:
		fmt.Fprintf(&b, " It also %s.", offer(c.Categories[1]))
	case 3:
		fmt.Fprintf(&b, " It also %s, and %s.", offer(c.Categories[1]), offer(c.Categories[2]))
	}
	fmt.Fprintf(&b, " Founded in %d and headquartered in %s, the company employs %s.",
		c.Founded, c.City, headcount(c.Employees))
	if r.IntN(2) == 0 {
		var fit []string
		for _, s := range closingSentences {
			if s.fits(c) {
				fit = append(fit, s.text)
			}
		}
		if len(fit) > 0 {
			b.WriteString(" ")
			b.WriteString(fit[r.IntN(len(fit))])
		}
	}
	return b.String()
}

// headcount says a head count exactly, as the employee count field has it.
func headcount(n int) string {
	if n == 1 {
		return "1 person"
	}
	return thousands(n) + " people"
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
