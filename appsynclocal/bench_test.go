package appsynclocal_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/companyintel/mcp-server/appsynclocal"
	"github.com/companyintel/mcp-server/auth"
	"github.com/companyintel/mcp-server/graphql"
	"github.com/companyintel/mcp-server/graphql/query"
)

// BenchmarkSearch measures searches end to end — generated client, HTTP on
// loopback, GraphQL execution, SQLite — at the default data-set size, or at
// APPSYNC_BENCH_COMPANIES (e.g. 1000000). The database is built once per
// size and kept in APPSYNC_BENCH_DIR (default: a directory under the system
// temp dir), so only the first run pays for the build; -v shows how long
// opening (and building) took.
//
//	go test -run '^$' -bench Search -benchtime 200x ./appsynclocal/
//	APPSYNC_BENCH_COMPANIES=1000000 go test -run '^$' -bench Search -benchtime 50x ./appsynclocal/
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
	str := func(s string) *string { return &s }

	cases := []struct {
		name string
		run  func() error
	}{
		{"keyword", func() error {
			_, err := r.SearchCompanies(ctx, str("robotics"), nil, query.Bounds{}, nil, nil)
			return err
		}},
		{"keyword+filters", func() error {
			_, err := r.SearchCompanies(ctx, str("warehouse robots"), []string{"countries;United States", "countries;Germany", "categories;Robotics"}, query.Bounds{}, nil, nil)
			return err
		}},
		{"common-keyword+filter", func() error {
			_, err := r.SearchCompanies(ctx, str("software"), []string{"countries;United States"}, query.Bounds{}, nil, nil)
			return err
		}},
		{"filters-only", func() error {
			_, err := r.SearchCompanies(ctx, nil, []string{"countries;United Kingdom", "categories;Fintech"}, query.Bounds{}, nil, nil)
			return err
		}},
		{"aiSearch", func() error {
			_, err := r.AiSearch(ctx, "mid-sized logistics companies in Germany building warehouse software", nil)
			return err
		}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			if err := c.run(); err != nil { // warm the caches outside the timing
				b.Fatal(err)
			}
			durations := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for range b.N {
				start := time.Now()
				if err := c.run(); err != nil {
					b.Fatal(err)
				}
				durations = append(durations, time.Since(start))
			}
			b.StopTimer()
			slices.Sort(durations)
			b.ReportMetric(float64(durations[len(durations)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(durations[len(durations)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}
