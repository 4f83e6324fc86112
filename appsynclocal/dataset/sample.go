package dataset

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// Sample returns n companies of the data set picked at random (by the
// seed, so the same every time), in id order: what a person reads to judge
// whether the data passes as real. n is at most Len.
func (g *Generator) Sample(n int) []Company {
	n = min(n, g.n)
	r := g.stream(0, 2)
	picked := map[int]bool{}
	nums := make([]int, 0, n)
	for len(nums) < n {
		if num := r.IntN(g.n); !picked[num] {
			picked[num] = true
			nums = append(nums, num)
		}
	}
	slices.Sort(nums)
	out := make([]Company, n)
	for i, num := range nums {
		out[i] = g.Company(num)
	}
	return out
}

// WriteProfiles writes companies as a person reads them: id and name, then
// industry, place, age, size and domain, then the description.
func WriteProfiles(w io.Writer, cs []Company) error {
	for _, c := range cs {
		_, err := fmt.Fprintf(w, "%s  %s\n  %s · %s, %s · founded %d · %s staff · %s\n  %s\n\n",
			c.ID, c.Name, strings.Join(c.CategoryNames(), ", "), c.City, c.Country().Name, c.Founded,
			thousands(c.Employees), c.Domain, c.Description)
		if err != nil {
			return err
		}
	}
	return nil
}
