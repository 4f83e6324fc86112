package dataset_test

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/appsynclocal"
	"github.com/companyintel/mcp-server/appsynclocal/dataset"
)

// The rules every generated data set keeps (issues 16 and 27). They are
// checked over the whole default data set, and TestRulesCatchViolations
// shows each check fails on a company or a data set that breaks it.
//
// Stated exactly:
//   - a company is founded no earlier than its primary line's era (Since);
//   - no company younger than five whole years at ReferenceDate has more
//     than 1,000 staff, and none more than GrowthCap of its age or outside
//     its primary line's MinStaff..MaxStaff;
//   - a company's lines are one to three distinct lines; every other line
//     shares a trade with the primary one and is in the primary line's
//     industry or one adjacent to it (dataset.Adjacent's table);
//   - its categories are exactly its lines' industries;
//   - its name ends in (before any legal suffix) a name word of its primary
//     line that fits its founding year;
//   - its description offers each of its lines to a customer that fits and
//     no other line, and states its founding year and exact head count;
//   - at most 1% of companies share their name (without legal suffix) with
//     another company in the same country;
//   - head counts are heavy-tailed, grow with age, and every category and
//     common country keeps companies in each size band.

// TestDefaultDataSetKeepsTheRules generates the default 20,000 companies and
// checks every rule on every company and over the whole set.
func TestDefaultDataSetKeepsTheRules(t *testing.T) {
	g, err := dataset.New(appsynclocal.DefaultSeed, appsynclocal.DefaultCompanies)
	require.NoError(t, err)
	companies := make([]dataset.Company, g.Len())
	var bad []string
	for i := range companies {
		companies[i] = g.Company(i)
		for _, v := range companyViolations(companies[i]) {
			bad = append(bad, companies[i].ID+": "+v)
		}
	}
	bad = append(bad, setViolations(companies)...)
	if len(bad) > 0 {
		t.Errorf("%d rule violations, the first ones:\n%s", len(bad), strings.Join(bad[:min(len(bad), 20)], "\n"))
	}
	t.Logf("median head count %d; %.2f%% above 1,000, %.2f%% above 5,000; %.2f%% share a name in their country",
		median(companies), 100*share(companies, 1000), 100*share(companies, 5000), 100*sharedNames(companies))
}

var (
	foundedRE = regexp.MustCompile(`(?i)\bfounded in (\d{4})\b`)
	employsRE = regexp.MustCompile(`(?:employs|a team of) ([\d,]+) (?:people|person)\b`)
)

