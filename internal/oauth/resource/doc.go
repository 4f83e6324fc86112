// Package resource makes the HTTP service an OAuth 2.1 protected resource.
// Every request to /mcp must carry a bearer JWT from one of the configured
// issuers, verified with go-oidc: signature against the issuer's JWKS
// (asymmetric algorithms only), iss, aud equal to the resource identifier
// (the server's public URL), exp and nbf. A missing or bad token is a 401
// whose WWW-Authenticate points at the RFC 9728 metadata document, which
// this package also serves.
//
// Scopes narrow what a verified user may do, under the server's own flags:
// a read tool needs the read scope; a write tool, when the server allows
// it at all, the write scope. The decision is made from the JSON-RPC body
// (never from headers a client sets freely) before mcp-go sees the
// request, and a missing scope is a 403 insufficient_scope challenge
// naming every scope the call needs. Nothing reaches the backend first.
//
// The token itself is never logged and never appears in an answer.
package resource
