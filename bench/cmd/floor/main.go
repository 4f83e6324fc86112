// Command floor is the practical floor for an MCP server in front of a
// GraphQL API: one mcp-go stdio server with one tool, which posts one fixed
// GraphQL request and returns the answer as text. It does nothing else — no
// validation, no auth chain, no shaping, no logging — so what mcpbench
// measures for it is what any Go MCP forwarder costs, and mcp-server's
// figures are reported as ratios to it.
//
//	FLOOR_ENDPOINT=http://127.0.0.1:8787/graphql FLOOR_API_KEY=… FLOOR_BODY='{"query":…}' floor
//
// It imports nothing from this module, so that none of mcp-server's start-up
// cost (package initialisation included) is counted in the floor. Built with
// -tags awschain it also resolves the AWS credential chain at start
// (awschain.go).
package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// atStart runs before the server serves; set by the awschain build.
var atStart = func() {}

func main() {
	endpoint, key, body := os.Getenv("FLOOR_ENDPOINT"), os.Getenv("FLOOR_API_KEY"), []byte(os.Getenv("FLOOR_BODY"))
	if endpoint == "" || len(body) == 0 {
		fmt.Fprintln(os.Stderr, "floor: set FLOOR_ENDPOINT and FLOOR_BODY (and FLOOR_API_KEY)")
		os.Exit(2)
	}
	atStart()
	s := server.NewMCPServer("floor", "1", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("search", mcp.WithDescription("Posts one fixed GraphQL search and returns the answer.")),
		func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
			if err != nil {
				return nil, err
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("x-api-key", key)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return mcp.NewToolResultError(err.Error()), nil
			}
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body)
			if err != nil || resp.StatusCode != http.StatusOK {
				return mcp.NewToolResultError(fmt.Sprintf("HTTP %d: %s %v", resp.StatusCode, b, err)), nil
			}
			return mcp.NewToolResultText(string(b)), nil
		})
	if err := server.ServeStdio(s); err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}