// companyViolations checks one profile against the rules.
func companyViolations(c dataset.Company) []string {
	var out []string
	bad := func(format string, a ...any) { out = append(out, fmt.Sprintf(format, a...)) }

	if !strings.HasSuffix(c.Domain, ".example") || c.Website != "https://www."+c.Domain {
		bad("domain %q / website %q not on the reserved .example TLD", c.Domain, c.Website)
	}
	if c.Employees < 1 || c.Employees > 100_000 {
		bad("head count %d outside 1-100,000", c.Employees)
	}
	if c.Founded < dataset.EarliestFounded || c.Founded > dataset.LatestFounded {
		bad("founded %d outside %d-%d", c.Founded, dataset.EarliestFounded, dataset.LatestFounded)
	}
	if len(c.Lines) < 1 || len(c.Lines) > 3 {
		bad("%d lines, want 1-3", len(c.Lines))
		return out
	}
	primary := dataset.Lines[c.Lines[0]]
	if c.Founded < primary.Since {
		bad("founded %d, before its primary line %q existed (%d)", c.Founded, primary.What, primary.Since)
	}
	// Age against the reference date, counted in whole years the company
	// has surely existed.
	age := dataset.Age(c.Founded)
	if age < 5 && c.Employees > 1000 {
		bad("%d staff at %d years old (founded %d): above 1,000 needs five years", c.Employees, age, c.Founded)
	}
	if c.Employees > dataset.GrowthCap(age) {
		bad("%d staff at %d years old: above the growth cap %d", c.Employees, age, dataset.GrowthCap(age))
	}
	if c.Employees > dataset.MarketCap(c.CountryCode) {
		bad("%d staff in %s: above its home market's cap %d", c.Employees, c.CountryCode, dataset.MarketCap(c.CountryCode))
	}
	if !slices.Contains(c.Country().Cities, c.City) {
		bad("city %q is not one of %s's", c.City, c.CountryCode)
	}
	if c.Employees < primary.MinStaff || c.Employees > primary.MaxStaff {
		bad("%d staff, outside %d-%d for a company mainly doing %q", c.Employees, primary.MinStaff, primary.MaxStaff, primary.What)
	}

	var cats []int
	for i, l := range c.Lines {
		line := dataset.Lines[l]
		if !slices.Contains(cats, line.Category) {
			cats = append(cats, line.Category)
		}
		if slices.Contains(c.Lines[:i], l) {
			bad("line %q twice", line.What)
		}
		if i == 0 {
			continue
		}
		if !dataset.Adjacent(primary.Category, line.Category) {
			bad("line %q is in %s, neither %s nor adjacent to it", line.What,
				dataset.Categories[line.Category].Name, dataset.Categories[primary.Category].Name)
		}
		if !dataset.ShareTrade(primary.Offer, line.Offer) {
			bad("line %q shares no trade with the primary line %q", line.What, primary.What)
		}
	}
	if !slices.Equal(cats, c.Categories) {
		bad("categories %v, but the lines' industries are %v", c.Categories, cats)
	}

	base := baseName(c)
	if !slices.ContainsFunc(primary.NameWords(), func(w dataset.NameWord) bool {
		return strings.HasSuffix(base, " "+w.Word) && c.Founded >= w.Since
	}) {
		bad("name %q ends in none of the name words %v of %q founded in %d", c.Name, primary.NameWords(), primary.What, c.Founded)
	}

	// Every line carried is something the description says the company
	// does, to a customer that fits; no other line's offer appears.
	for l, line := range dataset.Lines {
		carried := slices.Contains(c.Lines, l)
		said := strings.Contains(c.Description, line.What)
		if !carried && !said {
			continue
		}
		fits := slices.ContainsFunc(line.For, func(f string) bool {
			return strings.Contains(c.Description, line.Verb+" "+line.What+" for "+f)
		})
		switch {
		case carried && !said:
			bad("has line %q but the description does not say it: %q", line.What, c.Description)
		case carried && !fits:
			bad("the description's %q offer has a customer that does not fit: %q", line.What, c.Description)
		case !carried && said:
			bad("the description offers %q, a line it does not have: %q", line.What, c.Description)
		}
	}
	// The description's facts are the fields'.
	if m := foundedRE.FindAllStringSubmatch(c.Description, -1); len(m) != 1 || m[0][1] != strconv.Itoa(c.Founded) {
		bad("founded %d, but the description says %v", c.Founded, m)
	}
	if m := employsRE.FindAllStringSubmatch(c.Description, -1); len(m) != 1 || strings.ReplaceAll(m[0][1], ",", "") != strconv.Itoa(c.Employees) {
		bad("%d staff, but the description says %v", c.Employees, m)
	}
	return out
}

// baseName is a company's name without its country's legal suffix.
func baseName(c dataset.Company) string {
	return strings.TrimSuffix(c.Name, " "+dataset.LegalSuffix(c.CountryCode))
}

// Coverage the demo's searches need, in the default data set: companies in
// every size band in every category and common country.
const (
	minLargePerCategory = 5  // above 1,000 staff
	minMidPerCategory   = 50 // 51 to 1,000
	minSmallPerCategory = 50 // 1 to 50
	minLargePerCountry  = 5  // in countries of weight commonCountryWeight and up
	commonCountryWeight = 20
	maxSharedNames      = 0.01
)

