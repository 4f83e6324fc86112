package auth

import (
	"context"
	"errors"
	"fmt"
)

// attempt tries one method. It returns a Source when the method is configured
// and works; ("", reason) when it is not configured; an error when it is
// configured but broken.
type attempt func(ctx context.Context, r *resolver) (src *Source, skip string, err error)

// chain is the order of DESIGN.md: the strongest identity first.
var chain = []struct {
	method Method
	try    attempt
}{
	{OIDC, tryOIDC},
	{SigV4, trySigV4},
	{APIKey, tryAPIKey},
}

// resolver carries the options and the secrets read so far, so that every
// error leaving Resolve can be scrubbed of them.
type resolver struct {
	o       Options
	secrets *secrets
}

// Resolve walks the chain and returns the first configured method, or the
// forced one. It returns ErrNoCredentials when nothing is configured, and an
// *Error when a method is configured but broken: it never falls through to a
// weaker method. Network calls are bounded by Options.Timeout; when nothing
// is configured the decision takes at most about one second (the EC2
// metadata probe).
func Resolve(ctx context.Context, o Options) (*Source, error) {
	force, err := ParseMethod(string(o.Force))
	if err != nil {
		return nil, err
	}
	r := &resolver{o: o.withDefaults(), secrets: newSecrets()}
	log := r.o.Logger
	var skipped []string
	for _, step := range chain {
		if force != "" && step.method != force {
			continue
		}
		src, skip, err := step.try(ctx, r)
		if err != nil {
			return nil, r.secrets.scrubError(err)
		}
		if src == nil {
			log.Debug("auth method skipped", "method", string(step.method), "reason", skip)
			skipped = append(skipped, fmt.Sprintf("%s: %s", step.method, skip))
			continue
		}
		log.Debug("auth method chosen", "method", string(src.Method), "principal", src.Principal)
		r.secrets.pin()
		r.reportUnusedKey(src)
		return src, nil
	}
	if force != "" {
		given := o.ForcedBy
		if given == "" {
			given = "--auth " + string(force)
		}
		return nil, r.secrets.scrubError(errorf(force, "%s was given but %s is not configured (%s)", given, force, skipped[0]))
	}
	return nil, ErrNoCredentials
}

// IsNotConfigured reports whether err means that no method is configured, as
// opposed to a configured method being broken.
func IsNotConfigured(err error) bool { return errors.Is(err, ErrNoCredentials) }

// reportUnusedKey says so when an API key the operator set explicitly is
// not used because a method earlier in the chain won, most surprisingly
// AWS credentials the machine provides (an instance or container role)
// rather than anything the operator configured for this server.
func (r *resolver) reportUnusedKey(src *Source) {
	if src.Method == APIKey || (r.o.APIKey == "" && r.o.Getenv("APPSYNC_API_KEY") == "") {
		return
	}
	winner := string(src.Method)
	if cs := src.Status().CredentialSource; cs != "" {
		winner += " (AWS credentials from " + cs + ")"
	}
	r.o.Logger.Warn("APPSYNC_API_KEY is set but not used: the credential chain chose " + winner +
		", which comes first; start with --auth apikey (MCP_AUTH=apikey) to use the key, or unset APPSYNC_API_KEY")
}
