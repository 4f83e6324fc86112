package authn_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/companyintel/mcp-server/appsynclocal/authn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/oauth2"
)

// register posts an RFC 7591 registration and returns the status and the
// decoded answer.
func register(t *testing.T, issuer string, body string) (int, map[string]any) {
	t.Helper()
	resp, err := http.Post(issuer+"/register", "application/json", strings.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	var out map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
	return resp.StatusCode, out
}

// browser is a cookie-keeping client that does not follow redirects, like
// a person's browser whose redirects we read.
func browser(t *testing.T) *http.Client {
	t.Helper()
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

var formField = regexp.MustCompile(`name="(request|csrf_token)" value="([^"]*)"`)

// consentForm opens the consent page and returns its hidden fields.
func consentForm(t *testing.T, b *http.Client, authURL string) (url.Values, string) {
	t.Helper()
	resp, err := b.Get(authURL)
	require.NoError(t, err)
	defer resp.Body.Close()
	page, _ := io.ReadAll(resp.Body)
	require.Equal(t, http.StatusOK, resp.StatusCode, string(page))
	form := url.Values{}
	for _, m := range formField.FindAllStringSubmatch(string(page), -1) {
		form.Set(m[1], m[2])
	}
	require.Len(t, form, 2, "the page carries the request and its CSRF token")
	return form, string(page)
}

func decide(t *testing.T, b *http.Client, issuer string, form url.Values) (int, *url.URL, string) {
	t.Helper()
	resp, err := b.PostForm(issuer+"/authorize", form)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusFound {
		return resp.StatusCode, nil, string(body)
	}
	loc, err := url.Parse(resp.Header.Get("Location"))
	require.NoError(t, err)
	return resp.StatusCode, loc, ""
}

// TestRegisteredClientSignsIn is the flow an MCP client runs: register
// with a loopback redirect, open the consent page (which names the app, its
// redirect host, the permissions in words and the demo users), approve as
// bob, and redeem the code with the PKCE verifier.
func TestRegisteredClientSignsIn(t *testing.T) {
	f := startAS(t, func(c *authn.IssuerConfig) { c.Users = []string{"alice", "bob"} })
	status, reg := register(t, f.iss.URL(), `{"client_name":"Acme Desktop","redirect_uris":["http://127.0.0.1:33418/callback"],"token_endpoint_auth_method":"none","grant_types":["authorization_code","refresh_token"],"logo_uri":"https://acme.example/logo.png"}`)
	require.Equal(t, http.StatusCreated, status, reg)
	id, _ := reg["client_id"].(string)
	require.NotEmpty(t, id)
	assert.Equal(t, "none", reg["token_endpoint_auth_method"])
	assert.NotContains(t, reg, "client_secret")
	assert.NotContains(t, reg, "logo_uri", "fields the issuer does not use are not kept")

	conf := &oauth2.Config{ClientID: id, RedirectURL: "http://127.0.0.1:51000/callback", Scopes: []string{"companies:read", "companies:write"},
		Endpoint: oauth2.Endpoint{AuthURL: f.iss.URL() + "/authorize", TokenURL: f.iss.URL() + "/token", AuthStyle: oauth2.AuthStyleInParams}}
	v := oauth2.GenerateVerifier()
	b := browser(t)
	form, page := consentForm(t, b, conf.AuthCodeURL("xyz", oauth2.S256ChallengeOption(v)))
	for _, want := range []string{"“Acme Desktop” wants to use your account", "127.0.0.1:51000", "a program on this computer",
		"Read company profiles and search results, and see your lists", "Change your lists (create them, add companies) and start email discovery",
		`value="alice" required>`, `value="bob" required>`, "Approve", "Deny"} {
		assert.Contains(t, page, want)
	}
	assert.NotContains(t, page, "checked", "nobody signed in, and the application named nobody: no user is chosen for the person")
	assert.NotContains(t, page, "<script", "the page works without JavaScript")

	form.Set("user", "bob")
	form.Set("decision", "approve")
	status, loc, body := decide(t, b, f.iss.URL(), form)
	require.Equal(t, http.StatusFound, status, body)
	assert.Equal(t, "xyz", loc.Query().Get("state"), "state returned")
	assert.Equal(t, "51000", loc.Port())
	tok, err := conf.Exchange(context.Background(), loc.Query().Get("code"), oauth2.VerifierOption(v))
	require.NoError(t, err)
	sub, claims := f.accessClaims(t, tok.AccessToken, resource)
	assert.Equal(t, "bob", sub)
	assert.Equal(t, "companies:read companies:write", claims["scope"])
	assert.Equal(t, id, claims["client_id"])

	// The same registration again (a client registering at every start)
	// gets the same client back instead of using up the cap.
	_, again := register(t, f.iss.URL(), `{"client_name":"Acme Desktop","redirect_uris":["http://127.0.0.1:33418/callback"],"token_endpoint_auth_method":"none","grant_types":["authorization_code","refresh_token"]}`)
	assert.Equal(t, id, again["client_id"])
}

// TestConsentDeny: Deny sends access_denied (with state) to the client and
// issues no code.
func TestConsentDeny(t *testing.T) {
	f := startAS(t, nil)
	_, reg := register(t, f.iss.URL(), `{"client_name":"Acme","redirect_uris":["http://localhost:4000/cb"]}`)
	v := oauth2.GenerateVerifier()
	b := browser(t)
	form, _ := consentForm(t, b, authURL(f, reg["client_id"].(string), "http://localhost:4000/cb", v, nil))
	form.Set("user", authn.DefaultDemoUser)
	form.Set("decision", "deny")
	status, loc, body := decide(t, b, f.iss.URL(), form)
	require.Equal(t, http.StatusFound, status, body)
	assert.Equal(t, "access_denied", loc.Query().Get("error"))
	assert.Equal(t, "s", loc.Query().Get("state"))
	assert.Empty(t, loc.Query().Get("code"))
}

func authURL(f *asFixture, clientID, redirect, verifier string, edit func(url.Values)) string {
	v := url.Values{"response_type": {"code"}, "client_id": {clientID}, "redirect_uri": {redirect}, "state": {"s"},
		"code_challenge": {oauth2.S256ChallengeFromVerifier(verifier)}, "code_challenge_method": {"S256"}}
	if edit != nil {
		edit(v)
	}
	return f.iss.URL() + "/authorize?" + v.Encode()
}

// TestConsentForgedPost: a decision posted without the page's CSRF token,
// with a token from another browser, or with an altered request is refused
// with a page saying so, and no code is issued.
func TestConsentForgedPost(t *testing.T) {
	f := startAS(t, nil)
	_, reg := register(t, f.iss.URL(), `{"client_name":"Acme","redirect_uris":["http://127.0.0.1/cb"]}`)
	id := reg["client_id"].(string)
	v := oauth2.GenerateVerifier()
	b := browser(t)
	form, _ := consentForm(t, b, authURL(f, id, "http://127.0.0.1:9000/cb", v, nil))
	form.Set("user", authn.DefaultDemoUser)
	form.Set("decision", "approve")

	noToken := url.Values{"request": form["request"], "user": form["user"], "decision": form["decision"]}
	status, loc, body := decide(t, b, f.iss.URL(), noToken)
	assert.Equal(t, http.StatusForbidden, status)
	assert.Nil(t, loc)
	assert.Contains(t, body, "CSRF token is missing or does not match")

	status, _, body = decide(t, browser(t), f.iss.URL(), form)
	assert.Equal(t, http.StatusForbidden, status, "the token is bound to the browser that opened the page")
	assert.Contains(t, body, "CSRF token")

	other, _ := consentForm(t, browser(t), authURL(f, id, "http://127.0.0.1:9001/cb", v, nil))
	swapped := url.Values{"request": other["request"], "csrf_token": form["csrf_token"], "user": form["user"], "decision": form["decision"]}
	status, _, _ = decide(t, b, f.iss.URL(), swapped)
	assert.Equal(t, http.StatusForbidden, status, "another request under this browser's token")

	status, loc, body = decide(t, b, f.iss.URL(), form)
	require.Equal(t, http.StatusFound, status, "the genuine form still works: %s", body)
	assert.NotEmpty(t, loc.Query().Get("code"))
	status, _, _ = decide(t, b, f.iss.URL(), form)
	assert.Equal(t, http.StatusForbidden, status, "a form is spent once decided")
}

// TestConsentUserFromList: only the issuer's users can be chosen.
func TestConsentUserFromList(t *testing.T) {
	f := startAS(t, func(c *authn.IssuerConfig) { c.Users = []string{"alice", "bob"} })
	_, reg := register(t, f.iss.URL(), `{"redirect_uris":["http://127.0.0.1/cb"]}`)
	b := browser(t)
	form, page := consentForm(t, b, authURL(f, reg["client_id"].(string), "http://127.0.0.1:9000/cb", oauth2.GenerateVerifier(), nil))
	assert.Contains(t, page, "An unnamed application wants to use your account")
	form.Set("user", "mallory")
	form.Set("decision", "approve")
	status, loc, body := decide(t, b, f.iss.URL(), form)
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Nil(t, loc)
	assert.Contains(t, body, "Choose one of the listed users")
}

// TestRegistrationRefusals: each bad registration is refused with a plain
// message, and none is kept: the registrations file is never written.
func TestRegistrationRefusals(t *testing.T) {
	file := filepath.Join(t.TempDir(), "registrations.json")
	f := startAS(t, func(c *authn.IssuerConfig) { c.RegistrationFile = file })
	cases := []struct {
		name, body, code, says string
	}{
		{"http redirect off loopback", `{"redirect_uris":["http://app.example/cb"]}`, "invalid_redirect_uri", "must be https, or http on a loopback address"},
		{"custom scheme", `{"redirect_uris":["myapp:/cb"]}`, "invalid_redirect_uri", "not an absolute URL"},
		{"fragment", `{"redirect_uris":["https://app.example/cb#x"]}`, "invalid_redirect_uri", "fragment"},
		{"no redirect", `{"client_name":"x"}`, "invalid_redirect_uri", "redirect_uris is required"},
		{"too many redirects", `{"redirect_uris":["https://a.example/1","https://a.example/2","https://a.example/3","https://a.example/4","https://a.example/5","https://a.example/6","https://a.example/7","https://a.example/8","https://a.example/9","https://a.example/10","https://a.example/11"]}`, "invalid_redirect_uri", "at most 10"},
		{"confidential", `{"redirect_uris":["https://app.example/cb"],"token_endpoint_auth_method":"client_secret_basic"}`, "invalid_client_metadata", "only public clients"},
		{"implicit", `{"redirect_uris":["https://app.example/cb"],"response_types":["token"]}`, "invalid_client_metadata", "response type"},
		{"client credentials", `{"redirect_uris":["https://app.example/cb"],"grant_types":["client_credentials"]}`, "invalid_client_metadata", "not available"},
		{"unknown scope", `{"redirect_uris":["https://app.example/cb"],"scope":"companies:read admin"}`, "invalid_client_metadata", `scope "admin"`},
		{"long name", `{"redirect_uris":["https://app.example/cb"],"client_name":"` + strings.Repeat("n", 101) + `"}`, "invalid_client_metadata", "longer than 100"},
		{"control characters", `{"redirect_uris":["https://app.example/cb"],"client_name":"Acme\u202eevil"}`, "invalid_client_metadata", "control characters"},
		{"not JSON", `redirect_uris=https://app.example/cb`, "invalid_client_metadata", "JSON object"},
		{"too large", `{"client_name":"` + strings.Repeat("x", 17<<10) + `"}`, "invalid_client_metadata", "larger than"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			status, out := register(t, f.iss.URL(), tc.body)
			assert.GreaterOrEqual(t, status, 400)
			assert.Equal(t, tc.code, out["error"])
			assert.Contains(t, out["error_description"], tc.says)
			assert.NotContains(t, out, "client_id")
		})
	}
	_, err := os.Stat(file)
	assert.ErrorIs(t, err, os.ErrNotExist, "no refused registration was stored")
}

// TestPreRegisteredClient: a client the operator configured signs in like
// a registered one; a bad entry stops start-up.
func TestPreRegisteredClient(t *testing.T) {
	f := startAS(t, func(c *authn.IssuerConfig) {
		c.PublicClients = []authn.PublicClient{{ID: "team-ide", Name: "Team IDE", RedirectURIs: []string{"https://ide.example/oauth/cb"}}}
	})
	_, page := consentForm(t, browser(t), authURL(f, "team-ide", "https://ide.example/oauth/cb", oauth2.GenerateVerifier(), nil))
	assert.Contains(t, page, "“Team IDE” wants to use your account")
	assert.Contains(t, page, "ide.example")
	assert.NotContains(t, page, "a program on this computer")

	_, err := authn.NewIssuer(authn.IssuerConfig{URL: "http://issuer.test", PublicClients: []authn.PublicClient{{ID: "x", RedirectURIs: []string{"http://ide.example/cb"}}}})
	assert.ErrorContains(t, err, "must be https, or http on a loopback address")
}

// TestAuthorizeBadInput: each refusal a person or a client sees, with
// nothing issued. Client and redirect problems are answered in place;
// PKCE, code reuse and redirect mismatch at the token endpoint.
func TestAuthorizeBadInput(t *testing.T) {
	f := startAS(t, nil)
	_, reg := register(t, f.iss.URL(), `{"client_name":"Acme","redirect_uris":["http://127.0.0.1/cb","https://acme.example/cb"]}`)
	id := reg["client_id"].(string)

	for name, tc := range map[string]struct {
		client, redirect, says string
	}{
		"unknown client":         {"no-such-client", "http://127.0.0.1/cb", "not known to this server"},
		"mismatched redirect":    {id, "https://acme.example/other", "is not registered for this client"},
		"unregistered host":      {id, "https://evil.example/cb", "is not registered for this client"},
		"http redirect off host": {id, "http://acme.example/cb", "is not registered for this client"},
	} {
		t.Run(name, func(t *testing.T) {
			status, loc, body := authorize(t, authURL(f, tc.client, tc.redirect, oauth2.GenerateVerifier(), nil))
			assert.Equal(t, http.StatusBadRequest, status)
			assert.Nil(t, loc, "never redirected to an unregistered URI")
			assert.Contains(t, body, tc.says)
		})
	}

	// A browser asking gets a page, not plain text.
	req, _ := http.NewRequest(http.MethodGet, authURL(f, "no-such-client", "http://127.0.0.1/cb", oauth2.GenerateVerifier(), nil), nil)
	req.Header.Set("Accept", "text/html")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Contains(t, resp.Header.Get("Content-Type"), "text/html")
	assert.Contains(t, string(page), "Sign-in stopped")

	// Codes: approve once, then misuse them at the token endpoint.
	conf := &oauth2.Config{ClientID: id, RedirectURL: "http://127.0.0.1:7000/cb",
		Endpoint: oauth2.Endpoint{AuthURL: f.iss.URL() + "/authorize", TokenURL: f.iss.URL() + "/token", AuthStyle: oauth2.AuthStyleInParams}}
	code := func(v string) string {
		b := browser(t)
		form, _ := consentForm(t, b, conf.AuthCodeURL("s", oauth2.S256ChallengeOption(v)))
		form.Set("user", authn.DefaultDemoUser)
		form.Set("decision", "approve")
		_, loc, body := decide(t, b, f.iss.URL(), form)
		require.NotNil(t, loc, body)
		return loc.Query().Get("code")
	}
	ctx := context.Background()
	v := oauth2.GenerateVerifier()
	_, err = conf.Exchange(ctx, code(v))
	assert.Equal(t, "invalid_grant", oauthCode(err), "missing verifier")
	assert.ErrorContains(t, err, "code_verifier does not match")
	_, err = conf.Exchange(ctx, code(v), oauth2.VerifierOption(oauth2.GenerateVerifier()))
	assert.Equal(t, "invalid_grant", oauthCode(err), "wrong verifier")
	c := code(v)
	_, err = conf.Exchange(ctx, c, oauth2.VerifierOption(v))
	require.NoError(t, err)
	_, err = conf.Exchange(ctx, c, oauth2.VerifierOption(v))
	assert.Equal(t, "invalid_grant", oauthCode(err), "reused code")
	assert.ErrorContains(t, err, "unknown, used or expired")
	other := *conf
	other.RedirectURL = "http://127.0.0.1:7001/cb"
	_, err = other.Exchange(ctx, code(v), oauth2.VerifierOption(v))
	assert.Equal(t, "invalid_grant", oauthCode(err), "mismatched redirect at the token endpoint")

	unknown := *conf
	unknown.ClientID = "no-such-client"
	_, err = unknown.Exchange(ctx, code(v), oauth2.VerifierOption(v))
	assert.Equal(t, "invalid_client", oauthCode(err), "unknown client at the token endpoint")

	// An unknown scope comes back to the client as invalid_scope.
	_, loc, body := authorize(t, authURL(f, id, "http://127.0.0.1/cb", v, func(q url.Values) { q.Set("scope", "companies:read admin") }))
	require.NotNil(t, loc, body)
	assert.Equal(t, "invalid_scope", loc.Query().Get("error"))
	assert.Empty(t, loc.Query().Get("code"))
}

// TestClientDocumentSafety: with an open policy, documents are fetched
// from their https URL, but one too large, too slow, redirected or on a
// private address is refused with a plain message and not kept.
func TestClientDocumentSafety(t *testing.T) {
	release := make(chan struct{})
	var largeFetches atomic.Int32
	var docs *httptest.Server
	docs = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := docs.URL + r.URL.Path
		switch r.URL.Path {
		case "/large.json":
			largeFetches.Add(1)
			_, _ = w.Write([]byte(`{"client_id":"` + id + `","redirect_uris":["http://127.0.0.1/cb"],"pad":"` + strings.Repeat("x", 9<<10) + `"}`))
		case "/slow.json":
			select { // answers only after the issuer gave up
			case <-r.Context().Done():
			case <-release:
			}
		case "/moved.json":
			http.Redirect(w, r, "/ok.json", http.StatusFound)
		default:
			_, _ = w.Write([]byte(`{"client_id":"` + id + `","client_name":"Local tool","redirect_uris":["http://127.0.0.1/cb"]}`))
		}
	}))
	t.Cleanup(func() { close(release); docs.Close() })
	f := startAS(t, func(c *authn.IssuerConfig) {
		c.ClientDocumentPolicy = authn.ClientDocumentPolicy{Open: true, AllowLoopback: true, Timeout: 300 * time.Millisecond}
		c.FetchClient = docs.Client()
	})
	v := oauth2.GenerateVerifier()
	// The documents here are on loopback: why one failed is not said
	// (TestClientDocumentReasons checks the reasons a public one gets).
	const withheld = "could not be used (for a document on this machine or a private network, the reason is not given)"
	for name, tc := range map[string]struct{ id, says string }{
		"too large":        {docs.URL + "/large.json", withheld},
		"too slow":         {docs.URL + "/slow.json", withheld},
		"redirected":       {docs.URL + "/moved.json", withheld},
		"private address":  {"https://10.20.30.40/client.json", "is on a private address"},
		"link-local":       {"https://169.254.169.254/latest/meta-data.json", "is on a private address"},
		"plain http":       {"http://tools.example/client.json", "must be https"},
		"no path":          {"https://tools.example/", "must have a path"},
		"naming elsewhere": {docs.URL + "/ok.json?x", withheld},
	} {
		t.Run(name, func(t *testing.T) {
			status, loc, body := authorize(t, authURL(f, tc.id, "http://127.0.0.1/cb", v, nil))
			assert.Equal(t, http.StatusBadRequest, status)
			assert.Nil(t, loc)
			assert.Contains(t, body, tc.says)
		})
	}
	authorize(t, authURL(f, docs.URL+"/large.json", "http://127.0.0.1/cb", v, nil))
	assert.EqualValues(t, 2, largeFetches.Load(), "a refused document is not kept: asked again, it is fetched again")
	status, _, body := authorize(t, authURL(f, docs.URL+"/ok.json", "http://127.0.0.1:5000/cb", v, nil))
	assert.Equal(t, http.StatusOK, status, body)
	assert.Contains(t, body, "“Local tool” wants to use your account")

	// Without AllowLoopback the same local document is a private address:
	// a literal address before connecting, a name (localhost) by the
	// address it resolves to, when connecting.
	closed := startAS(t, func(c *authn.IssuerConfig) {
		c.ClientDocumentPolicy = authn.ClientDocumentPolicy{Open: true}
		c.FetchClient = docs.Client()
	})
	localhostURL := strings.Replace(docs.URL, "127.0.0.1", "localhost", 1) + "/ok.json"
	for _, id := range []string{docs.URL + "/ok.json", localhostURL} {
		status, _, body = authorize(t, authURL(closed, id, "http://127.0.0.1/cb", v, nil))
		assert.Equal(t, http.StatusBadRequest, status, id)
		assert.Contains(t, body, "private address", id)
	}
}

// TestEndGrantsBelow: after a resource server refuses a token for
// insufficient scope, the refresh grant below the needed scopes is ended
// (so the client's step-up cannot refresh back to them), and a grant that
// has them is kept.
func TestEndGrantsBelow(t *testing.T) {
	f := startAS(t, nil)
	narrow := f.login(t, "alice", "companies:read")
	wide := f.login(t, "alice", "companies:read companies:write")
	assert.Equal(t, 1, f.iss.EndGrantsBelow(authn.DemoTokenClientID, "alice", []string{"companies:read", "companies:write"}))
	conf := f.oauthConfig(authn.DemoTokenRedirectURI)
	_, err := conf.TokenSource(context.Background(), &oauth2.Token{RefreshToken: narrow.RefreshToken}).Token()
	assert.Equal(t, "invalid_grant", oauthCode(err))
	_, err = conf.TokenSource(context.Background(), &oauth2.Token{RefreshToken: wide.RefreshToken}).Token()
	assert.NoError(t, err)
}
