package auth

import (
	"io"
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/aws/aws-sdk-go-v2/config"
)

// DefaultTimeout bounds each network call Resolve makes for a configured
// method (issuer discovery, JWKS, the first token from a token endpoint, AWS
// credential retrieval), and each token refresh afterwards.
const DefaultTimeout = 2 * time.Second

// imdsProbeTimeout bounds the one probe Resolve makes when nothing is
// configured: asking the EC2 instance metadata service for a role. On EC2 it
// answers in milliseconds; elsewhere the address may be black-holed, and
// start-up must not wait for a TCP timeout (DESIGN.md: about 2 s at most).
const imdsProbeTimeout = time.Second

// Options is what the chain may use. Empty fields are read from the
// environment or get a default.
type Options struct {
	// Force, when set, picks one method instead of walking the chain (the
	// --auth flag; see ParseMethod). A forced method that is not configured
	// is an error.
	Force Method
	// ForcedBy is how Force was given, as a refusal names it: "--auth
	// oidc", or "MCP_AUTH=oidc" when it came from the environment; empty
	// means the flag.
	ForcedBy string
	// Endpoint is the AppSync GraphQL URL; SigV4 reads the region from it.
	Endpoint string
	// APIKey overrides APPSYNC_API_KEY.
	APIKey string
	// Getenv reads this package's variables (OIDC_*, APPSYNC_API_KEY); nil
	// means os.Getenv. The AWS SDK reads the process environment and the
	// shared config files itself; use AWSConfig to steer it.
	Getenv func(string) string
	// Base is the transport credentials are added on top of, also used to
	// reach the OIDC issuer; nil means http.DefaultTransport.
	Base http.RoundTripper
	// Logger receives debug lines about the choice and warnings about token
	// reloads; nil discards them. Nothing logged carries a secret.
	Logger *slog.Logger
	// Now is the clock for token expiry and request signing; nil means
	// time.Now. Tests inject it instead of sleeping.
	Now func() time.Time
	// Timeout bounds each network call (see DefaultTimeout); 0 means
	// DefaultTimeout.
	Timeout time.Duration
	// AWSConfig are extra options for config.LoadDefaultConfig, such as
	// config.WithSharedConfigProfile or, in tests, a static credentials
	// provider.
	AWSConfig []func(*config.LoadOptions) error
}

// withDefaults fills every empty field.
func (o Options) withDefaults() Options {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.Base == nil {
		o.Base = http.DefaultTransport
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	return o
}

// httpClient is the client used to talk to an OIDC issuer.
func (o Options) httpClient() *http.Client {
	return &http.Client{Transport: o.Base, Timeout: o.Timeout}
}
