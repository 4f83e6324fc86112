package auth

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"regexp"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/smithy-go/logging"
)

// appsyncHost matches AppSync's own endpoint host and captures the region:
// <api id>.appsync-api.<region>.amazonaws.com (".cn" in China). Compiled on
// first use, not at package initialisation, which every start pays.
var appsyncHost = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[a-z0-9]+\.appsync-api\.([a-z0-9-]+)\.amazonaws\.com(\.cn)?$`)
})

// trySigV4 is the second link of the chain: the SDK's default credential
// chain (environment, shared profile and SSO, web identity, container and
// instance roles), cached and refreshed by aws.CredentialsCache.
//
// The SDK resolves to exactly one provider. Only its last resort, the EC2
// instance role found through the metadata service, means "nothing was
// configured": that probe is bounded by imdsProbeTimeout and its failure
// skips SigV4. Any other provider failing means the operator configured AWS
// and it is broken, which stops start-up.
func trySigV4(ctx context.Context, r *resolver) (*Source, string, error) {
	// The SDK reads the process environment itself, so this check does too.
	if os.Getenv("AWS_ACCESS_KEY_ID") != "" && os.Getenv("AWS_SECRET_ACCESS_KEY") == "" {
		return nil, "", errorf(SigV4, "AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not: set both, or neither")
	}
	r.secrets.add(os.Getenv("AWS_SECRET_ACCESS_KEY"), os.Getenv("AWS_SESSION_TOKEN"))

	ctx, cancel := context.WithTimeout(ctx, r.o.Timeout)
	defer cancel()
	opts := append([]func(*config.LoadOptions) error{
		// The SDK would otherwise print its own lines to stderr, such as
		// "WARN falling back to IMDSv1" on every start-up off EC2.
		config.WithLogger(sdkLogger{log: r.o.Logger, secrets: r.secrets}),
	}, r.o.AWSConfig...)
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, "", errorf(SigV4, "the AWS configuration cannot be loaded (%s): check AWS_PROFILE and the shared config files", oneLine(err))
	}
	creds, ok := cfg.Credentials.(*aws.CredentialsCache)
	if !ok {
		creds = aws.NewCredentialsCache(cfg.Credentials)
	}
	sources := creds.ProviderSources()
	implicit := len(sources) == 1 && sources[0] == aws.CredentialSourceIMDS
	probe := ctx
	if implicit {
		var cancelProbe context.CancelFunc
		probe, cancelProbe = context.WithTimeout(ctx, imdsProbeTimeout)
		defer cancelProbe()
	}
	c, err := creds.Retrieve(probe)
	if err != nil {
		if implicit {
			return nil, "no AWS credentials in the environment, shared config or container settings, and no EC2 instance role answered", nil
		}
		src, fix := describeAWSSource(sources)
		return nil, "", errorf(SigV4, "AWS credentials are configured (%s) but cannot be retrieved (%s): %s", src, oneLine(err), fix)
	}
	r.secrets.add(c.SecretAccessKey, c.SessionToken)

	region, err := signingRegion(r.o.Endpoint, cfg.Region)
	if err != nil {
		return nil, "", err
	}
	src, _ := describeAWSSource(sources)
	return newSigV4Source(creds, c.AccessKeyID, region, src, r.o), "", nil
}

// signingRegion reads the region from an AppSync endpoint host, else takes
// the SDK's region (AWS_REGION, AWS_DEFAULT_REGION or the profile's).
func signingRegion(endpoint, configured string) (string, error) {
	if u, err := url.Parse(endpoint); err == nil {
		if m := appsyncHost().FindStringSubmatch(strings.ToLower(u.Hostname())); m != nil {
			return m[1], nil
		}
	}
	if configured != "" {
		return configured, nil
	}
	return "", errorf(SigV4, "no region to sign for: the endpoint %q is not <id>.appsync-api.<region>.amazonaws.com; set AWS_REGION", endpoint)
}

// describeAWSSource names where credentials come from and what to check
// when they fail. The SDK lists a provider's sources from the outside in;
// the most specific one decides.
func describeAWSSource(sources []aws.CredentialSource) (name, fix string) {
	has := func(want ...aws.CredentialSource) bool {
		for _, s := range sources {
			for _, w := range want {
				if s == w {
					return true
				}
			}
		}
		return false
	}
	profile := os.Getenv("AWS_PROFILE")
	if profile == "" {
		profile = "default"
	}
	switch {
	case has(aws.CredentialSourceSSO, aws.CredentialSourceSSOLegacy, aws.CredentialSourceProfileSSO, aws.CredentialSourceProfileSSOLegacy):
		return "SSO", fmt.Sprintf("run `aws sso login --profile %s`", profile)
	case has(aws.CredentialSourceEnvVarsSTSWebIDToken, aws.CredentialSourceProfileSTSWebIDToken, aws.CredentialSourceSTSAssumeRoleWebID):
		return "web identity", "check AWS_WEB_IDENTITY_TOKEN_FILE and AWS_ROLE_ARN (or the profile's web_identity_token_file and role_arn)"
	case has(aws.CredentialSourceProcess, aws.CredentialSourceProfileProcess):
		return "credential_process", fmt.Sprintf("run the credential_process of profile %s by hand to see why it fails", profile)
	case has(aws.CredentialSourceLogin, aws.CredentialSourceProfileLogin):
		return "aws login", fmt.Sprintf("run `aws login --profile %s`", profile)
	case has(aws.CredentialSourceHTTP):
		return "container credentials", "check AWS_CONTAINER_CREDENTIALS_RELATIVE_URI / AWS_CONTAINER_CREDENTIALS_FULL_URI and the task or pod role"
	case has(aws.CredentialSourceSTSAssumeRole):
		return "assumed role", fmt.Sprintf("check role_arn and source_profile of profile %s", profile)
	case has(aws.CredentialSourceProfile, aws.CredentialSourceProfileSourceProfile, aws.CredentialSourceProfileNamedProvider):
		return "shared profile " + profile, "check the profile in the shared config and credentials files"
	case has(aws.CredentialSourceEnvVars):
		return "environment", "check AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN"
	case has(aws.CredentialSourceIMDS):
		return "EC2 instance role", "check the instance profile attached to this instance"
	}
	return "configured provider", "check the AWS configuration"
}

// sdkLogger sends the SDK's own log lines to slog at debug level, scrubbed.
type sdkLogger struct {
	log     *slog.Logger
	secrets *secrets
}

func (l sdkLogger) Logf(c logging.Classification, format string, v ...any) {
	l.log.Debug("aws sdk: "+l.secrets.scrub(fmt.Sprintf(format, v...)), "classification", string(c))
}
