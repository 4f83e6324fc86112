// Package appsynclocal is an embedded, AppSync-compatible GraphQL backend for
// the company-intelligence API in schema.graphql.
//
// It exists because nothing this project runs on can reach AWS: demos, CI and
// tests talk to it instead, over real HTTP, with the same generated client.
// It behaves like AppSync where a client can tell:
//
//   - POST /graphql only; answers in AppSync's shape, with errorType,
//     message, path and locations on each error.
//   - Authentication by API key (x-api-key), plus any Authenticators given
//     (OIDC and SigV4 live in package appsynclocal/authn). Without valid
//     credentials: HTTP 401 UnauthorizedException.
//   - Field-level authorization from the schema's @aws_api_key, @aws_oidc
//     and @aws_iam directives: "Not Authorized to access X on type Y".
//   - Server-side limits and opaque nextToken pagination.
//
// Data comes from package store (SQLite, with its own search index) over a
// deterministic synthetic data set (package dataset). Faults (latency, 5xx,
// throttling, malformed bodies, partial errors) can be switched on at run
// time through Backend.Faults, flags of cmd/appsync-local, or POST /__faults
// from loopback.
package appsynclocal
