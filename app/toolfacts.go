package app

import (
	"cmp"
	"slices"

	"github.com/companyintel/mcp-server/ratelimit"
	"github.com/companyintel/mcp-server/tools"
	"github.com/companyintel/mcp-server/tools/feedback"
	"github.com/companyintel/mcp-server/tools/read"
	"github.com/companyintel/mcp-server/tools/write"
)

// The server knows a tool by its Facts (tools.Facts), kept in the tool's own
// file: which tools write, which are per user, the default rate limits, the
// scope a call needs and the bounds the status resource states are all read
// from them here, so they cannot disagree, and a new tool file is the whole
// change a new tool needs. The facts are read without building any tool: a
// start-up that built every schema just for the names cost a third of its
// CPU.

// catalogueFacts returns the facts of every tool the server can serve, in
// catalogue order; the opt-in feedback tool only when withFeedback.
func catalogueFacts(withFeedback bool) []tools.Facts {
	all := append(read.Facts(), write.Facts()...)
	if withFeedback {
		all = append(all, feedback.Facts)
	}
	slices.SortFunc(all, func(a, b tools.Facts) int { return cmp.Compare(a.Order, b.Order) })
	return all
}

// inCatalogueOrder sorts built tools as catalogueFacts does.
func inCatalogueOrder(ts []tools.Tool) []tools.Tool {
	slices.SortFunc(ts, func(a, b tools.Tool) int { return cmp.Compare(a.Facts().Order, b.Facts().Order) })
	return ts
}

// ToolNames lists every tool this server can serve, in catalogue order, the
// opt-in feedback tool last (--rate-limit and the metrics know it).
func ToolNames() []string {
	var out []string
	for _, f := range catalogueFacts(true) {
		out = append(out, f.Name)
	}
	return out
}

// writeTools are the names --allow-mutations accepts, in catalogue order.
func writeTools() []string {
	var out []string
	for _, f := range catalogueFacts(false) {
		if f.Writes() {
			out = append(out, f.Name)
		}
	}
	return out
}

// factsOf returns the named tool's facts; ok is false for a name no tool has.
func factsOf(name string) (f tools.Facts, ok bool) {
	for _, f := range catalogueFacts(true) {
		if f.Name == name {
			return f, true
		}
	}
	return tools.Facts{}, false
}

// isWrite reports whether the named tool writes.
func isWrite(name string) bool {
	f, _ := factsOf(name)
	return f.Writes()
}

// isPerUser reports whether the named tool's answer depends on who asks.
func isPerUser(name string) bool {
	f, _ := factsOf(name)
	return f.PerUser
}

// defaultLimits are the tools' own default rate limits, which --rate-limit
// and RATE_LIMITS override. The map is new on each call.
func defaultLimits() map[string]ratelimit.Limit {
	out := map[string]ratelimit.Limit{}
	for _, f := range catalogueFacts(true) {
		if !f.Limit.Unlimited() {
			out[f.Name] = f.Limit
		}
	}
	return out
}

// argumentBounds are the tools' bounds as the status resource states them,
// keyed "tool.argument".
func argumentBounds(withFeedback bool) map[string]string {
	out := map[string]string{}
	for _, f := range catalogueFacts(withFeedback) {
		for arg, b := range f.Bounds {
			out[f.Name+"."+arg] = b
		}
	}
	return out
}
