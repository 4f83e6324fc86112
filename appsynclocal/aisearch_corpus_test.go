package appsynclocal_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/appsynclocal"
	"github.com/companyintel/mcp-server/appsynclocal/dataset"
)

// Issue 38: a corpus of sentences a person would write, in classes, each
// with the reading it must get. Every reading is checked against the
// backend's own filtered search: searchCompanies with the filters,
// exclusions, bounds, order and page size aiSearch says it applied must
// return the same companies and the same total. Across the corpus: no
// company of an excluded set is ever an answer, and no answer with
// anything not applied says its total answers the question.

// want is the reading a sentence must get; nil slices are checked as empty.
type want struct {
	class    string
	filters  []string // countries and categories, any order
	excluded []string
	min, max int
	from, to int
	sort     string // GraphQL CompanySort, "" for relevance
	limit    int    // 0: the default page
	dropped  []string
	named    string // the id of a company that must be among the answers
	noKeys   bool   // no keyword may remain
	second   bool   // a second question was set aside
	howMany  bool
}

type aiAnswer struct {
	Items []struct {
		ID          string   `json:"id"`
		Name        string   `json:"name"`
		CountryCode string   `json:"countryCode"`
		Categories  []string `json:"categories"`
	} `json:"items"`
	Interpretation  string   `json:"interpretation"`
	AppliedFilters  []string `json:"appliedFilters"`
	ExcludedFilters []string `json:"excludedFilters"`
	Keywords        *string  `json:"keywords"`
	MinEmployees    *int     `json:"minEmployees"`
	MaxEmployees    *int     `json:"maxEmployees"`
	FoundedAfter    *int     `json:"foundedAfter"`
	FoundedBefore   *int     `json:"foundedBefore"`
	Sort            *string  `json:"sort"`
	Limit           *int     `json:"limit"`
	ExactCount      *bool    `json:"exactCount"`
	NotApplied      []string `json:"notApplied"`
	Total           int      `json:"total"`
	TotalIsLower    bool     `json:"totalIsLowerBound"`
}

func regionFilters(name string) []string {
	r, ok := dataset.RegionByName(name)
	if !ok {
		panic(name)
	}
	out := make([]string, len(r.Codes))
	for i, code := range r.Codes {
		c, _ := dataset.CountryByCode(code)
		out[i] = "countries;" + c.Name
	}
	return out
}

func country(names ...string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = "countries;" + n
	}
	return out
}

func cat(name string) string { return "categories;" + name }

func plus(a []string, b ...string) []string { return append(slices.Clone(a), b...) }

func minus(a []string, b ...string) []string {
	return slices.DeleteFunc(slices.Clone(a), func(s string) bool { return slices.Contains(b, s) })
}

