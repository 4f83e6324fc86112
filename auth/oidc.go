package auth

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/coreos/go-oidc/v3/oidc"
)

// oidcSettings are the OIDC_* variables.
type oidcSettings struct {
	issuer       string   // OIDC_ISSUER
	audience     string   // OIDC_AUDIENCE, else OIDC_CLIENT_ID
	token        string   // OIDC_TOKEN
	tokenFile    string   // OIDC_TOKEN_FILE
	clientID     string   // OIDC_CLIENT_ID
	clientSecret string   // OIDC_CLIENT_SECRET
	refreshToken string   // OIDC_REFRESH_TOKEN
	scopes       []string // OIDC_SCOPES, space- or comma-separated
}

// oidcVars are the variables that make OIDC "configured": setting any of them
// commits the server to OIDC, so a mistake in them is an error, not a reason
// to fall back to a weaker method.
var oidcVars = []string{"OIDC_ISSUER", "OIDC_AUDIENCE", "OIDC_TOKEN", "OIDC_TOKEN_FILE", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET", "OIDC_REFRESH_TOKEN", "OIDC_SCOPES"}

// readOIDCSettings reads the variables; configured is false when none is set.
func readOIDCSettings(getenv func(string) string) (s oidcSettings, configured bool) {
	for _, v := range oidcVars {
		if getenv(v) != "" {
			configured = true
		}
	}
	s = oidcSettings{
		issuer:       strings.TrimSpace(getenv("OIDC_ISSUER")),
		audience:     strings.TrimSpace(getenv("OIDC_AUDIENCE")),
		token:        strings.TrimSpace(getenv("OIDC_TOKEN")),
		tokenFile:    strings.TrimSpace(getenv("OIDC_TOKEN_FILE")),
		clientID:     strings.TrimSpace(getenv("OIDC_CLIENT_ID")),
		clientSecret: getenv("OIDC_CLIENT_SECRET"),
		refreshToken: strings.TrimSpace(getenv("OIDC_REFRESH_TOKEN")),
		scopes:       strings.FieldsFunc(getenv("OIDC_SCOPES"), func(r rune) bool { return r == ',' || r == ' ' }),
	}
	if s.audience == "" {
		s.audience = s.clientID
	}
	return s, configured
}

// tokenKind names where tokens come from, as Status.TokenSource shows it.
type tokenKind string

const (
	fromEnv               tokenKind = "OIDC_TOKEN"
	fromFile              tokenKind = "OIDC_TOKEN_FILE"
	fromRefreshToken      tokenKind = "refresh_token"
	fromClientCredentials tokenKind = "client_credentials"
)

// kind picks the token source, or says what is missing.
func (s oidcSettings) kind() (tokenKind, error) {
	switch {
	case s.issuer == "":
		return "", errorf(OIDC, "OIDC_ISSUER is not set: set it to the issuer URL of the tokens (the AppSync API's OIDC issuer) so they can be verified")
	case CheckSecureURL(s.issuer) != nil:
		return "", errorf(OIDC, "OIDC_ISSUER %s: set it to the issuer's https URL, e.g. OIDC_ISSUER=https://login.example.com/realms/main", CheckSecureURL(s.issuer))
	case s.audience == "":
		return "", errorf(OIDC, "no audience: set OIDC_AUDIENCE (or OIDC_CLIENT_ID) to the client id the AppSync API's OIDC configuration expects")
	case s.token != "" && s.tokenFile != "":
		return "", errorf(OIDC, "both OIDC_TOKEN and OIDC_TOKEN_FILE are set: unset one")
	case s.tokenFile != "":
		return fromFile, nil
	case s.token != "":
		return fromEnv, nil
	case s.refreshToken != "" && s.clientID == "":
		return "", errorf(OIDC, "OIDC_REFRESH_TOKEN needs OIDC_CLIENT_ID (and OIDC_CLIENT_SECRET for a confidential client)")
	case s.refreshToken != "":
		return fromRefreshToken, nil
	case s.clientID != "" && s.clientSecret != "":
		return fromClientCredentials, nil
	}
	return "", errorf(OIDC, "no token: set OIDC_TOKEN_FILE, OIDC_TOKEN, OIDC_REFRESH_TOKEN with OIDC_CLIENT_ID, or OIDC_CLIENT_ID with OIDC_CLIENT_SECRET")
}

// tryOIDC is the first link of the chain: discovery, then a first token,
// verified before anything is sent with it.
func tryOIDC(ctx context.Context, r *resolver) (*Source, string, error) {
	s, configured := readOIDCSettings(r.o.Getenv)
	if !configured {
		return nil, "no OIDC_* variable is set", nil
	}
	r.secrets.add(s.token, s.clientSecret, s.refreshToken)
	kind, err := s.kind()
	if err != nil {
		return nil, "", err
	}
	v, err := discover(ctx, r.o, s.issuer, s.audience)
	if err != nil {
		return nil, "", err
	}
	var tokens tokenProvider
	switch kind {
	case fromEnv:
		tokens, err = newStaticTokens(ctx, v, s.token)
	case fromFile:
		tokens, err = newFileTokens(ctx, v, s.tokenFile, r.o.Logger, r.secrets)
	default:
		tokens, err = newEndpointTokens(ctx, v, s, kind, r)
	}
	if err != nil {
		return nil, "", err
	}
	return newOIDCSource(s, kind, v, tokens, r.o), "", nil
}

// discover fetches the issuer's discovery document and builds a verifier that
// checks signature, issuer, audience and expiry.
func discover(ctx context.Context, o Options, issuer, audience string) (*verifier, error) {
	ctx, cancel := context.WithTimeout(oidc.ClientContext(ctx, o.httpClient()), o.Timeout)
	defer cancel()
	p, err := oidc.NewProvider(ctx, issuer)
	if err != nil {
		var mismatch *oidc.IssuerMismatchError
		if errors.As(err, &mismatch) {
			return nil, errorf(OIDC, "OIDC_ISSUER is %q but its discovery document names the issuer %q: set OIDC_ISSUER to exactly that", mismatch.Provided, mismatch.Discovered)
		}
		return nil, errorf(OIDC, "issuer %s unreachable or not an OIDC issuer (%s): check OIDC_ISSUER and the network", issuer, oneLine(err))
	}
	// The key set gets its own long-lived context: the one above is
	// cancelled when start-up ends, but keys are fetched again on rotation.
	keyCtx := oidc.ClientContext(context.Background(), o.httpClient())
	return &verifier{
		issuer:   issuer,
		audience: audience,
		tokenURL: p.Endpoint().TokenURL,
		v:        p.VerifierContext(keyCtx, &oidc.Config{ClientID: audience, Now: o.Now}),
		timeout:  o.Timeout,
		now:      o.Now,
	}, nil
}

// oneLine keeps the first line of an error, which is all a user needs; some
// libraries append response bodies on later lines.
func oneLine(err error) string {
	msg, _, _ := strings.Cut(err.Error(), "\n")
	return msg
}

// readTokenFile reads a token file; tokens are written with a trailing
// newline more often than not.
func readTokenFile(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", errorf(OIDC, "cannot read OIDC_TOKEN_FILE %s: %s", path, unwrapPathError(err))
	}
	t := strings.TrimSpace(string(b))
	if t == "" {
		return "", errorf(OIDC, "OIDC_TOKEN_FILE %s is empty: the process that writes it has not written a token yet", path)
	}
	return t, nil
}

// describeSource is the remedy for a bad or expired token, by where the
// token comes from.
func describeSource(kind tokenKind, s oidcSettings) string {
	switch kind {
	case fromFile:
		return fmt.Sprintf("refresh OIDC_TOKEN_FILE %s (is the process that writes it still running?)", s.tokenFile)
	case fromEnv:
		return "set OIDC_TOKEN to a fresh token and restart, or use OIDC_TOKEN_FILE or OIDC_REFRESH_TOKEN so the server can renew it"
	case fromRefreshToken:
		return "check OIDC_REFRESH_TOKEN and OIDC_CLIENT_ID (the refresh token may have been revoked)"
	default:
		return "check OIDC_CLIENT_ID and OIDC_CLIENT_SECRET"
	}
}
