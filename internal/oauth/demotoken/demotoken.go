// Package demotoken gets a bearer token for a demo user of a running MCP
// server whose authorization server is the embedded demo issuer, for curl
// and scripts: the `mcp-server demo-token` command.
//
// It does what an MCP client does, without a browser: it discovers the
// authorization server from the server's protected resource metadata
// (RFC 9728), reads the authorization server's metadata (RFC 8414), and runs
// the authorization code flow with PKCE as the demo-token client (a Client
// ID Metadata Document the embedded issuer carries). The issuer preapproves
// that client, since it runs on the operator's machine without a browser:
// it signs the named user (one of its demo users) in and redirects at once,
// so the redirect is read instead of followed; an authorization server that
// shows a login or consent page is reported as such.
package demotoken

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"github.com/companyintel/mcp-server/internal/loopback"
)

// ClientID is the demo-token client's client_id: the URL of its Client ID
// Metadata Document, which the embedded issuer allowlists and carries
// (appsynclocal/authn.DemoTokenClientID; a test keeps the two equal).
const ClientID = "https://companyintel.github.io/mcp-server/oauth/demo-token.json"

// RedirectURI is the redirect registered in that document.
const RedirectURI = "http://127.0.0.1/callback"

// DefaultScope is asked for when Options.Scope is empty.
const DefaultScope = "companies:read"

// Timeout bounds the whole flow when the context has no deadline.
const Timeout = 30 * time.Second

// maxDocument bounds each metadata document read.
const maxDocument = 1 << 20

// Options say whom to get a token for, and where.
type Options struct {
	// Server is the MCP server's URL, e.g. http://127.0.0.1:8080/mcp; its
	// origin alone (http://127.0.0.1:8080) works too.
	Server string
	// User is the demo user to log in; empty means the issuer's default.
	User string
	// Scope is the space-separated scopes to ask for; empty means
	// DefaultScope.
	Scope string
	// HTTPClient makes the requests; nil means http.DefaultClient.
	// Redirects are never followed, whatever its policy.
	HTTPClient *http.Client
}

// Token runs discovery and the authorization code flow and returns the
// access token.
func Token(ctx context.Context, o Options) (string, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, Timeout)
		defer cancel()
	}
	hc := o.HTTPClient
	if hc == nil {
		hc = http.DefaultClient
	}
	noRedirect := *hc
	noRedirect.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	f := &flow{hc: &noRedirect}

	server, err := url.Parse(strings.TrimSuffix(o.Server, "/"))
	if err != nil || server.Host == "" || (server.Scheme != "https" && server.Scheme != "http") {
		return "", fmt.Errorf("--server %q: want the MCP server's URL, e.g. http://127.0.0.1:8080/mcp", o.Server)
	}
	prm, err := f.protectedResource(ctx, server)
	if err != nil {
		return "", err
	}
	as, err := f.authorizationServer(ctx, prm.AuthorizationServers[0])
	if err != nil {
		return "", err
	}
	scope := o.Scope
	if strings.TrimSpace(scope) == "" {
		scope = DefaultScope
	}
	return f.authorize(ctx, as, prm.Resource, o.User, strings.Join(strings.Fields(scope), " "))
}

// flow is one run of discovery and authorization.
type flow struct {
	hc *http.Client
}

// protectedResource is what demo-token reads of RFC 9728 metadata.
type protectedResource struct {
	Resource             string   `json:"resource"`
	AuthorizationServers []string `json:"authorization_servers"`
}