// corpus builds the sentences. names are companies of the test data set,
// for the sentences that name one.
func corpus(names []dataset.Company) map[string]want {
	c := map[string]want{}
	add := func(s string, w want) {
		if _, dup := c[s]; dup {
			panic("duplicate corpus sentence: " + s)
		}
		c[s] = w
	}
	cats := []struct{ said, name string }{{"software", "Software"}, {"fintech", "Fintech"}, {"robotics", "Robotics"},
		{"healthcare", "Healthcare"}, {"logistics", "Logistics"}, {"cybersecurity", "Cybersecurity"}, {"e-commerce", "E-commerce"}}

	// Negated regions: every region, in every way of saying "outside".
	negs := []string{"%s companies outside %s", "%s firms not in %s", "%s companies excluding %s", "%s companies except those in %s",
		"%s businesses other than in %s", "%s companies apart from %s", "%s startups based outside %s"}
	regionSaid := map[string]string{"North America": "North America", "Latin America": "Latin America", "Europe": "Europe",
		"the European Union": "the EU", "the Nordics": "the Nordics", "DACH": "DACH", "Benelux": "Benelux", "Asia-Pacific": "Asia-Pacific",
		"the Middle East": "the Middle East", "Africa": "Africa", "Scandinavia": "Scandinavia", "Iberia": "Iberia", "East Asia": "East Asia",
		"Oceania": "Oceania", "the Americas": "the Americas", "Eastern Europe": "Eastern Europe", "Western Europe": "Western Europe",
		"Southern Europe": "Southern Europe", "Asia": "Asia", "EMEA": "EMEA", "the British Isles": "the UK and Ireland", "South America": "South America"}
	i := 0
	for _, r := range dataset.Regions {
		said, ok := regionSaid[r.Name]
		if !ok {
			continue
		}
		for k := 0; k < 2; k++ {
			ct, tpl := cats[(i+k)%len(cats)], negs[(i+k)%len(negs)]
			w := want{class: "negation: region", filters: []string{cat(ct.name)}, excluded: regionFilters(r.Name)}
			if strings.Contains(tpl, "startups") {
				w.max = 49
			}
			add(fmt.Sprintf(tpl, ct.said, said), w)
		}
		i++
		// A region without negation is the set of its countries.
		ct := cats[i%len(cats)]
		add(fmt.Sprintf("%s companies in %s", ct.said, said), want{class: "region", filters: plus(regionFilters(r.Name), cat(ct.name))})
	}
	// Negated countries and lists of them.
	for _, s := range []struct {
		sentence string
		w        want
	}{
		{"fintech companies not in Germany", want{filters: []string{cat("Fintech")}, excluded: country("Germany")}},
		{"software firms outside the US", want{filters: []string{cat("Software")}, excluded: country("United States")}},
		{"non-US robotics companies", want{filters: []string{cat("Robotics")}, excluded: country("United States")}},
		{"robotics companies other than Japanese ones", want{filters: []string{cat("Robotics")}, excluded: country("Japan")}},
		{"healthcare companies, excluding the UK and France", want{filters: []string{cat("Healthcare")}, excluded: country("United Kingdom", "France")}},
		{"logistics companies except those in India, China or Japan", want{filters: []string{cat("Logistics")}, excluded: country("India", "China", "Japan")}},
		{"neither German nor French biotech", want{filters: []string{cat("Biotech")}, excluded: country("Germany", "France")}},
		{"AI startups, but not American", want{filters: []string{cat("AI & Machine Learning")}, max: 49, excluded: country("United States")}},
		{"Companies that aren't in Canada", want{excluded: country("Canada")}},
		{"companies outside the us with more than 1,000 employees", want{min: 1001, excluded: country("United States")}},
		{"e-commerce companies apart from those in Brazil", want{filters: []string{cat("E-commerce")}, excluded: country("Brazil")}},
		{"software companies not headquartered in India", want{filters: []string{cat("Software")}, excluded: country("India")}},
		{"fintech outside of Germany, Austria and Switzerland", want{filters: []string{cat("Fintech")}, excluded: country("Germany", "Austria", "Switzerland")}},
		{"insurance companies not in the Nordics or the Baltics", want{filters: []string{cat("Insurance")}, excluded: plus(regionFilters("the Nordics"), regionFilters("the Baltics")...)}},
		{"non-EU European software companies", want{filters: plus(country("United Kingdom", "Switzerland", "Norway"), cat("Software")), excluded: regionFilters("the European Union")}},
		{"software companies in Europe except Germany", want{filters: plus(minus(regionFilters("Europe"), "countries;Germany"), cat("Software")), excluded: country("Germany")}},
		{"robotics firms in DACH excluding Switzerland", want{filters: plus(country("Germany", "Austria"), cat("Robotics")), excluded: country("Switzerland")}},
		{"fintech in the Nordics but not Sweden", want{filters: plus(country("Denmark", "Norway", "Finland"), cat("Fintech")), excluded: country("Sweden")}},
		{"healthcare companies in Asia-Pacific other than China", want{filters: plus(minus(regionFilters("Asia-Pacific"), "countries;China"), cat("Healthcare")), excluded: country("China")}},
		{"companies in Germany that don't do fintech", want{filters: country("Germany"), excluded: []string{cat("Fintech")}}},
		{"non-fintech startups in the UK", want{filters: country("United Kingdom"), max: 49, excluded: []string{cat("Fintech")}}},
		{"software companies excluding cybersecurity", want{filters: []string{cat("Software")}, excluded: []string{cat("Cybersecurity")}}},
		{"US companies in any industry other than healthcare", want{filters: country("United States"), excluded: []string{cat("Healthcare")}}},
		{"German fintech companies that are not startups", want{filters: plus(country("Germany"), cat("Fintech")), min: 50}},
		{"excluding companies with over 500 employees, software in Canada", want{filters: plus(country("Canada"), cat("Software")), max: 500}},
		{"fintech companies not doing crypto", want{filters: []string{cat("Fintech")}, dropped: []string{`not "crypto"`}}},
		{"logistics companies not founded before 2000", want{filters: []string{cat("Logistics")}, dropped: []string{`not "founded before 2000"`}}},
	} {
		s.w.class = "negation: country, list, category or size"
		add(s.sentence, s.w)
	}

	// Order and counts.
	sorts := []struct {
		said, sort string
		limit      int
	}{
		{"the largest %s companies", "EMPLOYEES_DESC", 0}, {"biggest %s firms", "EMPLOYEES_DESC", 0},
		{"%s companies with the most employees", "EMPLOYEES_DESC", 0}, {"%s companies by head count", "EMPLOYEES_DESC", 0},
		{"top 5 %s companies by headcount", "EMPLOYEES_DESC", 5}, {"%s companies ranked by number of employees", "EMPLOYEES_DESC", 0},
		{"10 biggest %s companies", "EMPLOYEES_DESC", 10}, {"the three largest %s employers", "EMPLOYEES_DESC", 3},
		{"%s companies sorted by size", "EMPLOYEES_DESC", 0}, {"%s companies by size, smallest first", "EMPLOYEES_ASC", 0},
		{"smallest %s companies", "EMPLOYEES_ASC", 0}, {"%s companies with the fewest employees", "EMPLOYEES_ASC", 0},
		{"the oldest %s companies", "FOUNDED_ASC", 0}, {"5 oldest %s firms", "FOUNDED_ASC", 5},
		{"%s companies by age", "FOUNDED_ASC", 0}, {"%s companies sorted by founding year", "FOUNDED_ASC", 0},
		{"%s companies by founding year, newest first", "FOUNDED_DESC", 0}, {"newest %s companies", "FOUNDED_DESC", 0},
		{"the youngest %s startups", "FOUNDED_DESC", 0}, {"top 10 most recently founded %s companies", "FOUNDED_DESC", 10},
		{"%s companies ordered from largest to smallest", "EMPLOYEES_DESC", 0}, {"%s companies with the largest workforce", "EMPLOYEES_DESC", 0},
		{"list 7 %s companies by employee count", "EMPLOYEES_DESC", 7}, {"%s companies, by headcount ascending", "EMPLOYEES_ASC", 0},
		{"the 20 longest-running %s companies", "FOUNDED_ASC", 20},
	}
	for k, s := range sorts {
		for j := 0; j < 2; j++ {
			ct := cats[(k+j)%len(cats)]
			w := want{class: "order and count", filters: []string{cat(ct.name)}, sort: s.sort, limit: s.limit, noKeys: true}
			if strings.Contains(s.said, "startups") {
				w.max = 49
			}
			add(fmt.Sprintf(s.said, ct.said), w)
		}
	}

	// Ranges with two ends, however split.
	ranges := []struct {
		said     string
		min, max int
	}{
		{"%s companies with more than 50 but fewer than 200 employees", 51, 199},
		{"%s companies with at least 50 employees but no more than 200", 50, 200},
		{"%s companies with at least 50 and at most 200 staff", 50, 200},
		{"%s companies with between 50 and 200 employees", 50, 200},
		{"%s companies from 50 to 200 employees", 50, 200},
		{"%s companies with 50–200 employees", 50, 200},
		{"%s companies with 50-200 people", 50, 200},
		{"%s firms, headcount over 50 and under 200", 51, 199},
		{"%s companies with over 20 employees, but under 500", 21, 499},
		{"%s companies with no fewer than 10 and no more than 100 employees", 10, 100},
		{"%s companies having more than 100 staff yet less than 1,000 staff", 101, 999},
		{"%s companies with fewer than 300 but more than 30 employees", 31, 299},
		{"%s companies with a staff of 10 to 50", 10, 50},
		{"%s companies employing 200 to 2k people", 200, 2000},
	}
	for k, r := range ranges {
		for j := 0; j < 2; j++ {
			ct := cats[(k+2*j)%len(cats)]
			add(fmt.Sprintf(r.said, ct.said), want{class: "two-sided range", filters: []string{cat(ct.name)}, min: r.min, max: r.max, noKeys: true})
		}
	}

	// Filler and question words never become keywords.
	for _, s := range []struct {
		sentence string
		filters  []string
	}{
		{"show me new fintech companies in Germany", plus(country("Germany"), cat("Fintech"))},
		{"please list some software companies in France", plus(country("France"), cat("Software"))},
		{"which robotics companies are there in Japan?", plus(country("Japan"), cat("Robotics"))},
		{"what healthcare companies do you know in Canada?", plus(country("Canada"), cat("Healthcare"))},
		{"find me interesting new logistics firms in the Netherlands", plus(country("Netherlands"), cat("Logistics"))},
		{"can you show me cybersecurity companies in Israel please", plus(country("Israel"), cat("Cybersecurity"))},
		{"I'm looking for new e-commerce businesses in Brazil", plus(country("Brazil"), cat("E-commerce"))},
		{"give me a list of notable fintech players in Singapore", plus(country("Singapore"), cat("Fintech"))},
		{"tell me which software vendors exist in Sweden", plus(country("Sweden"), cat("Software"))},
		{"any good robotics companies in Germany?", plus(country("Germany"), cat("Robotics"))},
	} {
		add(s.sentence, want{class: "filler words", filters: s.filters, noKeys: true})
	}

	// Honesty: "how many" with nothing dropped is answered by the total;
	// with something dropped, or a second question, it is not.
	for _, s := range []struct {
		sentence string
		w        want
	}{
		{"how many software companies are in Asia-Pacific?", want{filters: plus(regionFilters("Asia-Pacific"), cat("Software")), howMany: true}},
		{"how many fintech companies are outside the EU?", want{filters: []string{cat("Fintech")}, excluded: regionFilters("the European Union"), howMany: true}},
		{"how many robotics companies are in California?", want{filters: []string{cat("Robotics")}, howMany: true, dropped: []string{`place "California"`}}},
		{"how many fintech companies are not doing crypto?", want{filters: []string{cat("Fintech")}, howMany: true, dropped: []string{`not "crypto"`}}},
		{"how many software companies are in Germany with about 50 employees?", want{filters: plus(country("Germany"), cat("Software")), howMany: true, dropped: []string{"head count"}}},
		{"Which fintech companies are in Germany? How many robotics companies are in France?", want{filters: plus(country("Germany"), cat("Fintech")), second: true, dropped: []string{"second question"}}},
		{"how many fintech companies are in Spain and which are the largest?", want{filters: plus(country("Spain"), cat("Fintech")), howMany: true, second: true, dropped: []string{"second question"}}},
		{"list software companies in Italy and how many are there in Spain", want{filters: plus(country("Italy"), cat("Software")), second: true, dropped: []string{"second question"}}},
		{"how many logistics companies in the Nordics have over 100 employees?", want{filters: plus(regionFilters("the Nordics"), cat("Logistics")), min: 101, howMany: true}},
		{"how many healthcare companies are not mid-sized?", want{filters: []string{cat("Healthcare")}, howMany: true, dropped: []string{"not employees"}}},
	} {
		s.w.class = "honesty: how many, dropped parts, second questions"
		add(s.sentence, s.w)
	}

	// Names: a sentence naming a company searches by its name.
	shapes := []string{"tell me about %s", "what does %s do?", "Is %s a good fit for us?", "find %s", "%s", "show me %s and similar companies",
		"who runs %s", "details on %s please"}
	for k, co := range names {
		name := co.Name
		switch k % 4 {
		case 1: // near: the legal form left off, or added
			if f := strings.Fields(name); len(f) > 2 {
				name = strings.Join(f[:len(f)-1], " ")
			} else {
				name += " Ltd"
			}
		case 3: // near: "and" for "&"
			name = strings.ReplaceAll(name, " & ", " and ")
		}
		add(fmt.Sprintf(shapes[k%len(shapes)], name), want{class: "names", named: co.ID})
	}
	return c
}

