// Command server is the company-intelligence MCP server. It speaks MCP over
// stdio: protocol on stdout, logs on stderr.
//
//	server --embedded                       # demo against the built-in backend
//	server --endpoint https://….appsync-api.eu-west-1.amazonaws.com/graphql
//	server catalog [--hash]                 # the tool catalogue as canonical JSON, or its SHA-256
//	server --version                        # version, VCS revision, modified, catalogue hash
//	server check --embedded                 # pre-flight: configuration, auth, backend, catalogue
//	server demo-token --server http://127.0.0.1:8080/mcp --user alice
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/companyintel/mcp-server/app"
	"github.com/companyintel/mcp-server/internal/oauth/demotoken"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "demo-token" {
		os.Exit(demotoken.Run(context.Background(), os.Args[2:], os.Stdout, os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == "catalog" {
		os.Exit(app.PrintCatalogue(os.Args[2:], os.Stdout, os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == "check" {
		os.Exit(app.Check(context.Background(), os.Args[2:], os.Getenv, os.Stdout, os.Stderr))
	}
	cfg, err := app.ParseConfig(os.Args[1:], os.Getenv, os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if errors.Is(err, app.ErrVersion) {
		os.Exit(app.PrintVersion(os.Stdout, os.Stderr))
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcp-server:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if err := app.Run(ctx, cfg, app.Stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}, os.Getenv); err != nil {
		fmt.Fprintln(os.Stderr, "mcp-server:", err)
		if app.IsMisconfiguration(err) {
			os.Exit(2) // the flags or the environment need fixing
		}
		os.Exit(1)
	}
}