// protectedResource fetches the server's RFC 9728 document: at the
// well-known URL with the server's path appended (section 3.1), then at the
// root, as MCP clients try them.
func (f *flow) protectedResource(ctx context.Context, server *url.URL) (protectedResource, error) {
	origin := server.Scheme + "://" + server.Host
	candidates := []string{origin + "/.well-known/oauth-protected-resource"}
	if p := strings.TrimSuffix(server.EscapedPath(), "/"); p != "" {
		candidates = slices.Insert(candidates, 0, origin+"/.well-known/oauth-protected-resource"+p)
	}
	var prm protectedResource
	at, err := f.firstDocument(ctx, candidates, &prm)
	if err != nil {
		return prm, fmt.Errorf("%s publishes no OAuth protected resource metadata (%w): is it an MCP server running over HTTP with --oauth-issuer?", origin, err)
	}
	if len(prm.AuthorizationServers) == 0 {
		return prm, fmt.Errorf("the protected resource metadata at %s names no authorization_servers", at)
	}
	res, err := url.Parse(prm.Resource)
	if err != nil || res.Scheme+"://"+res.Host != origin {
		return prm, fmt.Errorf("the protected resource metadata at %s names the resource %q, which is not on %s: refusing a token for another server", at, prm.Resource, origin)
	}
	if server.Path != "" && strings.TrimSuffix(prm.Resource, "/") != strings.TrimSuffix(server.String(), "/") {
		return prm, fmt.Errorf("the protected resource metadata at %s names the resource %q, not %s (RFC 9728 requires them to be identical)", at, prm.Resource, server)
	}
	return prm, nil
}

// authServer is what demo-token reads of RFC 8414 metadata.
type authServer struct {
	Issuer                string   `json:"issuer"`
	AuthorizationEndpoint string   `json:"authorization_endpoint"`
	TokenEndpoint         string   `json:"token_endpoint"`
	CodeChallengeMethods  []string `json:"code_challenge_methods_supported"`
	ClientIDMetadataDocs  bool     `json:"client_id_metadata_document_supported"`
}

// authorizationServer reads the issuer's metadata: RFC 8414's well-known
// URL (the issuer's path appended), then OpenID discovery's two forms.
func (f *flow) authorizationServer(ctx context.Context, issuer string) (authServer, error) {
	var as authServer
	u, err := url.Parse(issuer)
	if err != nil || u.Host == "" {
		return as, fmt.Errorf("authorization server %q is not a URL", issuer)
	}
	origin, path := u.Scheme+"://"+u.Host, strings.TrimSuffix(u.EscapedPath(), "/")
	candidates := []string{origin + "/.well-known/oauth-authorization-server" + path, origin + "/.well-known/openid-configuration" + path}
	if path != "" {
		candidates = append(candidates, origin+path+"/.well-known/openid-configuration")
	}
	if _, err := f.firstDocument(ctx, candidates, &as); err != nil {
		return as, fmt.Errorf("authorization server %s publishes no metadata (%w)", issuer, err)
	}
	switch {
	case as.Issuer != issuer:
		return as, fmt.Errorf("authorization server %s names itself %q in its metadata: refusing it (RFC 8414 section 3.3)", issuer, as.Issuer)
	case !slices.Contains(as.CodeChallengeMethods, "S256"):
		return as, fmt.Errorf("authorization server %s does not support PKCE with S256: refusing it, as MCP clients must", issuer)
	case !as.ClientIDMetadataDocs:
		return as, fmt.Errorf("authorization server %s does not accept Client ID Metadata Documents: demo-token works with the embedded demo issuer (--oauth-issuer embedded)", issuer)
	}
	for _, e := range []string{as.AuthorizationEndpoint, as.TokenEndpoint} {
		if err := secure(e); err != nil {
			return as, fmt.Errorf("authorization server %s: %w", issuer, err)
		}
	}
	return as, nil
}