// TestAiSearchCorpus reads every sentence of the corpus and checks its
// reading against the backend's own search.
func TestAiSearchCorpus(t *testing.T) {
	srv := start(t, appsynclocal.Config{})
	g, err := dataset.New(appsynclocal.DefaultSeed, testCompanies)
	require.NoError(t, err)
	var names []dataset.Company
	for num := 3; len(names) < 24; num += 83 {
		names = append(names, g.Company(num))
	}
	c := corpus(names)
	classes := map[string]int{}
	for _, w := range c {
		classes[w.class]++
	}
	keys := make([]string, 0, len(classes))
	for k := range classes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	t.Logf("ai_search corpus: %d sentences", len(c))
	for _, k := range keys {
		t.Logf("  %-55s %d", k, classes[k])
	}
	require.GreaterOrEqual(t, len(c), 200)

	for sentence, w := range c {
		t.Run(sentence, func(t *testing.T) {
			got := aiSearchOf(t, srv.URL(), sentence)
			assert.ElementsMatch(t, w.filters, got.AppliedFilters, "filters")
			assert.ElementsMatch(t, w.excluded, got.ExcludedFilters, "excluded")
			assert.Equal(t, [2]int{w.min, w.max}, [2]int{deref(got.MinEmployees), deref(got.MaxEmployees)}, "employees")
			assert.Equal(t, [2]int{w.from, w.to}, [2]int{deref(got.FoundedAfter), deref(got.FoundedBefore)}, "founded")
			assert.Equal(t, w.sort, derefS(got.Sort), "sort")
			if w.limit > 0 {
				assert.Equal(t, w.limit, deref(got.Limit), "page size")
			}
			for _, d := range w.dropped {
				assert.True(t, slices.ContainsFunc(got.NotApplied, func(s string) bool { return strings.Contains(s, d) }), "%q not in %q", d, got.NotApplied)
			}
			if w.dropped == nil && w.named == "" {
				assert.Empty(t, got.NotApplied, "not applied")
			}
			if w.noKeys {
				assert.Nil(t, got.Keywords, "keywords")
			}
			assert.Equal(t, w.howMany, got.ExactCount != nil && *got.ExactCount, "how many")
			// Honesty: a total is said to answer only a question fully applied.
			answers := strings.Contains(got.Interpretation, "is the answer")
			assert.Equal(t, w.howMany && len(got.NotApplied) == 0, answers, "interpretation: %s", got.Interpretation)
			if w.second {
				assert.Contains(t, got.Interpretation, "Not answered: the second question")
			}
			// No company of an excluded set is ever an answer.
			for _, it := range got.Items {
				c, _ := dataset.CountryByCode(it.CountryCode)
				assert.NotContains(t, got.ExcludedFilters, "countries;"+c.Name, "%s is in an excluded country", it.ID)
				for _, k := range it.Categories {
					assert.NotContains(t, got.ExcludedFilters, "categories;"+k, "%s is in an excluded category", it.ID)
				}
			}
			if w.named != "" {
				assert.True(t, slices.ContainsFunc(got.Items, func(it struct {
					ID          string   `json:"id"`
					Name        string   `json:"name"`
					CountryCode string   `json:"countryCode"`
					Categories  []string `json:"categories"`
				}) bool {
					return it.ID == w.named
				}), "the company named, %s, is not among %d answers: %s", w.named, len(got.Items), got.Interpretation)
				assert.Contains(t, got.Interpretation, "Names matching")
			}
			// The backend's own filtered search gives the same page and total.
			same := searchOf(t, srv.URL(), got)
			assert.Equal(t, ids(got), same.ids, "searchCompanies with the applied reading")
			assert.Equal(t, got.Total, same.total, "total")
		})
	}
}

