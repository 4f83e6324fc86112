package auth

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

// appsyncService is the SigV4 service name of AppSync's GraphQL endpoint.
const appsyncService = "appsync"

// newSigV4Source builds the Source. The principal is "iam:<access key id>":
// the key id is not a secret and names the identity well enough for logs and
// rate limits, while resolving the caller ARN would cost an STS call at every
// start-up.
func newSigV4Source(creds *aws.CredentialsCache, keyID, region, credSource string, o Options) *Source {
	principal := "iam:" + keyID
	return &Source{
		Method:    SigV4,
		Principal: principal,
		Transport: &sigv4Transport{creds: creds, signer: v4.NewSigner(), region: region, now: o.Now, base: o.Base},
		hint: func() string {
			return fmt.Sprintf("AWS credentials rejected (%s, from %s, signing for region %s): check that they are not expired or revoked, that this identity's IAM policy allows appsync:GraphQL on the API, and that the API accepts AWS_IAM", principal, credSource, region)
		},
		status: func() Status {
			return Status{Method: SigV4, Principal: principal, Region: region, CredentialSource: credSource}
		},
	}
}

// sigv4Transport signs each request for service appsync over the exact body
// it sends.
type sigv4Transport struct {
	creds  aws.CredentialsProvider
	signer *v4.Signer
	region string
	now    func() time.Time
	base   http.RoundTripper
}

func (t *sigv4Transport) RoundTrip(r *http.Request) (*http.Response, error) {
	if err := refuseInsecure(SigV4, r.URL); err != nil {
		closeBody(r)
		return nil, err
	}
	body, err := readBody(r)
	if err != nil {
		return nil, err
	}
	// Retrieve is served from the cache; the SDK refreshes temporary
	// credentials shortly before they expire.
	c, err := t.creds.Retrieve(r.Context())
	if err != nil {
		return nil, errorf(SigV4, "AWS credentials could not be refreshed (%s): check the AWS configuration the server started with", oneLine(err))
	}
	sum := sha256.Sum256(body)
	out := r.Clone(r.Context())
	out.Body = io.NopCloser(bytes.NewReader(body))
	out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	out.ContentLength = int64(len(body))
	// SignHTTP adds X-Amz-Date, X-Amz-Security-Token (when the credentials
	// have a session token) and Authorization, and signs every header
	// present, Content-Length and Host included.
	if err := t.signer.SignHTTP(r.Context(), c, out, hex.EncodeToString(sum[:]), appsyncService, t.region, t.now()); err != nil {
		return nil, errorf(SigV4, "signing the request failed: %s", oneLine(err))
	}
	return t.base.RoundTrip(out)
}

// readBody returns the request body without consuming what the caller may
// still read: through GetBody when the request has it (graphql.Client's
// requests do), else by reading and closing the body, which a RoundTripper
// must do anyway.
func readBody(r *http.Request) ([]byte, error) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, nil
	}
	rc := r.Body
	if r.GetBody != nil {
		r.Body.Close()
		var err error
		if rc, err = r.GetBody(); err != nil {
			return nil, fmt.Errorf("reading the request body to sign it: %w", err)
		}
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		return nil, fmt.Errorf("reading the request body to sign it: %w", err)
	}
	return b, nil
}
