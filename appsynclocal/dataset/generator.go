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
// The generator models companies rather than sentences, so that a profile
// passes as real to a sceptical reader: each company has one primary
// business line (a Line of the taxonomy) and was founded in that line's era;
// its other lines are of the same kind and in the same or an adjacent
// industry; its head count is drawn for its age and industry (young
// companies are small, large ones mostly old and in industries where large
// firms exist); its name is built from its business and its country's
// naming, and its description, in one of several shapes, states each line,
// the founding year and the exact head count. rules_test.go checks every
// rule over the whole default data set, and testdata/sample.txt is a sample a
// person has read (see SampleProfiles).
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
const Version = 6

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
	// Description is two to five sentences about the company: one offer of
	// each of its lines, its founding year and its exact head count.
	Description string
	// CountryCode is the ISO alpha-2 code of one of Countries.
	CountryCode string
	// City is one of the country's cities.
	City string
	// Lines are the company's business lines, indexes into Lines, the
	// first being the primary one.
	Lines []int
	// Categories are the industries of the lines, indexes into Categories,
	// the primary line's first.
	Categories []int
	// Employees is the head count, 1 to 100,000, heavy-tailed (see
	// headCount) and no more than the company's age allows (see GrowthCap).
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
//
// A company is drawn business first: its primary line (and with it its
// industry), then a founding year in the line's era, then a head count that
// fits its age and industry, then related lines of the same kind, then a
// name built from the line, then a description.
func (g *Generator) Company(num int) Company {
	r := g.stream(uint64(num), 0)
	c := Company{Num: num, ID: g.ID(num)}

	country := Countries[g.countries.pick(r)]
	c.CountryCode = country.Code
	cat := g.cats.pick(r)
	primary := linesOf[cat][r.IntN(len(linesOf[cat]))]
	c.City = pickCity(r, country.Cities)
	if hub := lineHubs[primary][country.Code]; len(hub) > 0 && r.IntN(10) < hubShare {
		c.City = hub[r.IntN(len(hub))]
	}
	c.Founded = foundedYear(r, Lines[primary].Offer)
	c.Employees = headCount(r, Age(c.Founded), Lines[primary].Offer, marketCap(country.Weight))
	c.Lines = pickLines(r, primary, c.Employees, Age(c.Founded))
	for _, l := range c.Lines {
		if k := Lines[l].Category; !slices.Contains(c.Categories, k) {
			c.Categories = append(c.Categories, k)
		}
	}

	base := companyName(r, Lines[primary], c.Founded, country.Code)
	c.Name = base
	if suffix, ok := legalSuffixes[country.Code]; ok && r.IntN(10) < 3 {
		c.Name = base + " " + suffix
	}
	c.Domain = fmt.Sprintf("%s-%d.example", slug(base), num)
	c.Website = "https://www." + c.Domain
	c.UpdatedAt = updatedEpoch.Add(-time.Duration(r.Int64N(int64(365*24*time.Hour/time.Millisecond))) * time.Millisecond)
	c.Description = describe(r, c)
	return c
}

// linesOf lists each category's lines, as indexes into Lines.
var linesOf = func() [][]int {
	out := make([][]int, len(Categories))
	for i, l := range Lines {
		out[l.Category] = append(out[l.Category], i)
	}
	return out
}()

// partners lists, for each line, the lines a company with it as primary may
// add: sharing a trade with it, in the same or an adjacent industry. Lines
// of its own industry come three times, so most companies stay in one.
var partners = func() [][]int {
	out := make([][]int, len(Lines))
	for i, a := range Lines {
		for j, b := range Lines {
			if i == j || !ShareTrade(a.Offer, b.Offer) || !Adjacent(a.Category, b.Category) {
				continue
			}
			n := 1
			if a.Category == b.Category {
				n = 3
			}
			for ; n > 0; n-- {
				out[i] = append(out[i], j)
			}
		}
	}
	return out
}()

