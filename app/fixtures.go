package app

import (
	"github.com/mark3labs/mcp-go/server"

	"github.com/companyintel/mcp-server/tools"
)

// addFixtures, set only in a test build (fixtures_conformance.go, build
// tag conformancefixtures), returns tools that build serves beside the
// product's, and how the tasks extension follows them: the MCP
// conformance suite's fixtures. A product build has none, so its
// catalogue is never changed by them.
var addFixtures func() ([]server.ServerTool, map[string]*tools.Follower)
