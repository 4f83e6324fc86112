// Package app assembles the server from a configuration (package config):
// the credential chain, the GraphQL client, the read tools (over graphql/query) and the write tools
// (over graphql/mutation), resources, prompts and the transports. It is the
// only package that imports both tools/read and tools/write.
package app
