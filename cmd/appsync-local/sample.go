package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"

	"github.com/companyintel/mcp-server/appsynclocal"
	"github.com/companyintel/mcp-server/appsynclocal/dataset"
)

// sample prints profiles picked at random from a data set, for a person to
// read: appsync-local sample [--seed S] [--companies N] [--count 50].
func sample(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("appsync-local sample", flag.ContinueOnError)
	fs.SetOutput(stderr)
	seed := fs.Int64("seed", appsynclocal.DefaultSeed, "data-set seed")
	companies := fs.Int("companies", appsynclocal.DefaultCompanies, "data-set size to pick from")
	count := fs.Int("count", 50, "how many profiles to print")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if *count < 1 {
		fmt.Fprintln(stderr, "appsync-local sample: --count must be at least 1")
		return errUsage
	}
	g, err := dataset.New(*seed, *companies)
	if err != nil {
		fmt.Fprintln(stderr, "appsync-local sample:", err)
		return errUsage
	}
	w := bufio.NewWriter(stdout)
	if err := dataset.WriteProfiles(w, g.Sample(*count)); err != nil {
		return err
	}
	return w.Flush()
}
