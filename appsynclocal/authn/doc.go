// Package authn verifies callers of the embedded AppSync backend the way
// AppSync does, and hosts the OIDC issuer the backend trusts.
//
//   - Issuer is an embedded OpenID Connect issuer: discovery document, JWKS,
//     a token endpoint (client_credentials and refresh_token grants) and Mint
//     for named local users. Mount Issuer.Handler on any mux under the
//     issuer URL's path, or run it on its own listener with StartIssuer.
//     It is also a small OAuth 2.1 authorization server for demo users:
//     RFC 8414 metadata, the authorization code flow with PKCE (S256), a
//     consent page where a person picks a demo user and approves or denies
//     (issuer_consent.go), public clients that register themselves (RFC
//     7591, issuer_register.go), are configured by the operator, or are
//     identified by Client ID Metadata Documents fetched safely
//     (issuer_clients.go), and the token-exchange grant (RFC 8693) toward
//     allowlisted audiences.
//   - OIDCAuthenticator verifies a JWT in the Authorization header with
//     go-oidc (signature, issuer, audience, expiry).
//   - SigV4Authenticator recomputes an AWS Signature Version 4 over the
//     request and its exact body for configured local credentials.
//
// The API key is appsynclocal's own (appsynclocal.APIKeyAuthenticator).
//
// Both authenticators satisfy appsynclocal.Authenticator: ok=false when the
// request carries no credentials of their kind, so the backend can try them
// in turn, and an error whose message is the 401 message when the
// credentials are present but invalid. Messages use AppSync's words where
// AppSync has them.
package authn
