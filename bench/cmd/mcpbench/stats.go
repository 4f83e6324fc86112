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
func median[T int64 | time.Duration](v []T) T {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[(len(s)+1)/2-1]
}

// ratios divides a by b element by element (a[i] / b[i]), over the pairs
// both have.
func ratios[T time.Duration | float64](a, b []T) []float64 {
	n := min(len(a), len(b))
	out := make([]float64, 0, n)
	for i := range n {
		if b[i] != 0 {
			out = append(out, float64(a[i])/float64(b[i]))
		}
	}
	return out
}

// pairedRatio is the median of a[i] / b[i]: the ratio of measurements taken
// side by side, robust to drift between pairs.
func pairedRatio[T time.Duration | float64](a, b []T) float64 {
	r := ratios(a, b)
	if len(r) == 0 {
		return math.NaN()
	}
	slices.Sort(r)
	return r[(len(r)-1)/2]
}
