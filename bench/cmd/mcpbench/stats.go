package main

import (
	"math"
	"slices"
	"time"
)

// dist summarises a latency sample.
type dist struct {
	N                  int
	Min, P50, P90, P99 time.Duration
	Max, Mean          time.Duration
}

// summarize sorts a copy of d and reads its percentiles by nearest rank: the
// p-th percentile is the smallest sample with at least p% of the samples at
// or below it, so every figure reported is a time that was measured.
func summarize(d []time.Duration) dist {
	if len(d) == 0 {
		return dist{}
	}
	s := slices.Clone(d)
	slices.Sort(s)
	var sum time.Duration
	for _, v := range s {
		sum += v
	}
	return dist{
		N:    len(s),
		Min:  s[0],
		P50:  rank(s, 50),
		P90:  rank(s, 90),
		P99:  rank(s, 99),
		Max:  s[len(s)-1],
		Mean: sum / time.Duration(len(s)),
	}
}

// rank is the nearest-rank p-th percentile of sorted s.
func rank(s []time.Duration, p float64) time.Duration {
	i := int(math.Ceil(p/100*float64(len(s)))) - 1
	return s[min(max(i, 0), len(s)-1)]
}

// ratio is a/b, or 0 when b is 0.
func ratio(a, b time.Duration) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// median is the nearest-rank median of v (0 for none).
func median(v []int64) int64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[(len(s)+1)/2-1]
}
