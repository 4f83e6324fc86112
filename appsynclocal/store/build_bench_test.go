package store

import (
	"context"
	"os"
	"strconv"
	"testing"
)

// BenchmarkBuild builds a data set of APPSYNC_BUILD_COMPANIES companies
// (default 100,000) per iteration, for profiling the build:
//
//	APPSYNC_BUILD_COMPANIES=1000000 go test -run '^$' -bench Build -benchtime 1x ./appsynclocal/store/
func BenchmarkBuild(b *testing.B) {
	n := 100_000
	if v := os.Getenv("APPSYNC_BUILD_COMPANIES"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			b.Fatal(err)
		}
	}
	for range b.N {
		s, err := Open(context.Background(), Options{Dir: b.TempDir(), Companies: n, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}