// authorize runs the authorization code flow with PKCE and redeems the code.
func (f *flow) authorize(ctx context.Context, as authServer, resource, user, scope string) (string, error) {
	conf := oauth2.Config{
		ClientID:    ClientID,
		RedirectURL: RedirectURI,
		Endpoint:    oauth2.Endpoint{AuthURL: as.AuthorizationEndpoint, TokenURL: as.TokenEndpoint, AuthStyle: oauth2.AuthStyleInParams},
	}
	verifier := oauth2.GenerateVerifier()
	state, err := randomState()
	if err != nil {
		return "", err
	}
	opts := []oauth2.AuthCodeOption{
		oauth2.S256ChallengeOption(verifier),
		oauth2.SetAuthURLParam("resource", resource),
		oauth2.SetAuthURLParam("scope", scope),
	}
	if user != "" {
		opts = append(opts, oauth2.SetAuthURLParam("login_hint", user))
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, conf.AuthCodeURL(state, opts...), nil)
	if err != nil {
		return "", err
	}
	resp, err := f.hc.Do(req)
	if err != nil {
		return "", fmt.Errorf("authorization endpoint %s unreachable: %s", as.AuthorizationEndpoint, cause(err))
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	resp.Body.Close()
	loc, err := resp.Location()
	if resp.StatusCode/100 != 3 || err != nil {
		if resp.StatusCode == http.StatusBadRequest {
			return "", fmt.Errorf("the authorization server refused the demo-token client: %s", strings.TrimSpace(string(body)))
		}
		return "", fmt.Errorf("the authorization server answered HTTP %d instead of redirecting: it shows a login page, so it is not the embedded demo issuer with its automatic login", resp.StatusCode)
	}
	q := loc.Query()
	switch {
	case q.Get("state") != state:
		return "", errors.New("the authorization server's redirect carries the wrong state: refusing its code")
	case q.Has("iss") && q.Get("iss") != as.Issuer:
		return "", fmt.Errorf("the authorization response names the issuer %q, not %s (RFC 9207): refusing its code", q.Get("iss"), as.Issuer)
	case q.Get("error") != "":
		return "", fmt.Errorf("the authorization server refused: %s: %s", q.Get("error"), q.Get("error_description"))
	case q.Get("code") == "":
		return "", errors.New("the authorization server's redirect carries no code")
	}
	tok, err := conf.Exchange(context.WithValue(ctx, oauth2.HTTPClient, f.hc), q.Get("code"),
		oauth2.VerifierOption(verifier), oauth2.SetAuthURLParam("resource", resource))
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) {
			return "", fmt.Errorf("the token endpoint refused the code: %s: %s", re.ErrorCode, re.ErrorDescription)
		}
		return "", fmt.Errorf("token endpoint %s unreachable: %s", as.TokenEndpoint, cause(err))
	}
	if !strings.EqualFold(tok.TokenType, "bearer") {
		return "", fmt.Errorf("the token endpoint issued a %q token, not a bearer token", tok.TokenType)
	}
	return tok.AccessToken, nil
}

// firstDocument decodes the first candidate that answers 200 with JSON and
// returns its URL.
func (f *flow) firstDocument(ctx context.Context, candidates []string, v any) (string, error) {
	var last error
	for _, c := range candidates {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, c, nil)
		if err != nil {
			return "", err
		}
		req.Header.Set("Accept", "application/json")
		resp, err := f.hc.Do(req)
		if err != nil {
			return "", fmt.Errorf("%s unreachable: %s", c, cause(err))
		}
		b, err := io.ReadAll(io.LimitReader(resp.Body, maxDocument))
		resp.Body.Close()
		if err != nil {
			return "", fmt.Errorf("%s: reading: %s", c, cause(err))
		}
		if resp.StatusCode != http.StatusOK {
			last = fmt.Errorf("%s answered HTTP %d", c, resp.StatusCode)
			continue
		}
		if err := json.Unmarshal(b, v); err != nil {
			last = fmt.Errorf("%s is not a JSON document", c)
			continue
		}
		return c, nil
	}
	return "", last
}

// secure refuses an endpoint that would carry credentials over plain http
// off loopback.
func secure(endpoint string) error {
	u, err := url.Parse(endpoint)
	switch {
	case err != nil || u.Host == "":
		return fmt.Errorf("endpoint %q is not a URL", endpoint)
	case u.Scheme == "https":
		return nil
	case u.Scheme == "http" && loopback.Host(u.Hostname()):
		return nil
	}
	return fmt.Errorf("endpoint %s is not https: codes and tokens travel only over https (or http on loopback)", endpoint)
}

// cause names a network failure without Go's wrapping.
func cause(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		return op.Err.Error()
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "no answer in time"
	}
	return err.Error()
}

func randomState() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}