// setViolations checks the distribution of a whole data set.
func setViolations(cs []dataset.Company) []string {
	var out []string
	if m := median(cs); m > 50 {
		out = append(out, fmt.Sprintf("median head count %d, want at most 50", m))
	}
	if s := share(cs, 5000); s > 0.02 {
		out = append(out, fmt.Sprintf("%.2f%% of companies above 5,000 staff, want at most 2%%", 100*s))
	}
	if s := sharedNames(cs); s > maxSharedNames {
		out = append(out, fmt.Sprintf("%.2f%% of companies share their name with another in their country, want at most %.0f%%", 100*s, 100*maxSharedNames))
	}
	// Head count grows with age: the median of companies founded before
	// 1990 is at least three times that of companies founded since 2015.
	var old, young []dataset.Company
	for _, c := range cs {
		switch {
		case c.Founded < 1990:
			old = append(old, c)
		case c.Founded >= 2015:
			young = append(young, c)
		}
	}
	if len(old) > 0 && len(young) > 0 && median(old) < 3*median(young) {
		out = append(out, fmt.Sprintf("median head count %d founded before 1990 and %d since 2015: size does not grow with age", median(old), median(young)))
	}

	type bands struct{ small, mid, large int }
	perCategory := make([]bands, len(dataset.Categories))
	perCountry := map[string]int{}
	for _, c := range cs {
		for _, k := range c.Categories {
			switch b := &perCategory[k]; {
			case c.Employees > 1000:
				b.large++
			case c.Employees > 50:
				b.mid++
			default:
				b.small++
			}
		}
		if c.Employees > 1000 {
			perCountry[c.CountryCode]++
		}
	}
	for k, b := range perCategory {
		name := dataset.Categories[k].Name
		if b.large < minLargePerCategory {
			out = append(out, fmt.Sprintf("%d companies above 1,000 staff in %s, want at least %d", b.large, name, minLargePerCategory))
		}
		if b.mid < minMidPerCategory {
			out = append(out, fmt.Sprintf("%d companies of 51-1,000 staff in %s, want at least %d", b.mid, name, minMidPerCategory))
		}
		if b.small < minSmallPerCategory {
			out = append(out, fmt.Sprintf("%d companies of at most 50 staff in %s, want at least %d", b.small, name, minSmallPerCategory))
		}
	}
	for _, co := range dataset.Countries {
		if n := perCountry[co.Code]; co.Weight >= commonCountryWeight && n < minLargePerCountry {
			out = append(out, fmt.Sprintf("%d companies above 1,000 staff in %s, want at least %d", n, co.Name, minLargePerCountry))
		}
	}
	return out
}

// sharedNames is the fraction of companies whose name, without legal
// suffix, another company in the same country also has.
func sharedNames(cs []dataset.Company) float64 {
	n := map[string]int{}
	for _, c := range cs {
		n[c.CountryCode+"\x00"+baseName(c)]++
	}
	shared := 0
	for _, k := range n {
		if k > 1 {
			shared += k
		}
	}
	return float64(shared) / float64(len(cs))
}

func median(cs []dataset.Company) int {
	e := make([]int, len(cs))
	for i, c := range cs {
		e[i] = c.Employees
	}
	slices.Sort(e)
	return e[len(e)/2]
}

// share is the fraction of companies with more than n staff.
func share(cs []dataset.Company, n int) float64 {
	above := 0
	for _, c := range cs {
		if c.Employees > n {
			above++
		}
	}
	return float64(above) / float64(len(cs))
}

