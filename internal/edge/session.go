package edge

import (
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"
)

// clientInfo is what a client said of itself, at initialize or in a
// 2026-07-28 request's _meta (mcp-go's SessionWithClientInfo).
type clientInfo struct {
	info atomic.Pointer[mcp.Implementation]
	caps atomic.Pointer[mcp.ClientCapabilities]
}

// GetClientInfo returns what the client said it is.
func (c *clientInfo) GetClientInfo() mcp.Implementation { return valueOf(c.info.Load()) }

// SetClientInfo records what the client said it is.
func (c *clientInfo) SetClientInfo(i mcp.Implementation) { c.info.Store(&i) }

// GetClientCapabilities returns the client's declared capabilities.
func (c *clientInfo) GetClientCapabilities() mcp.ClientCapabilities { return valueOf(c.caps.Load()) }

// SetClientCapabilities records the client's declared capabilities.
func (c *clientInfo) SetClientCapabilities(caps mcp.ClientCapabilities) { c.caps.Store(&caps) }

// valueOf is *p, or the zero value when nothing was stored.
func valueOf[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}