func aiSearchOf(t *testing.T, url, sentence string) aiAnswer {
	t.Helper()
	q := fmt.Sprintf(`{ aiSearch(query: %s, limit: 50) { items { id name countryCode categories } interpretation appliedFilters excludedFilters
		keywords minEmployees maxEmployees foundedAfter foundedBefore sort limit exactCount notApplied total totalIsLowerBound } }`, strconv.Quote(sentence))
	a := asKey(t, url, q)
	require.Empty(t, a.Errors, a.Raw)
	var d struct {
		AiSearch aiAnswer `json:"aiSearch"`
	}
	require.NoError(t, json.Unmarshal(a.Data, &d))
	return d.AiSearch
}

type searched struct {
	ids   []string
	total int
}

// searchOf runs searchCompanies with what aiSearch says it applied.
func searchOf(t *testing.T, url string, got aiAnswer) searched {
	t.Helper()
	args := []string{fmt.Sprintf("filters: %s, excludeFilters: %s, limit: %d", gqlList(got.AppliedFilters), gqlList(got.ExcludedFilters), deref(got.Limit))}
	if got.Keywords != nil {
		args = append(args, "keyword: "+strconv.Quote(*got.Keywords))
	}
	for name, v := range map[string]*int{"minEmployees": got.MinEmployees, "maxEmployees": got.MaxEmployees, "foundedAfter": got.FoundedAfter, "foundedBefore": got.FoundedBefore} {
		if v != nil {
			args = append(args, fmt.Sprintf("%s: %d", name, *v))
		}
	}
	if got.Sort != nil {
		args = append(args, "sort: "+*got.Sort)
	}
	if got.ExactCount != nil && *got.ExactCount {
		args = append(args, "exactCount: true")
	}
	a := asKey(t, url, fmt.Sprintf(`{ searchCompanies(%s) { items { id } total } }`, strings.Join(args, ", ")))
	require.Empty(t, a.Errors, a.Raw)
	var d struct {
		SearchCompanies struct {
			Items []struct {
				ID string `json:"id"`
			} `json:"items"`
			Total int `json:"total"`
		} `json:"searchCompanies"`
	}
	require.NoError(t, json.Unmarshal(a.Data, &d))
	out := searched{total: d.SearchCompanies.Total, ids: []string{}}
	for _, it := range d.SearchCompanies.Items {
		out.ids = append(out.ids, it.ID)
	}
	return out
}

func ids(a aiAnswer) []string {
	out := []string{}
	for _, it := range a.Items {
		out = append(out, it.ID)
	}
	return out
}

func gqlList(s []string) string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = strconv.Quote(v)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

func derefS(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
