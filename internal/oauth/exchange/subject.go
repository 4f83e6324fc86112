// Package exchange holds the server's credential toward the backend for each
// inbound user of the HTTP transport: the verified user rides in the request
// context as a Subject, and an Exchanger trades that user's token for a
// backend token by OAuth 2.0 Token Exchange (RFC 8693).
//
// The MCP authorization spec forbids passing the client's token through to
// an upstream API ("Access Token Privilege Restriction"), so the inbound JWT
// is only ever sent to the issuer, as the exchange's subject_token; the
// backend sees a token minted for its own audience, carrying the same user.
package exchange

import (
	"context"
	"time"
)

// Subject is the verified inbound user of one request.
type Subject struct {
	// Issuer and Subject identify the user (the token's iss and sub).
	Issuer, Subject string
	// Token is the inbound JWT. It is used only as the exchange's
	// subject_token: never logged, never sent to the backend.
	Token string
	// Scopes are the inbound token's scopes; the exchanged token keeps them.
	Scopes []string
	// Expiry is the inbound token's exp; no exchanged token is cached
	// beyond it.
	Expiry time.Time
}

type subjectKey struct{}

// WithSubject returns ctx carrying s.
func WithSubject(ctx context.Context, s Subject) context.Context {
	return context.WithValue(ctx, subjectKey{}, s)
}

// SubjectFrom returns the Subject ctx carries, if any.
func SubjectFrom(ctx context.Context) (Subject, bool) {
	s, ok := ctx.Value(subjectKey{}).(Subject)
	return s, ok
}
