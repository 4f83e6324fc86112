// Command server is the company-intelligence MCP server. It speaks MCP over
// stdio (protocol on stdout, logs on stderr) or Streamable HTTP:
//
//	server --embedded                       # demo against the built-in backend
//	server --endpoint https://….appsync-api.eu-west-1.amazonaws.com/graphql
//	server catalog [--hash]                 # the tool catalogue as canonical JSON, or its SHA-256
//	server --version                        # version, VCS revision, modified, catalogue hash
//	server check --embedded                 # pre-flight: configuration, auth, backend, catalogue
//	server demo-token --server http://127.0.0.1:8080/mcp --user alice
//
// The command line is package cli; this is only the process around it.
package main

import (
	"os"

	"github.com/companyintel/mcp-server/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Environ(), os.Stdin, os.Stdout, os.Stderr))
}
