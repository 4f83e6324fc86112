// Package app assembles the server from a configuration (package config):
// the credential chain, the GraphQL client, the read tools (over
// graphql/query) and the write tools (over graphql/mutation), resources,
// prompts, and the wiring of each transport's entry in package edge
// (edge.ServeStdio, edge.Handler). It is the only package that imports both
// tools/read and tools/write.
package app
