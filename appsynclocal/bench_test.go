package appsynclocal_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/companyintel/mcp-server/appsynclocal"
	"github.com/companyintel/mcp-server/appsynclocal/interpret"
	"github.com/companyintel/mcp-server/auth"
	"github.com/companyintel/mcp-server/graphql"
	"github.com/companyintel/mcp-server/graphql/query"
)

// searchShape is one row of BenchmarkSearch's fixed table.
type searchShape struct {
	name string
	// One of the two: a searchCompanies call or an aiSearch sentence.
	keyword string
	filters []string
	bounds  query.Bounds
	ai      string
}

// searchShapes are the shapes BenchmarkSearch measures (BENCHMARKS.md, "The
// store at a million companies"): keyword; keyword with country, category
// and size band; a common keyword with a country; facets only; an
// exclusion; each order under a facet and under a keyword; exact counts of
// large matches; aiSearch with an order and with bounds.
func searchShapes() []searchShape {
	n := func(v int) *int { return &v }
	us := []string{"countries;United States"}
	shapes := []searchShape{
		{name: "keyword", keyword: "robotics"},
		{name: "keyword+country+category+size", keyword: "warehouse robots",
			filters: []string{"countries;United States", "categories;Robotics"},
			bounds:  query.Bounds{MinEmployees: n(50), MaxEmployees: n(1000)}},
		{name: "common-keyword+country", keyword: "software", filters: us},
		{name: "facets-only", filters: []string{"countries;United Kingdom", "categories;Fintech"}},
		{name: "exclusion", filters: []string{"categories;Software"},
			bounds: query.Bounds{Exclude: []string{"countries;United States", "countries;Germany"}}},
	}
	for _, s := range []query.CompanySort{query.SortEmployeesDesc, query.SortEmployeesAsc, query.SortFoundedDesc, query.SortFoundedAsc, query.SortNameAsc} {
		shapes = append(shapes,
			searchShape{name: "facet-sorted/" + string(s), filters: us, bounds: query.Bounds{Sort: s}},
			searchShape{name: "keyword-sorted/" + string(s), keyword: "software", bounds: query.Bounds{Sort: s}})
	}
	return append(shapes,
		searchShape{name: "exact-count/keyword", keyword: "software", bounds: query.Bounds{ExactCount: true}},
		searchShape{name: "exact-count/keyword+country", keyword: "software", filters: us, bounds: query.Bounds{ExactCount: true}},
		searchShape{name: "exact-count/keyword+size", keyword: "software", bounds: query.Bounds{MinEmployees: n(10), ExactCount: true}},
		searchShape{name: "exact-count/facet+size", filters: us, bounds: query.Bounds{MaxEmployees: n(500), ExactCount: true}},
		searchShape{name: "aiSearch/sorted", ai: "the 10 largest fintech companies in Germany"},
		searchShape{name: "aiSearch/bounded", ai: "software companies in the United States founded after 2010 with more than 200 employees"},
		searchShape{name: "aiSearch/mixed", ai: "mid-sized logistics companies in Germany building warehouse software"},
	)
}

// BenchmarkSearch measures the fixed table of search shapes end to end —
// generated client, HTTP on loopback, GraphQL execution, the store — at the
// default data-set size, or at APPSYNC_BENCH_COMPANIES (e.g. 1000000). It
// reports each shape's p50 and p99 and logs (-v) its total. aiSearch's own
// work, reading the sentence, is BenchmarkInterpret. The database is built
// once per size and kept in APPSYNC_BENCH_DIR (default: a directory under
// the system temp dir), so only the first run pays for the build; -v shows
// how long opening (and building) took.
//
//	go test -run '^$' -bench Search -benchtime 200x -v ./appsynclocal/
//	APPSYNC_BENCH_COMPANIES=1000000 go test -run '^$' -bench Search -benchtime 100x -v ./appsynclocal/
func BenchmarkSearch(b *testing.B) {
	n := appsynclocal.DefaultCompanies
	if v := os.Getenv("APPSYNC_BENCH_COMPANIES"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			b.Fatalf("APPSYNC_BENCH_COMPANIES=%q is not a number", v)
		}
	}
	dir := os.Getenv("APPSYNC_BENCH_DIR")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "appsync-local-bench")
	}
	built := time.Now()
	srv, err := appsynclocal.Start(appsynclocal.Config{DataDir: dir, Companies: n, APIKey: testKey}, "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	b.Logf("%d companies opened (built if new) in %s, in %s", n, time.Since(built).Round(time.Millisecond), dir)

	client := graphql.NewClient(srv.URL(), &http.Client{Transport: auth.NewAPIKeySource(testKey, http.DefaultTransport).Transport}, time.Minute)
	r := query.NewReader(client)
	ctx := context.Background()

	for _, s := range searchShapes() {
		run := func() (total int, lower bool, err error) {
			if s.ai != "" {
				res, err := r.AiSearch(ctx, s.ai, nil)
				if err != nil {
					return 0, false, err
				}
				return res.Total, res.TotalIsLowerBound, nil
			}
			var kw *string
			if s.keyword != "" {
				kw = &s.keyword
			}
			page, err := r.SearchCompanies(ctx, kw, s.filters, s.bounds, nil, nil)
			if err != nil {
				return 0, false, err
			}
			return page.Total, page.TotalIsLowerBound, nil
		}
		b.Run(s.name, func(b *testing.B) {
			total, lower, err := run() // warm the caches outside the timing
			if err != nil {
				b.Fatal(err)
			}
			b.Logf("total %d (lower bound: %t)", total, lower)
			durations := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			cpu := cpuTime()
			for range b.N {
				start := time.Now()
				if _, _, err := run(); err != nil {
					b.Fatal(err)
				}
				durations = append(durations, time.Since(start))
			}
			b.StopTimer()
			reportPercentiles(b, durations)
			b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}
}

// cpuTime is the CPU time this process has used (client, HTTP, GraphQL and
// store all run in it): per call, a figure a busy machine inflates less
// than the wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkInterpret measures aiSearch's own work: reading its sentences
// into filters, words, bounds and an order, before any search.
//
//	go test -run '^$' -bench Interpret -benchtime 2000x ./appsynclocal/
func BenchmarkInterpret(b *testing.B) {
	for _, s := range searchShapes() {
		if s.ai == "" {
			continue
		}
		b.Run(s.name, func(b *testing.B) {
			b.Logf("%q: %s", s.ai, interpret.Parse(s.ai).Describe())
			durations := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for range b.N {
				start := time.Now()
				interpret.Parse(s.ai)
				durations = append(durations, time.Since(start))
			}
			b.StopTimer()
			reportPercentiles(b, durations)
		})
	}
}

// reportPercentiles reports the p50 and p99 of durations in ms.
func reportPercentiles(b *testing.B, durations []time.Duration) {
	slices.Sort(durations)
	b.ReportMetric(float64(durations[len(durations)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(durations[len(durations)*99/100].Microseconds())/1000, "p99-ms")
}