// growthCaps is the most staff a company can have at an age in whole years
// (the index; the last entry holds for all older ones): no company younger
// than five years has more than 1,000, and ten thousand takes a decade.
var growthCaps = []int{12, 40, 120, 400, 1000, 2000, 3000, 4500, 6000, 8000,
	10_000, 15_000, 20_000, 25_000, 30_000, 40_000, 50_000, 60_000, 70_000, 85_000, 100_000}

// GrowthCap returns the most staff a company of the given age in whole
// years has.
func GrowthCap(age int) int {
	return growthCaps[min(max(age, 0), len(growthCaps)-1)]
}

// headCount draws a head count for a company of the given age whose primary
// line is o: log-normal, its median growing with age (four at founding,
// about twenty at ten years, sixty at fifty) and with the scale of the
// industry, and within the line's bounds and the company's growth cap. The
// long tail gives the few large companies, nearly all of them old and in
// industries where large firms exist.
func headCount(r *rand.Rand, age int, o Offer, market int) int {
	lo, hi := o.MinStaff, min(o.MaxStaff, GrowthCap(age), market)
	mu := math.Log(4) + 0.7*math.Log1p(float64(age)) + 0.3*math.Log(float64(o.MaxStaff)/5000)
	for try := 0; try < 4; try++ {
		n := int(math.Exp(mu + 1.8*r.NormFloat64()))
		if n >= lo && n <= hi {
			return n
		}
	}
	// Draws outside the bounds are spread over them, log-uniform, rather
	// than piled on either.
	return min(hi, int(float64(lo)*math.Pow(float64(hi)/float64(lo), r.Float64())))
}

// Age returns the fewest whole years a company founded in year founded can
// have been in business at ReferenceDate: one founded on the last day of
// 2023 is two years old on 2026-07-01, not three.
func Age(founded int) int {
	return ReferenceDate.Year() - 1 - founded
}

// foundedYear draws a founding year for a company whose primary line is o:
// from the line's era (or EarliestFounded) to LatestFounded, or as late as
// leaves it old enough to have the line's fewest staff, skewed towards
// recent years as company registries are.
func foundedYear(r *rand.Rand, o Offer) int {
	earliest, latest := max(o.Since, EarliestFounded), LatestFounded
	for latest > earliest && GrowthCap(Age(latest)) < o.MinStaff {
		latest--
	}
	return latest - int(float64(latest-earliest+1)*math.Pow(r.Float64(), 1.1))
}

// pickLines draws the company's lines: the primary one, and for larger
// companies more often one or two partners of it. A team of five or fewer
// does one thing, and a company younger than three years at most two.
func pickLines(r *rand.Rand, primary, employees, age int) []int {
	two, three := 75, 95 // per cent: below two is one line, below three two
	switch {
	case employees > 200:
		two, three = 35, 75
	case employees > 10:
		two, three = 55, 88
	}
	n := 3
	switch x := r.IntN(100); {
	case x < two:
		n = 1
	case x < three:
		n = 2
	}
	switch {
	case employees <= 5:
		n = 1
	case age < 3:
		n = min(n, 2)
	}
	out := make([]int, 1, n)
	out[0] = primary
	cands := partners[primary]
	for tries := 0; len(out) < n && len(cands) > 0 && tries < 8; tries++ {
		if l := cands[r.IntN(len(cands))]; !slices.Contains(out, l) && employees >= Lines[l].MinStaff {
			out = append(out, l)
		}
	}
	return out
}

