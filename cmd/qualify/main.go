// Command qualify is the deterministic qualification of the MCP server:
// every tool's answer compared with the backend's own, refusals, paging and
// round trips, with per-tool ceilings. It exits 1 when any case or ceiling
// fails, 2 when the run could not be made.
//
//	go run ./cmd/qualify                       # against the embedded backend
//	go run ./cmd/qualify --endpoint https://…/graphql   # credentials from the environment, as for the server
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"

	"github.com/companyintel/mcp-server/qualify"
)

func main() {
	fs := flag.NewFlagSet("qualify", flag.ExitOnError)
	embedded := fs.Bool("embedded", false, "qualify against the embedded backend (the default without --endpoint)")
	endpoint := fs.String("endpoint", os.Getenv("APPSYNC_ENDPOINT"), "backend GraphQL URL (env APPSYNC_ENDPOINT); credentials as for the server")
	companies := fs.Int("companies", 0, "embedded backend: data-set size (default: the server's)")
	dataDir := fs.String("data-dir", "", "embedded backend: where its database lives (default: the user cache dir)")
	profile := fs.String("profile", "", "ceilings file (default: the checked-in qualify/profile.json)")
	repeat := fs.Int("repeat", 3, "runs of each case")
	fs.Parse(os.Args[1:])
	o := qualify.Options{Companies: *companies, DataDir: *dataDir, Repeat: *repeat, Getenv: os.Getenv, Out: os.Stdout, Commit: qualify.Commit()}
	if !*embedded {
		o.Endpoint = *endpoint
	}
	if *profile != "" {
		b, err := os.ReadFile(*profile)
		if err == nil {
			o.Profile, err = qualify.ParseProfile(b)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "qualify:", err)
			os.Exit(2)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	r, err := qualify.Run(ctx, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "qualify:", err)
		os.Exit(2)
	}
	if !r.OK() {
		os.Exit(1)
	}
}
