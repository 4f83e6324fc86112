package cli

import (
	"context"
	"fmt"

	"github.com/companyintel/mcp-server/app"
	"github.com/companyintel/mcp-server/internal/oauth/demotoken"
)

// demoToken is `mcp-server demo-token`: it prints the access token of a
// demo user of a running server that uses the embedded issuer, and a
// newline, to stdout; messages go to stderr, and the token nowhere else.
func demoToken(ctx context.Context, args []string, _ []string, stdio app.Stdio) int {
	fs := newFlagSet("demo-token")
	var o demotoken.Options
	fs.StringVar(&o.Server, "server", "", "the MCP server's URL, e.g. http://127.0.0.1:8080/mcp (required)")
	fs.StringVar(&o.User, "user", "", "the demo user to log in, e.g. alice (default: the issuer's demo user)")
	fs.StringVar(&o.Scope, "scope", demotoken.DefaultScope, `the scopes to ask for, space-separated, e.g. "companies:read companies:write"`)
	usage := "usage: mcp-server demo-token --server URL [--user NAME] [--scope \"companies:read companies:write\"]\n\n" +
		"Prints a bearer token for a demo user of a running server that uses the embedded issuer\n" +
		"(mcp-server --embedded --http ADDR --oauth-issuer embedded)."
	if code, done := parse(fs, args, stdio, usage); done {
		return code
	}
	if o.Server == "" {
		fmt.Fprintln(stdio.Err, "mcp-server demo-token: --server is required: the MCP server's URL, e.g. --server http://127.0.0.1:8080/mcp")
		return exitMisusage
	}
	tok, err := demotoken.Token(ctx, o)
	if err != nil {
		fmt.Fprintln(stdio.Err, "mcp-server demo-token:", err)
		return exitFailed
	}
	fmt.Fprintln(stdio.Out, tok)
	return 0
}