// stream returns the random stream for one draw of the data set. stream 0 is
// a company's profile; others are derived for other uses (contacts).
func (g *Generator) stream(key, stream uint64) *rand.Rand {
	hi := splitmix(uint64(g.seed) ^ splitmix(stream))
	return rand.New(rand.NewPCG(hi, splitmix(key^hi)))
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

// pickCity favours a country's first (largest) city a little.
func pickCity(r *rand.Rand, cities []string) string {
	if r.IntN(6) == 0 {
		return cities[0]
	}
	return cities[r.IntN(len(cities))]
}

// companyName builds a name from the company's primary line and founding
// year in one of the shapes names have: after a place ("Silver Creek
// Foods"), a single word ("Summit Robotics"), a compound ("Brightpath
// Logistics"), a coined brand ("Kavora Health"), the founders ("Tanaka
// Logistics", "Hartley & Moss") or initials ("KTR Systems"). Older
// companies more often carry their founders' names or initials, younger
// ones coined words; every name ends in a word of the line that fits the
// founding year.
func companyName(r *rand.Rand, l Line, founded int, country string) string {
	words := l.NameWords()
	var fit []string
	for _, w := range words {
		if founded >= w.Since {
			fit = append(fit, w.Word)
		}
	}
	word := fit[r.IntN(len(fit))]
	// Weights of place, single, compound, brand, founders, initials.
	weights := [6]int{26, 4, 30, 30, 10, 0}
	switch {
	case founded < 1980:
		weights = [6]int{28, 4, 4, 4, 40, 20}
	case founded < 2000:
		weights = [6]int{30, 4, 20, 16, 22, 8}
	}
	x := r.IntN(100)
	style := 0
	for x >= weights[style] {
		x -= weights[style]
		style++
	}
	switch style {
	case 0:
		return placeFirst[r.IntN(len(placeFirst))] + " " + placeSecond[r.IntN(len(placeSecond))] + " " + word
	case 1:
		return nameStems[r.IntN(len(nameStems))] + " " + word
	case 2:
		return nameStems[r.IntN(len(nameStems))] + compoundRoots[r.IntN(len(compoundRoots))] + " " + word
	case 3:
		mid, end := brandMiddles[r.IntN(len(brandMiddles))], brandEnds[r.IntN(len(brandEnds))]
		if mid[len(mid)-1] == end[0] { // "Vebri" + "ix" is "Vebrix", not "Vebriix"
			end = end[1:]
		}
		return brandOnsets[r.IntN(len(brandOnsets))] + mid + end + " " + word
	case 4:
		names := founderSurnames[surnameRegion[country]]
		if names == nil {
			names = founderSurnames["anglo"]
		}
		a, b := names[r.IntN(len(names))], names[r.IntN(len(names))]
		if a == b || r.IntN(3) == 0 {
			return a + " " + word
		}
		return a + " & " + b + " " + word
	default:
		const letters = "ABCDEFGHIJKLMNOPRSTVW"
		var b [3]byte
		for i := range b {
			b[i] = letters[r.IntN(len(letters))]
		}
		return string(b[:]) + " " + word
	}
}

// describe writes a profile that states each of the company's lines, to a
// customer that fits, its founding year and exact head count, in one of
// several shapes, and maybe a closing sentence that fits its size, age and
// trade.
func describe(r *rand.Rand, c Company) string {
	offer := func(l int) string {
		o := Lines[l].Offer
		return o.Verb + " " + o.What + " for " + o.For[r.IntN(len(o.For))]
	}
	offers := make([]string, len(c.Lines))
	for i, l := range c.Lines {
		offers[i] = offer(l)
	}
	also := ""
	switch len(offers) {
	case 2:
		also = " It also " + offers[1] + "."
	case 3:
		also = " It also " + offers[1] + ", and " + offers[2] + "."
	}
	staff := headcount(c.Employees)
	var b strings.Builder
	b.Grow(400) // most descriptions fit: one allocation, no regrowth
	switch shape := r.IntN(9); {
	case shape == 0:
		fmt.Fprintf(&b, "%s %s.%s Founded in %d and headquartered in %s, the company employs %s.", c.Name, offers[0], also, c.Founded, c.City, staff)
	case shape == 1:
		fmt.Fprintf(&b, "Founded in %d, %s %s.%s The %s-based company employs %s.", c.Founded, c.Name, offers[0], also, c.City, staff)
	case shape == 2:
		fmt.Fprintf(&b, "%s is %s %s company that %s.%s It was founded in %d and employs %s.", c.Name, article(c.City), c.City, offers[0], also, c.Founded, staff)
	case shape == 3 && c.Employees >= 2 && c.Employees <= 20:
		fmt.Fprintf(&b, "%s is a team of %s in %s. It %s.%s The company was founded in %d.", c.Name, staff, c.City, offers[0], also, c.Founded)
	case shape == 4:
		fmt.Fprintf(&b, "%s, based in %s, %s.%s It employs %s and was founded in %d.", c.Name, c.City, offers[0], also, staff, c.Founded)
	case shape == 5:
		fmt.Fprintf(&b, "From its offices in %s, %s %s.%s Founded in %d, it now employs %s.", c.City, c.Name, offers[0], also, c.Founded, staff)
	case shape == 6:
		fmt.Fprintf(&b, "Founded in %d in %s, %s today %s.%s It employs %s.", c.Founded, c.City, c.Name, offers[0], also, staff)
	case shape == 7:
		fmt.Fprintf(&b, "%s %s.%s The company, founded in %d, employs %s at its %s headquarters.", c.Name, offers[0], also, c.Founded, staff, c.City)
	default:
		fmt.Fprintf(&b, "Headquartered in %s, %s %s.%s The company was founded in %d and employs %s.", c.City, c.Name, offers[0], also, c.Founded, staff)
	}
	if pool := apartOf(Lines[c.Lines[0]]); len(pool) > 0 && r.IntN(10) < 8 {
		if s := pool[r.IntN(len(pool))]; s[0] != '+' {
			b.WriteString(" ")
			b.WriteString(s)
		} else if c.Employees >= minTeam {
			b.WriteString(" ")
			b.WriteString(s[1:])
		}
	}
	reached := r.IntN(10) < 6
	if reached {
		pool := reachOf(Lines[c.Lines[0]], c.Employees)
		if s := pool[r.IntN(len(pool))]; s[0] != '+' {
			b.WriteString(" ")
			b.WriteString(s)
		} else if c.Employees >= minTeam {
			b.WriteString(" ")
			b.WriteString(s[1:])
		}
	}
	if r.IntN(5) < 2 {
		var fit [16]string // at least len(closingSentences)
		n := 0
		for _, s := range closingSentences {
			// Where the company sells was said already: no second,
			// maybe contrary, word on it.
			if s.fits(c) && !(reached && s.international) {
				fit[n] = s.text
				n++
			}
		}
		if n > 0 {
			b.WriteString(" ")
			b.WriteString(fit[r.IntN(n)])
		}
	}
	return b.String()
}

// article is "a" or "an" before a word.
func article(word string) string {
	if word != "" && strings.ContainsRune("AEIOU", rune(word[0])) {
		return "an"
	}
	return "a"
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
// by hyphens ("Hartley & Moss Logistics" → "hartley-moss-logistics"), with
// the accented letters of founders' names spelled plainly ("Krüger" →
// "kruger").
func slug(name string) string {
	var b strings.Builder
	hyphen := false
	for _, c := range strings.ToLower(name) {
		if plain, ok := plainLetters[c]; ok {
			c = plain
		}
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			if hyphen && b.Len() > 0 {
				b.WriteByte('-')
			}
			hyphen = false
			b.WriteRune(c)
		default:
			hyphen = true
		}
	}
	return b.String()
}

// plainLetters spells the accented letters of the word lists in ASCII.
var plainLetters = map[rune]rune{
	'ä': 'a', 'ą': 'a', 'é': 'e', 'ę': 'e', 'ł': 'l', 'ń': 'n', 'ó': 'o', 'ö': 'o', 'õ': 'o',
	'ś': 's', 'ü': 'u', 'ź': 'z', 'ż': 'z',
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
