package demotoken

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
)

// Run is the demo-token command: it parses args, prints the access token
// and a newline to stdout, and returns the process's exit code (2 for bad
// usage, 1 for a failed flow). Messages go to stderr; the token goes
// nowhere else.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("demo-token", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o Options
	fs.StringVar(&o.Server, "server", "", "the MCP server's URL, e.g. http://127.0.0.1:8080/mcp (required)")
	fs.StringVar(&o.User, "user", "", "the demo user to log in, e.g. alice (default: the issuer's demo user)")
	fs.StringVar(&o.Scope, "scope", DefaultScope, `the scopes to ask for, space-separated, e.g. "companies:read companies:write"`)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: mcp-server demo-token --server URL [--user NAME] [--scope \"companies:read companies:write\"]")
		fmt.Fprintln(stderr, "\nPrints a bearer token for a demo user of a running server that uses the embedded issuer")
		fmt.Fprintln(stderr, "(mcp-server --embedded --http ADDR --oauth-issuer embedded).")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if o.Server == "" || fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	tok, err := Token(ctx, o)
	if err != nil {
		fmt.Fprintln(stderr, "mcp-server demo-token:", err)
		return 1
	}
	fmt.Fprintln(stdout, tok)
	return 0
}
