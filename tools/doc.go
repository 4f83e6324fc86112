// Package tools holds the plumbing every MCP tool of this server shares, written
// once: the input schema and argument validation derived from one Go struct,
// the order of checks in a call (arguments, mutation gate, rate limit, backend
// call with a deadline), the mapping of every failure to an error class, the
// shaping of results, and the one audit record per call.
//
// The tools themselves live in tools/read (queries only) and tools/write
// (mutations, each behind the --allow-mutations gate). Neither imports the other.
package tools
