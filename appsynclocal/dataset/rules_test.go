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

// The rules every generated data set keeps (issue 16). They are checked over
// the whole default data set, and TestRulesCatchViolations shows each check
// fails on a company or a data set that breaks it.

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
	t.Logf("median head count %d; %.2f%% above 5,000", median(companies), 100*share(companies, 5000))
}

var (
	foundedRE = regexp.MustCompile(`Founded in (\d{4})\b`)
	employsRE = regexp.MustCompile(`employs ([\d,]+) (?:people|person)\b`)
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
	// Age against the reference date, counted in whole years the company
	// has surely existed.
	age := dataset.ReferenceDate.Year() - 1 - c.Founded
	if c.Employees > 500 && age < 3 {
		bad("%d staff at %d years old (founded %d): above 500 needs three years", c.Employees, age, c.Founded)
	}
	if c.Employees > 10_000 && age < 10 {
		bad("%d staff at %d years old (founded %d): above 10,000 needs ten years", c.Employees, age, c.Founded)
	}

	if len(c.Categories) < 1 || len(c.Categories) > 3 {
		bad("%d categories, want 1-3", len(c.Categories))
		return out
	}
	for i, a := range c.Categories {
		for _, b := range c.Categories[i+1:] {
			if a == b {
				bad("category %s twice", dataset.Categories[a].Name)
			} else if !dataset.Related(a, b) {
				bad("unrelated categories %s and %s", dataset.Categories[a].Name, dataset.Categories[b].Name)
			}
		}
	}
	main := dataset.Categories[c.Categories[0]]
	if !slices.ContainsFunc(main.NameWords, func(w string) bool { return strings.Contains(c.Name+" ", " "+w+" ") }) {
		bad("name %q has none of %s's name words %v", c.Name, main.Name, main.NameWords)
	}
	// Every category carried is something the description says the company
	// does, to a customer that fits; no other category's offer appears.
	for k, cat := range dataset.Categories {
		carried := slices.Contains(c.Categories, k)
		said, fits := false, false
		for _, o := range cat.Offers {
			if strings.Contains(c.Description, o.What) {
				said = true
				fits = fits || slices.ContainsFunc(o.For, func(f string) bool {
					return strings.Contains(c.Description, o.Verb+" "+o.What+" for "+f)
				})
			}
		}
		switch {
		case carried && !said:
			bad("carries %s but the description says nothing it does: %q", cat.Name, c.Description)
		case carried && !fits:
			bad("the description's %s offer has a customer that does not fit: %q", cat.Name, c.Description)
		case !carried && said:
			bad("the description offers %s, a category it does not carry: %q", cat.Name, c.Description)
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

// Coverage the demo's size searches need: companies above 1,000 staff in
// every category and in every country with at least 2% of companies.
const (
	minLargePerCategory = 20
	minLargePerCountry  = 10
	commonCountryWeight = 20
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
	perCategory := make([]int, len(dataset.Categories))
	perCountry := map[string]int{}
	for _, c := range cs {
		if c.Employees > 1000 {
			perCountry[c.CountryCode]++
			for _, k := range c.Categories {
				perCategory[k]++
			}
		}
	}
	for k, n := range perCategory {
		if n < minLargePerCategory {
			out = append(out, fmt.Sprintf("%d companies above 1,000 staff in %s, want at least %d", n, dataset.Categories[k].Name, minLargePerCategory))
		}
	}
	for _, co := range dataset.Countries {
		if n := perCountry[co.Code]; co.Weight >= commonCountryWeight && n < minLargePerCountry {
			out = append(out, fmt.Sprintf("%d companies above 1,000 staff in %s, want at least %d", n, co.Name, minLargePerCountry))
		}
	}
	return out
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
	g, err := dataset.New(1, 2000)
	require.NoError(t, err)
	var good, multi dataset.Company
	for i := 0; i < g.Len(); i++ {
		c := g.Company(i)
		if c.Employees > 20 && c.Employees < 500 && c.Founded < 2000 && len(c.Categories) == 1 && good.ID == "" {
			good = c
		}
		if len(c.Categories) == 2 && multi.ID == "" {
			multi = c
		}
	}
	require.NotEmpty(t, good.ID)
	require.NotEmpty(t, multi.ID)
	require.Empty(t, companyViolations(good))
	require.Empty(t, companyViolations(multi))

	robotics, fintech, food := catIndex(t, "Robotics"), catIndex(t, "Fintech"), catIndex(t, "Food & Beverage")
	for name, tc := range map[string]struct {
		change func(c *dataset.Company)
		want   string
	}{
		"young and large": {func(c *dataset.Company) {
			c.Employees, c.Founded = 800, 2024
			c.Description = strings.Replace(c.Description, thousands(good.Employees)+" people", "800 people", 1)
			c.Description = strings.Replace(c.Description, "Founded in "+strconv.Itoa(good.Founded), "Founded in 2024", 1)
		}, "above 500 needs three years"},
		"under ten and huge": {func(c *dataset.Company) {
			c.Employees, c.Founded = 20_000, 2018
			c.Description = strings.Replace(c.Description, thousands(good.Employees)+" people", "20,000 people", 1)
			c.Description = strings.Replace(c.Description, "Founded in "+strconv.Itoa(good.Founded), "Founded in 2018", 1)
		}, "above 10,000 needs ten years"},
		"head count not the description's":    {func(c *dataset.Company) { c.Employees++ }, "but the description says"},
		"founding year not the description's": {func(c *dataset.Company) { c.Founded-- }, "but the description says"},
		"category not described": {func(c *dataset.Company) {
			c.Categories = append(c.Categories, firstRelated(c.Categories[0]))
		}, "says nothing it does"},
		"description offers an uncarried category": {func(c *dataset.Company) {
			c.Description += " It also " + "operates a payments platform for banks."
			if slices.Contains(c.Categories, fintech) {
				c.Description += " It also builds autonomous mobile robots for warehouses."
			}
		}, "a category it does not carry"},
		"offer to a customer that does not fit": {func(c *dataset.Company) {
			c.Categories = []int{robotics}
			c.Name = "Summit Robotics"
			c.Description = "Summit Robotics develops surgical robots for farms. Founded in " + strconv.Itoa(c.Founded) +
				" and headquartered in " + c.City + ", the company employs " + thousands(c.Employees) + " people."
		}, "customer that does not fit"},
		"unrelated categories": {func(c *dataset.Company) {
			c.Categories = []int{robotics, food}
			c.Name = "Summit Robotics"
			c.Description = "Summit Robotics makes robotic arms for factories. It also roasts specialty coffee for offices. Founded in " +
				strconv.Itoa(c.Founded) + " and headquartered in " + c.City + ", the company employs " + thousands(c.Employees) + " people."
		}, "unrelated categories"},
		"name of another trade": {func(c *dataset.Company) {
			c.Name = strings.Replace(c.Name, " ", "", -1) + " Kitchen"
		}, "name words"},
		"real domain": {func(c *dataset.Company) { c.Domain, c.Website = "example.com", "https://www.example.com" }, ".example TLD"},
	} {
		t.Run(name, func(t *testing.T) {
			c := good
			if name == "unrelated categories" || name == "offer to a customer that does not fit" {
				c = multi
			}
			c.Categories = slices.Clone(c.Categories)
			tc.change(&c)
			assert.True(t, slices.ContainsFunc(companyViolations(c), func(v string) bool { return strings.Contains(v, tc.want) }),
				"want a violation containing %q, got %q", tc.want, companyViolations(c))
		})
	}

	t.Run("old log-uniform head counts", func(t *testing.T) {
		cs := make([]dataset.Company, 1000)
		for i := range cs {
			cs[i] = dataset.Company{Employees: 1 + i*i/10, CountryCode: "US", Categories: []int{0}}
		}
		v := strings.Join(setViolations(cs), "\n")
		assert.Contains(t, v, "median head count")
		assert.Contains(t, v, "above 5,000 staff")
		assert.Contains(t, v, "above 1,000 staff in Fintech")
		assert.Contains(t, v, "above 1,000 staff in Germany")
	})
}

func catIndex(t *testing.T, name string) int {
	_, k, ok := dataset.CategoryByName(name)
	require.True(t, ok, name)
	return k
}

func firstRelated(k int) int {
	for j := range dataset.Categories {
		if j != k && dataset.Related(k, j) {
			return j
		}
	}
	panic("no related category")
}

func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// TestOffersAreUnique keeps the description check sound: an offer names one
// category, and no offer hides inside another.
func TestOffersAreUnique(t *testing.T) {
	var whats []string
	for _, c := range dataset.Categories {
		require.NotEmpty(t, c.Offers, c.Name)
		for _, o := range c.Offers {
			require.NotEmpty(t, o.For, o.What)
			whats = append(whats, o.What)
		}
		for _, r := range c.Related {
			_, _, ok := dataset.CategoryByName(r)
			assert.True(t, ok, "%s lists unknown related category %q", c.Name, r)
		}
	}
	for i, a := range whats {
		for j, b := range whats {
			assert.False(t, i != j && strings.Contains(a, b), "offer %q contains offer %q", a, b)
		}
	}
}
