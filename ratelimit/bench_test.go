package ratelimit_test

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/companyintel/mcp-server/ratelimit"
	"github.com/companyintel/mcp-server/ratelimit/redistest"
)

// BenchmarkLimitedCall measures what a limit check adds to a limited tool
// call, in process and in Redis (a real redis-server on loopback), side by
// side in one run, at 1 and 8 concurrent callers. Besides ns/op it reports
// the p50 and p99 of single checks, and how many checks failed (the 50 ms
// deadline passed, which a busy machine can cause). The limit is high enough that every
// check passes and writes its bucket: the path every allowed call takes.
//
//	go test -run '^$' -bench LimitedCall -benchtime 20000x ./ratelimit/
func BenchmarkLimitedCall(b *testing.B) {
	srv := redistest.Start(b)
	ro, err := ratelimit.ParseRedisURL(srv.URL())
	if err != nil {
		b.Fatal(err)
	}
	limits := map[string]ratelimit.Limit{"ai_search": {Count: 1 << 30, Period: time.Second}}
	redis := ratelimit.NewRedis(ro, limits, ratelimit.WithLogger(slog.New(slog.DiscardHandler)))
	b.Cleanup(func() { _ = redis.Close() })
	stores := []struct {
		name string
		l    interface {
			Allow(ctx context.Context, tool, caller string) (ratelimit.Decision, error)
		}
	}{
		{"memory", ratelimit.New(limits)},
		{"redis", redis},
	}
	for _, callers := range []int{1, 8} {
		for _, s := range stores {
			b.Run(fmt.Sprintf("%s/callers=%d", s.name, callers), func(b *testing.B) {
				ctx := context.Background()
				per := make([][]time.Duration, callers)
				var failed atomic.Int64
				var wg sync.WaitGroup
				b.ResetTimer()
				for c := range callers {
					wg.Go(func() {
						n := b.N / callers
						lat := make([]time.Duration, 0, n)
						caller := fmt.Sprint("caller-", c)
						for range n {
							start := time.Now()
							d, err := s.l.Allow(ctx, "ai_search", caller)
							lat = append(lat, time.Since(start))
							if err != nil || !d.Allowed {
								failed.Add(1) // a check over the deadline, on a busy machine
							}
						}
						per[c] = lat
					})
				}
				wg.Wait()
				b.StopTimer()
				all := slices.Concat(per...)
				slices.Sort(all)
				if len(all) > 0 {
					b.ReportMetric(float64(all[len(all)/2])/1e3, "p50-µs")
					b.ReportMetric(float64(all[len(all)*99/100])/1e3, "p99-µs")
				}
				b.ReportMetric(float64(failed.Load()), "failed")
			})
		}
	}
}
