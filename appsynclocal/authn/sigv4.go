package authn

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
)

const (
	sigV4Algorithm = "AWS4-HMAC-SHA256"
	amzDateFormat  = "20060102T150405Z"
	// maxSkew is how far X-Amz-Date may be from the server's clock, as at
	// AWS; it also bounds how long a captured request can be replayed.
	maxSkew = 15 * time.Minute
)

// 401 messages of the IAM mode, in AWS's words.
const (
	msgBadSignature4 = "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details."
	msgUnknownKey    = "The security token included in the request is invalid."
	msgNoDate        = "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header."
	msgHostUnsigned  = "'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization."
)

// SigV4Credential is a local IAM identity the backend accepts.
type SigV4Credential struct {
	// AccessKeyID and SecretAccessKey are the key pair requests are signed
	// with.
	AccessKeyID     string
	SecretAccessKey string
	// SessionToken, when set, must come in X-Amz-Security-Token, as with
	// temporary credentials.
	SessionToken string
	// User is the Identity.Subject of requests signed with this key; empty
	// means the access key id.
	User string
}

// SigV4Config configures a SigV4Authenticator.
type SigV4Config struct {
	// Region is the region requests must be signed for.
	Region string
	// Credentials are the accepted identities.
	Credentials []SigV4Credential
	// Now is the clock for the skew check; nil means time.Now.
	Now func() time.Time
}

// SigV4Authenticator verifies AWS Signature Version 4 for service appsync by
// recomputing the signature over the request and its exact body.
type SigV4Authenticator struct {
	region string
	creds  map[string]SigV4Credential
	now    func() time.Time
}

// NewSigV4Authenticator checks the configuration and builds the
// authenticator.
func NewSigV4Authenticator(c SigV4Config) (*SigV4Authenticator, error) {
	if c.Region == "" {
		return nil, errors.New("sigv4 authenticator: empty region")
	}
	a := &SigV4Authenticator{region: c.Region, creds: make(map[string]SigV4Credential), now: c.Now}
	if a.now == nil {
		a.now = time.Now
	}
	for _, cr := range c.Credentials {
		if cr.AccessKeyID == "" || cr.SecretAccessKey == "" {
			return nil, errors.New("sigv4 authenticator: a credential without access key id or secret")
		}
		if cr.User == "" {
			cr.User = cr.AccessKeyID
		}
		a.creds[cr.AccessKeyID] = cr
	}
	return a, nil
}

// Authenticate implements the Authenticator contract for IAM. Only an
// Authorization header starting with AWS4-HMAC-SHA256 is its business.
func (a *SigV4Authenticator) Authenticate(r *http.Request, body []byte) (Identity, bool, error) {
	h := r.Header.Get("Authorization")
	if !strings.HasPrefix(h, sigV4Algorithm+" ") {
		return Identity{}, false, nil
	}
	id, err := a.verify(r, body, h)
	return id, true, err
}

func (a *SigV4Authenticator) verify(r *http.Request, body []byte, header string) (Identity, error) {
	p, err := parseAuthorization(header)
	if err != nil {
		return Identity{}, err
	}
	cred, ok := a.creds[p.keyID]
	if !ok {
		return Identity{}, errors.New(msgUnknownKey)
	}
	if err := a.checkScope(p.scope); err != nil {
		return Identity{}, err
	}
	amzDate := r.Header.Get("X-Amz-Date")
	if amzDate == "" {
		return Identity{}, errors.New(msgNoDate)
	}
	if err := a.checkDate(amzDate, p.scope.date); err != nil {
		return Identity{}, err
	}
	if !slices.Contains(p.signedHeaders, "host") {
		return Identity{}, errors.New(msgHostUnsigned)
	}
	if subtle.ConstantTimeCompare([]byte(r.Header.Get("X-Amz-Security-Token")), []byte(cred.SessionToken)) != 1 {
		return Identity{}, errors.New(msgUnknownKey)
	}
	want := signature(cred.SecretAccessKey, r, body, amzDate, p.scope, p.signedHeaders)
	if subtle.ConstantTimeCompare([]byte(want), []byte(p.signature)) != 1 {
		return Identity{}, errors.New(msgBadSignature4)
	}
	return Identity{Method: MethodIAM, Subject: cred.User}, nil
}

// checkScope requires this backend's region and service.
func (a *SigV4Authenticator) checkScope(s scope) error {
	switch {
	case s.region != a.region:
		return fmt.Errorf("Credential should be scoped to a valid region, not '%s' (this API is in '%s').", s.region, a.region)
	case s.service != "appsync":
		return fmt.Errorf("Credential should be scoped to correct service: 'appsync', not '%s'.", s.service)
	case s.terminator != "aws4_request":
		return fmt.Errorf("Credential should be scoped with a valid terminator: 'aws4_request', not '%s'.", s.terminator)
	}
	return nil
}

// checkDate requires X-Amz-Date within maxSkew of now and on the scope's day.
func (a *SigV4Authenticator) checkDate(amzDate, scopeDate string) error {
	t, err := time.Parse(amzDateFormat, amzDate)
	if err != nil {
		return fmt.Errorf("X-Amz-Date '%s' is not in the form %s.", amzDate, amzDateFormat)
	}
	if !strings.HasPrefix(amzDate, scopeDate) {
		return fmt.Errorf("Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '%s' != '%s', from '%s'.", scopeDate, amzDate[:8], amzDate)
	}
	now := a.now().UTC()
	switch {
	case now.Sub(t) > maxSkew:
		return fmt.Errorf("Signature expired: %s is now earlier than %s (%s - 15 min.)", amzDate, now.Add(-maxSkew).Format(amzDateFormat), now.Format(amzDateFormat))
	case t.Sub(now) > maxSkew:
		return fmt.Errorf("Signature not yet current: %s is still later than %s (%s + 15 min.)", amzDate, now.Add(maxSkew).Format(amzDateFormat), now.Format(amzDateFormat))
	}
	return nil
}

// scope is the credential scope: date/region/service/terminator.
type scope struct{ date, region, service, terminator string }

func (s scope) String() string {
	return s.date + "/" + s.region + "/" + s.service + "/" + s.terminator
}

// authorization is a parsed SigV4 Authorization header.
type authorization struct {
	keyID         string
	scope         scope
	signedHeaders []string
	signature     string
}

// parseAuthorization reads
// "AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/appsync/aws4_request,
// SignedHeaders=host;x-amz-date, Signature=<hex>".
func parseAuthorization(h string) (authorization, error) {
	var p authorization
	fields := map[string]string{}
	for _, kv := range strings.Split(strings.TrimPrefix(h, sigV4Algorithm+" "), ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok {
			return p, fmt.Errorf("Authorization header requires each component to be of the form key=value, not '%s'.", strings.TrimSpace(kv))
		}
		fields[k] = v
	}
	for _, k := range []string{"Credential", "SignedHeaders", "Signature"} {
		if fields[k] == "" {
			return p, fmt.Errorf("Authorization header requires '%s' parameter.", k)
		}
	}
	parts := strings.Split(fields["Credential"], "/")
	if len(parts) != 5 {
		return p, errors.New("Credential must have exactly 5 slash-delimited elements, e.g. keyid/date/region/service/term.")
	}
	p.keyID = parts[0]
	p.scope = scope{date: parts[1], region: parts[2], service: parts[3], terminator: parts[4]}
	p.signedHeaders = strings.Split(fields["SignedHeaders"], ";")
	p.signature = fields["Signature"]
	return p, nil
}
