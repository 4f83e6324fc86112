// Package graphql is the hand-written transport to the AppSync GraphQL API:
// Client posts an operation and turns every way a call can fail into a typed
// *Error. It holds no operations. The read operations live in package
// graphql/query (Reader), the write operations in package graphql/mutation
// (Writer), each with its own generated code, so that a package can depend on
// the reads without being able to reach a mutation.
package graphql
