package tools

import "github.com/mark3labs/mcp-go/mcp"

// WithView returns a copy of t linked to an MCP Apps view (the
// io.modelcontextprotocol/ui extension, SEP-1865): tools/list carries
// _meta.ui.resourceUri = uri, and a host that supports the extension renders
// the tool's results with the ui:// resource of that URI. Other clients
// ignore the key (_meta is the protocol's place for extensions), and the
// tool's results are the same for everyone.
//
// The link is always listed, not only to clients that declare the
// extension: the HTTP service is stateless, and under 2025-11-25 a
// tools/list request there does not say what the client declared at
// initialize, so a conditional link would make the catalogue depend on the
// transport and its hash name two contracts.
func (t Tool) WithView(uri string) Tool {
	t.def.Meta = mcp.NewMetaFromMap(map[string]any{"ui": map[string]any{"resourceUri": uri}})
	return t
}