// TestRulesCatchViolations breaks one rule at a time in a good company (or
// data set) and checks the rules report it, so a generator change that
// breaks a rule cannot pass TestDefaultDataSetKeepsTheRules.
func TestRulesCatchViolations(t *testing.T) {
	g, err := dataset.New(1, 5000)
	require.NoError(t, err)
	var good, multi dataset.Company
	for i := 0; i < g.Len(); i++ {
		c := g.Company(i)
		if c.Employees > 20 && c.Employees < 500 && c.Founded < 2000 && len(c.Lines) == 1 && good.ID == "" &&
			strings.Contains(c.Description, "employs") {
			good = c
		}
		if len(c.Lines) == 2 && multi.ID == "" {
			multi = c
		}
	}
	require.NotEmpty(t, good.ID)
	require.NotEmpty(t, multi.ID)
	require.Empty(t, companyViolations(good))
	require.Empty(t, companyViolations(multi))

	staff := func(c *dataset.Company, n, founded int) {
		c.Description = strings.Replace(c.Description, thousands(c.Employees)+" people", thousands(n)+" people", 1)
		c.Description = strings.Replace(c.Description, "ounded in "+strconv.Itoa(c.Founded), "ounded in "+strconv.Itoa(founded), 1)
		c.Employees, c.Founded = n, founded
	}
	ai := lineOf(t, "a generative AI assistant")
	for name, tc := range map[string]struct {
		from   *dataset.Company
		change func(c *dataset.Company)
		want   string
	}{
		"young and large": {&good, func(c *dataset.Company) { staff(c, 1500, 2023) }, "above 1,000 needs five years"},
		"founded before the line existed": {&good, func(c *dataset.Company) {
			l := dataset.Lines[ai]
			c.Lines, c.Categories = []int{ai}, []int{l.Category}
			c.Name = "Summit AI"
			c.Description = "Summit AI develops a generative AI assistant for knowledge workers. Founded in 1974 and headquartered in " +
				c.City + ", the company employs 2 people."
			c.Employees, c.Founded = 2, 1974
		}, "before its primary line"},
		"larger than the line allows": {&good, func(c *dataset.Company) {
			staff(c, dataset.Lines[c.Lines[0]].MaxStaff+1, 1960)
		}, "for a company mainly doing"},
		"larger than its home market allows": {&good, func(c *dataset.Company) {
			staff(c, 9000, 1960)
			c.CountryCode, c.City = "EE", "Tallinn"
		}, "above its home market's cap"},
		"a city of another country":           {&good, func(c *dataset.Company) { c.CountryCode, c.City = "EE", "Houston" }, "is not one of EE's"},
		"head count not the description's":    {&good, func(c *dataset.Company) { c.Employees++ }, "but the description says"},
		"founding year not the description's": {&good, func(c *dataset.Company) { c.Founded-- }, "but the description says"},
		"line not described": {&good, func(c *dataset.Company) {
			c.Lines = append(c.Lines, partnerOf(c.Lines[0]))
			c.Categories = appendNew(c.Categories, dataset.Lines[c.Lines[1]].Category)
		}, "the description does not say it"},
		"description offers a line it does not have": {&good, func(c *dataset.Company) {
			c.Description += " It also operates a podcast network for listeners."
		}, "a line it does not have"},
		"offer to a customer that does not fit": {&multi, func(c *dataset.Company) {
			l := dataset.Lines[c.Lines[1]]
			c.Description = strings.Replace(c.Description, l.What+" for ", l.What+" for penguins and ", 1)
			for _, f := range l.For {
				c.Description = strings.Replace(c.Description, l.What+" for penguins and "+f, l.What+" for penguins", 1)
			}
		}, "customer that does not fit"},
		"line of an industry not adjacent": {&multi, func(c *dataset.Company) {
			far := farLine(c.Lines[0])
			c.Lines[1], c.Categories = far, appendNew(c.Categories[:1], dataset.Lines[far].Category)
		}, "neither"},
		"line of another trade": {&multi, func(c *dataset.Company) {
			other := otherTrade(c.Lines[0])
			c.Lines[1], c.Categories = other, appendNew(c.Categories[:1], dataset.Lines[other].Category)
		}, "shares no trade"},
		"categories not the lines'": {&good, func(c *dataset.Company) {
			c.Categories = append(c.Categories, (c.Categories[0]+1)%len(dataset.Categories))
		}, "but the lines' industries"},
		"name of another trade": {&good, func(c *dataset.Company) {
			c.Name = strings.ReplaceAll(baseName(*c), " ", "") + " Kitchen"
		}, "ends in none of the name words"},
		"real domain": {&good, func(c *dataset.Company) { c.Domain, c.Website = "example.com", "https://www.example.com" }, ".example TLD"},
	} {
		t.Run(name, func(t *testing.T) {
			c := *tc.from
			c.Lines, c.Categories = slices.Clone(c.Lines), slices.Clone(c.Categories)
			tc.change(&c)
			assert.True(t, slices.ContainsFunc(companyViolations(c), func(v string) bool { return strings.Contains(v, tc.want) }),
				"want a violation containing %q, got %q", tc.want, companyViolations(c))
		})
	}

	t.Run("sizes unrelated to age, few large, names repeated", func(t *testing.T) {
		cs := make([]dataset.Company, 1000)
		for i := range cs {
			cs[i] = dataset.Company{Employees: 1 + i*i/10, Founded: 1950 + i%70, CountryCode: "US", Categories: []int{0},
				Name: "Summit Software " + strconv.Itoa(i%900)}
		}
		v := strings.Join(setViolations(cs), "\n")
		assert.Contains(t, v, "median head count")
		assert.Contains(t, v, "above 5,000 staff")
		assert.Contains(t, v, "above 1,000 staff in Fintech")
		assert.Contains(t, v, "above 1,000 staff in Germany")
		assert.Contains(t, v, "share their name")
		assert.Contains(t, v, "size does not grow with age")
	})
}

