// Package mcphttp is the HTTP front of the MCP server: what every request
// to /mcp passes before mcp-go's Streamable HTTP handler sees it. It caps
// and reads the body once and names the JSON-RPC message inside (so that
// authorization and metrics decide from the body, never from headers a
// client may set freely), checks Host and Origin against DNS rebinding,
// bounds each request by a deadline, and serves the whole mux with
// header timeouts and a bounded graceful drain.
//
// It knows nothing of tokens or tools: package inbound authenticates, and
// the app package assembles the chain.
package mcphttp