func lineOf(t *testing.T, what string) int {
	i := slices.IndexFunc(dataset.Lines, func(l dataset.Line) bool { return l.What == what })
	require.GreaterOrEqual(t, i, 0, what)
	return i
}

// partnerOf is a line that may go with line l.
func partnerOf(l int) int {
	for j, b := range dataset.Lines {
		if j != l && dataset.ShareTrade(dataset.Lines[l].Offer, b.Offer) && dataset.Adjacent(dataset.Lines[l].Category, b.Category) {
			return j
		}
	}
	panic("no partner")
}

// farLine is a line sharing a trade with l in an industry not adjacent to
// l's, or, if there is none, any line in such an industry.
func farLine(l int) int {
	for j, b := range dataset.Lines {
		if !dataset.Adjacent(dataset.Lines[l].Category, b.Category) {
			return j
		}
	}
	panic("every industry is adjacent")
}

// otherTrade is a line in l's industry sharing no trade with it.
func otherTrade(l int) int {
	for j, b := range dataset.Lines {
		if j != l && b.Category == dataset.Lines[l].Category && !dataset.ShareTrade(dataset.Lines[l].Offer, b.Offer) {
			return j
		}
	}
	panic("no line of another trade")
}

func appendNew(s []int, v int) []int {
	if slices.Contains(s, v) {
		return s
	}
	return append(s, v)
}

func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// TestTheTaxonomyIsWellFormed keeps the description check sound (an offer
// names one line, and no offer hides inside another) and the adjacency
// table meaningful: symmetric, and leaving most pairs of industries apart.
func TestTheTaxonomyIsWellFormed(t *testing.T) {
	var whats []string
	for _, l := range dataset.Lines {
		require.NotEmpty(t, l.For, l.What)
		require.NotEmpty(t, l.NameWords(), l.What)
		assert.GreaterOrEqual(t, l.Since, dataset.EarliestFounded, l.What)
		assert.LessOrEqual(t, l.Since, dataset.LatestFounded, l.What)
		assert.True(t, l.MinStaff >= 1 && l.MinStaff <= l.MaxStaff, l.What)
		assert.True(t, slices.ContainsFunc(l.NameWords(), func(w dataset.NameWord) bool { return w.Since <= l.Since }),
			"%q: no name word fits a company founded in %d", l.What, l.Since)
		whats = append(whats, l.What)
	}
	for i, a := range whats {
		for j, b := range whats {
			assert.False(t, i != j && strings.Contains(a, b), "offer %q contains offer %q", a, b)
		}
	}
	pairs, adjacent := 0, 0
	for a := range dataset.Categories {
		for b := range dataset.Categories {
			assert.Equal(t, dataset.Adjacent(a, b), dataset.Adjacent(b, a), "adjacency of %d and %d is not symmetric", a, b)
			if a != b {
				pairs++
				if dataset.Adjacent(a, b) {
					adjacent++
				}
			}
		}
		assert.True(t, dataset.Adjacent(a, a))
	}
	assert.Less(t, adjacent*4, pairs, "more than a quarter of industry pairs are adjacent: the table separates little")
	// The pairs the issue found in the old data are apart now.
	for _, pair := range [][2]string{{"Biotech", "Agriculture"}, {"Software", "Manufacturing"}, {"Manufacturing", "Climate Tech"}} {
		_, a, _ := dataset.CategoryByName(pair[0])
		_, b, _ := dataset.CategoryByName(pair[1])
		if pair[1] == "Climate Tech" { // adjacent industries, but not one trade
			assert.False(t, dataset.ShareTrade(dataset.Lines[lineOf(t, "precision machined components")].Offer, dataset.Lines[lineOf(t, "green hydrogen")].Offer))
			continue
		}
		assert.False(t, dataset.Adjacent(a, b), "%s and %s", pair[0], pair[1])
	}
}
