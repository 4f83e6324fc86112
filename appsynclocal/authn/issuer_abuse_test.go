package authn_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/companyintel/mcp-server/appsynclocal/authn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/oauth2"
)

// fromSource is a client whose connections come from the loopback address
// ip (any of 127.0.0.0/8 is this machine's on Linux): another source, as
// the issuer sees it.
func fromSource(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
}

// registerFrom posts a registration with c and returns the status, the
// Retry-After header and the answer.
func registerFrom(t *testing.T, c *http.Client, issuer, body string) (int, string, map[string]any) {
	t.Helper()
	resp, err := c.Post(issuer+"/register", "application/json", strings.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	var out map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
	return resp.StatusCode, resp.Header.Get("Retry-After"), out
}

// signInAs runs a registered client's whole flow in browser b: consent page,
// approve as user, code redeemed with PKCE. It returns the token.
func signInAs(t *testing.T, f *asFixture, b *http.Client, clientID, redirect, user, scope string) *oauth2.Token {
	t.Helper()
	conf := &oauth2.Config{ClientID: clientID, RedirectURL: redirect, Scopes: strings.Fields(scope),
		Endpoint: oauth2.Endpoint{AuthURL: f.iss.URL() + "/authorize", TokenURL: f.iss.URL() + "/token", AuthStyle: oauth2.AuthStyleInParams}}
	v := oauth2.GenerateVerifier()
	form, _ := consentForm(t, b, conf.AuthCodeURL("s", oauth2.S256ChallengeOption(v)))
	form.Set("user", user)
	form.Set("decision", "approve")
	status, loc, body := decide(t, b, f.iss.URL(), form)
	require.Equal(t, http.StatusFound, status, body)
	tok, err := conf.Exchange(context.Background(), loc.Query().Get("code"), oauth2.VerifierOption(v))
	require.NoError(t, err)
	return tok
}

func logLines(t *testing.T, file string) []string {
	t.Helper()
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines
}

// TestRegistrationFloodLeavesRoomForNewClients: a flood of unauthenticated
// registrations from one source is limited per source (429 with
// Retry-After), is never written to disk, and neither fills the registry
// nor survives a restart: a new client then registers and signs in, before
// and after a restart on the same registrations file. A flood from many
// sources pushes out only registrations that never signed in.
func TestRegistrationFloodLeavesRoomForNewClients(t *testing.T) {
	file := filepath.Join(t.TempDir(), "registrations.json")
	config := func(c *authn.IssuerConfig) {
		c.RegistrationFile = file
		c.MaxRegistrations = 5
		c.RegistrationLimit = authn.RegistrationLimit{Burst: 10, Every: time.Minute}
		c.Users = []string{authn.DefaultDemoUser, "alice"}
	}
	f := startAS(t, config)
	flooder := fromSource("127.0.0.2")
	created, limited := 0, 0
	for n := range 300 {
		status, retry, out := registerFrom(t, flooder, f.iss.URL(), fmt.Sprintf(`{"client_name":"flood %d","redirect_uris":["https://flood.example/%d"]}`, n, n))
		switch status {
		case http.StatusCreated:
			created++
		case http.StatusTooManyRequests:
			limited++
			assert.Equal(t, "60", retry, "one more registration per minute")
			assert.Contains(t, out["error_description"], "too many registrations from this address; retry in 60 s")
		default:
			t.Fatalf("registration %d: HTTP %d %v", n, status, out)
		}
	}
	assert.Equal(t, 10, created, "the source's burst")
	assert.Equal(t, 290, limited)
	_, err := os.Stat(file)
	assert.ErrorIs(t, err, os.ErrNotExist, "registrations that never signed in are not written")

	// Many sources, each within its limit, more than the cap: nothing is
	// refused; the oldest waiting registrations make room.
	for s := 3; s < 13; s++ {
		c := fromSource(fmt.Sprintf("127.0.0.%d", s))
		for n := range 10 {
			status, _, out := registerFrom(t, c, f.iss.URL(), fmt.Sprintf(`{"client_name":"flood %d.%d","redirect_uris":["https://flood.example/%d/%d"]}`, s, n, s, n))
			require.Equal(t, http.StatusCreated, status, out)
		}
	}

	// A person's new client registers and signs in.
	status, _, reg := registerFrom(t, http.DefaultClient, f.iss.URL(), `{"client_name":"Acme Desktop","redirect_uris":["http://127.0.0.1/cb"]}`)
	require.Equal(t, http.StatusCreated, status, reg)
	acme := reg["client_id"].(string)
	tok := signInAs(t, f, browser(t), acme, "http://127.0.0.1:5000/cb", authn.DefaultDemoUser, "")
	sub, _ := f.accessClaims(t, tok.AccessToken, resource)
	assert.Equal(t, authn.DefaultDemoUser, sub)
	lines := logLines(t, file)
	require.Len(t, lines, 1, "one line, for the one client that signed in")
	assert.Contains(t, lines[0], acme)

	// Restarted on the same file: the client that signed in is known, the
	// flood is gone, and a newcomer registers and signs in too.
	again := startAS(t, config)
	_, page := consentForm(t, browser(t), authURL(again, acme, "http://127.0.0.1:5001/cb", oauth2.GenerateVerifier(), nil))
	assert.Contains(t, page, "“Acme Desktop” wants to use your account")
	status, loc, body := authorize(t, authURL(again, "client-of-the-flood", "https://flood.example/0", oauth2.GenerateVerifier(), nil))
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Nil(t, loc)
	assert.Contains(t, body, "not known to this server")
	status, _, reg = registerFrom(t, http.DefaultClient, again.iss.URL(), `{"client_name":"Newcomer","redirect_uris":["http://127.0.0.1/cb"]}`)
	require.Equal(t, http.StatusCreated, status, reg)
	signInAs(t, again, browser(t), reg["client_id"].(string), "http://127.0.0.1:5002/cb", "alice", "")
	assert.Len(t, logLines(t, file), 2, "appended, not rewritten")
}

// TestRegistrationsKeptAreCappedByLastSignIn: past the cap of clients
// kept, a new sign-in is never refused: the client that signed in least
// recently is forgotten. Waiting registrations expire. The log is
// compacted, and the JSON list earlier versions wrote is read.
func TestRegistrationsKeptAreCappedByLastSignIn(t *testing.T) {
	file := filepath.Join(t.TempDir(), "registrations.json")
	legacy := `[{"client_id":"client-legacy","client_name":"Old","redirect_uris":["http://127.0.0.1/cb"],"client_id_issued_at":1700000000}]`
	require.NoError(t, os.WriteFile(file, []byte(legacy), 0o600))
	config := func(c *authn.IssuerConfig) {
		c.RegistrationFile = file
		c.MaxRegistrations = 3
		c.Users = []string{"alice"}
	}
	f := startAS(t, config)
	_, page := consentForm(t, browser(t), authURL(f, "client-legacy", "http://127.0.0.1/cb", oauth2.GenerateVerifier(), nil))
	assert.Contains(t, page, "“Old” wants to use your account", "the earlier format is read")
	assert.Len(t, logLines(t, file), 1, "and rewritten as a log")

	ids := map[string]string{}
	for _, name := range []string{"one", "two", "three", "four"} {
		f.clock.Add(time.Minute)
		_, reg := register(t, f.iss.URL(), `{"client_name":"`+name+`","redirect_uris":["http://127.0.0.1/cb"]}`)
		ids[name] = reg["client_id"].(string)
		signInAs(t, f, browser(t), ids[name], "http://127.0.0.1/cb", "alice", "")
	}
	for _, gone := range []string{"client-legacy", ids["one"]} {
		status, _, body := authorize(t, authURL(f, gone, "http://127.0.0.1/cb", oauth2.GenerateVerifier(), nil))
		assert.Equal(t, http.StatusBadRequest, status, "the least recently signed in are forgotten")
		assert.Contains(t, body, "not known to this server")
	}
	again := startAS(t, config)
	for _, kept := range []string{"two", "three", "four"} {
		_, page := consentForm(t, browser(t), authURL(again, ids[kept], "http://127.0.0.1/cb", oauth2.GenerateVerifier(), nil))
		assert.Contains(t, page, "“"+kept+"”", "kept across a restart")
	}
	assert.LessOrEqual(t, len(logLines(t, file)), 3+3/2+16, "compacted")

	_, reg := register(t, again.iss.URL(), `{"client_name":"waits","redirect_uris":["http://127.0.0.1/cb"]}`)
	again.clock.Add(authn.PendingRegistrationTTL)
	status, _, body := authorize(t, authURL(again, reg["client_id"].(string), "http://127.0.0.1/cb", oauth2.GenerateVerifier(), nil))
	assert.Equal(t, http.StatusBadRequest, status, "a registration that never signed in expires")
	assert.Contains(t, body, "not known to this server")
}

// TestOneSourceHoldsFewPendingRegistrations: a source within its rate
// (here one each 5 s, the clock moved on) that keeps registering holds at
// most a fiftieth of the pending registrations, its own oldest dropped for
// its newest: another source's waiting client is never pushed out, and the
// flooding machine's own new client is not refused.
func TestOneSourceHoldsFewPendingRegistrations(t *testing.T) {
	f := startAS(t, func(c *authn.IssuerConfig) {
		c.MaxRegistrations = 100 // 2 pending per source
		c.RegistrationLimit = authn.RegistrationLimit{Burst: 1, Every: 5 * time.Second}
	})
	status, _, reg := registerFrom(t, fromSource("127.0.0.3"), f.iss.URL(), `{"client_name":"Waiting","redirect_uris":["http://127.0.0.1/cb"]}`)
	require.Equal(t, http.StatusCreated, status, reg)
	waiting := reg["client_id"].(string)
	flooder := fromSource("127.0.0.2")
	var first string
	for n := range 300 {
		status, _, out := registerFrom(t, flooder, f.iss.URL(), fmt.Sprintf(`{"client_name":"flood %d","redirect_uris":["http://127.0.0.1/%d"]}`, n, n))
		require.Equal(t, http.StatusCreated, status, out)
		if n == 0 {
			first = out["client_id"].(string)
		}
		f.clock.Add(5 * time.Second) // 25 minutes in all: the waiting client has not expired
	}
	status, _, body := authorize(t, authURL(f, first, "http://127.0.0.1/0", oauth2.GenerateVerifier(), nil))
	assert.Equal(t, http.StatusBadRequest, status, "the flood's oldest gave way to its newest")
	assert.Contains(t, body, "not known to this server")
	signInAs(t, f, browser(t), waiting, "http://127.0.0.1:6000/cb", authn.DefaultDemoUser, "")
	status, _, reg = registerFrom(t, flooder, f.iss.URL(), `{"client_name":"Mine","redirect_uris":["http://127.0.0.1/cb"]}`)
	require.Equal(t, http.StatusCreated, status, reg)
	signInAs(t, f, browser(t), reg["client_id"].(string), "http://127.0.0.1:6001/cb", authn.DefaultDemoUser, "")
}

// TestIssuerStateChangesNeedJSONAndAnAllowedOrigin: a registration must be
// JSON (415 otherwise: a page elsewhere can send text/plain or a form
// without a preflight); the token and registration endpoints never answer
// "*", a page from another origin is refused and its preflight gets no
// CORS headers, while metadata stays readable from anywhere.
func TestIssuerStateChangesNeedJSONAndAnAllowedOrigin(t *testing.T) {
	f := startAS(t, nil)
	body := `{"client_name":"x","redirect_uris":["http://127.0.0.1/cb"]}`
	for _, ct := range []string{"text/plain", "application/x-www-form-urlencoded", "", "application/jsonx"} {
		req, _ := http.NewRequest(http.MethodPost, f.iss.URL()+"/register", strings.NewReader(body))
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Equal(t, http.StatusUnsupportedMediaType, resp.StatusCode, ct)
		assert.Contains(t, string(b), "Content-Type: application/json", ct)
	}

	send := func(method, path, origin, ct, body string, hdr map[string]string) (*http.Response, string) {
		req, _ := http.NewRequest(method, f.iss.URL()+path, strings.NewReader(body))
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, string(b)
	}
	for _, path := range []string{"/register", "/token"} {
		resp, _ := send(http.MethodOptions, path, "https://evil.example", "", "", map[string]string{"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type"})
		assert.Equal(t, http.StatusForbidden, resp.StatusCode, path)
		assert.Empty(t, resp.Header.Get("Access-Control-Allow-Origin"), path)
		resp, _ = send(http.MethodOptions, path, "http://localhost:6274", "", "", map[string]string{"Access-Control-Request-Method": "POST"})
		assert.Equal(t, http.StatusNoContent, resp.StatusCode, "a local tool (the MCP Inspector) on this machine, as the issuer is: %s", path)
		assert.Equal(t, "http://localhost:6274", resp.Header.Get("Access-Control-Allow-Origin"), path)
	}
	resp, text := send(http.MethodPost, "/register", "https://evil.example", "application/json", body, nil)
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
	assert.Contains(t, text, `does not accept POST requests from the web origin "https://evil.example"`)
	resp, text = send(http.MethodPost, "/token", "https://evil.example", "application/x-www-form-urlencoded", "grant_type=client_credentials", nil)
	assert.Equal(t, http.StatusForbidden, resp.StatusCode, text)
	resp, _ = send(http.MethodPost, "/register", "http://localhost:6274", "application/json", body, nil)
	assert.Equal(t, http.StatusCreated, resp.StatusCode)
	assert.Equal(t, "http://localhost:6274", resp.Header.Get("Access-Control-Allow-Origin"), "named, never *")
	resp, _ = send(http.MethodGet, "/.well-known/oauth-authorization-server", "https://evil.example", "", "", nil)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "*", resp.Header.Get("Access-Control-Allow-Origin"), "metadata is public")
}

// TestConsentFormIsSingleUse: a consent form is spent on the server by its
// first post: the same form posted again, even with its cookie copied to
// another browser and for another user, is refused and issues no code.
func TestConsentFormIsSingleUse(t *testing.T) {
	f := startAS(t, func(c *authn.IssuerConfig) { c.Users = []string{"alice", "bob"} })
	_, reg := register(t, f.iss.URL(), `{"client_name":"Acme","redirect_uris":["http://127.0.0.1/cb"]}`)
	b := browser(t)
	form, _ := consentForm(t, b, authURL(f, reg["client_id"].(string), "http://127.0.0.1:9000/cb", oauth2.GenerateVerifier(), nil))
	authorizeURL, _ := url.Parse(f.iss.URL() + "/authorize")
	copied := browser(t)
	copied.Jar.SetCookies(authorizeURL, b.Jar.Cookies(authorizeURL))

	form.Set("decision", "approve")
	form.Set("user", "alice")
	status, loc, body := decide(t, b, f.iss.URL(), form)
	require.Equal(t, http.StatusFound, status, body)
	require.NotEmpty(t, loc.Query().Get("code"))

	form.Set("user", "bob")
	status, loc, body = decide(t, copied, f.iss.URL(), form)
	assert.Equal(t, http.StatusForbidden, status)
	assert.Nil(t, loc, "no second code")
	assert.Contains(t, body, "This sign-in form was already used")
}

// TestStepUpKeepsTheSignedInUser: once a person approved as alice, the
// consent page of a step-up (the same client asking for more) is alice's
// only: bob is not offered even when the application names him, a post
// for bob is refused, and becoming bob takes signing out, shown as such.
func TestStepUpKeepsTheSignedInUser(t *testing.T) {
	f := startAS(t, func(c *authn.IssuerConfig) { c.Users = []string{"alice", "bob"} })
	_, reg := register(t, f.iss.URL(), `{"client_name":"Acme","redirect_uris":["http://127.0.0.1/cb"]}`)
	id := reg["client_id"].(string)
	b := browser(t)
	signInAs(t, f, b, id, "http://127.0.0.1:9000/cb", "alice", "companies:read")

	stepUp := func() string {
		return authURL(f, id, "http://127.0.0.1:9000/cb", "step-up-verifier-"+strings.Repeat("x", 40), func(q url.Values) {
			q.Set("scope", "companies:read companies:write")
			q.Set("login_hint", "bob")
		})
	}
	form, page := consentForm(t, b, stepUp())
	assert.Contains(t, page, "Signed in as")
	assert.Contains(t, page, `value="alice" checked`)
	assert.NotContains(t, page, `value="bob"`, "another user is not offered")
	assert.Contains(t, page, "The application asked for bob. Not alice? Sign out first, then choose who signs in.")
	assert.Contains(t, page, `value="signout"`)

	form.Set("decision", "approve")
	form.Set("user", "bob")
	status, loc, body := decide(t, b, f.iss.URL(), form)
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Nil(t, loc)
	assert.Contains(t, body, "You are signed in as alice")

	form, _ = consentForm(t, b, stepUp())
	form.Set("decision", "approve")
	form.Set("user", "alice")
	status, loc, body = decide(t, b, f.iss.URL(), form)
	require.Equal(t, http.StatusFound, status, body)
	assert.NotEmpty(t, loc.Query().Get("code"))

	// Signing out shows the same request again, with the users to pick.
	form, _ = consentForm(t, b, stepUp())
	form.Set("decision", "signout")
	status, _, page = decide(t, b, f.iss.URL(), form)
	require.Equal(t, http.StatusOK, status, page)
	assert.Contains(t, page, "You signed out as alice. Choose who signs in.")
	assert.Contains(t, page, `value="alice" required>`)
	assert.Contains(t, page, `value="bob" required checked>`, "the application named bob")
	form = url.Values{}
	for _, m := range formField.FindAllStringSubmatch(page, -1) {
		form.Set(m[1], m[2])
	}
	form.Set("decision", "approve")
	form.Set("user", "bob")
	status, loc, body = decide(t, b, f.iss.URL(), form)
	require.Equal(t, http.StatusFound, status, body)
	assert.NotEmpty(t, loc.Query().Get("code"))
	_, page = consentForm(t, b, stepUp())
	assert.Contains(t, page, `value="bob" checked`, "now signed in as bob")
	assert.NotContains(t, page, `value="alice"`)
}

// TestIssuerRefusesForeignHosts: a request whose Host is not the issuer's
// (a DNS-rebinding page's name) is refused before any endpoint sees it;
// the issuer's own host and the loopback names are served.
func TestIssuerRefusesForeignHosts(t *testing.T) {
	f := startAS(t, nil)
	u, _ := url.Parse(f.iss.URL())
	_, port, _ := net.SplitHostPort(u.Host)
	for host, want := range map[string]int{
		u.Host:                            http.StatusOK,
		"localhost:" + port:               http.StatusOK,
		"[::1]:" + port:                   http.StatusOK,
		"rebind.attacker.example:" + port: http.StatusForbidden,
		"rebind.attacker.example":         http.StatusForbidden,
		"127.0.0.1:x":                     http.StatusForbidden,
	} {
		for _, path := range []string{"/.well-known/oauth-authorization-server", "/authorize?client_id=x"} {
			req, _ := http.NewRequest(http.MethodGet, f.iss.URL()+path, nil)
			req.Host = host
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if want == http.StatusForbidden {
				assert.Equal(t, want, resp.StatusCode, "%s %s", host, path)
				assert.Contains(t, string(b), "is not a name of this issuer", host)
			} else {
				assert.NotEqual(t, http.StatusForbidden, resp.StatusCode, "%s %s: %s", host, path, b)
			}
		}
	}
}

// TestIssuerCutsSlowAndLargeRequests: a header or a body that trickles in
// is cut at the stated read deadline (here 300 ms for the header, 400 ms
// for the whole request: the connection gets its answer or is closed well
// within a second; the defaults are 5 s and 10 s), and a header or a body
// past its bound is refused.
func TestIssuerCutsSlowAndLargeRequests(t *testing.T) {
	f := startAS(t, func(c *authn.IssuerConfig) {
		c.ReadHeaderTimeout = 300 * time.Millisecond
		c.ReadTimeout = 400 * time.Millisecond
	})
	u, _ := url.Parse(f.iss.URL())
	for name, tc := range map[string]struct {
		send     string
		deadline time.Duration
	}{
		"slow header": {"POST /token HTTP/1.1\r\nHost: " + u.Host + "\r\nContent-Type: applic", 300 * time.Millisecond},
		"slow body":   {"POST /token HTTP/1.1\r\nHost: " + u.Host + "\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\ngrant_type=", 400 * time.Millisecond},
	} {
		t.Run(name, func(t *testing.T) {
			conn, err := net.Dial("tcp", u.Host)
			require.NoError(t, err)
			defer conn.Close()
			start := time.Now()
			_, err = io.WriteString(conn, tc.send)
			require.NoError(t, err)
			require.NoError(t, conn.SetReadDeadline(time.Now().Add(5*time.Second))) // the test's own bound, never reached when the issuer cuts
			answer, _ := io.ReadAll(conn)
			elapsed := time.Since(start)
			t.Logf("deadline %s: cut after %s", tc.deadline, elapsed.Round(time.Millisecond))
			assert.Less(t, elapsed, tc.deadline+time.Second, "cut at the read deadline, not left waiting: %s", answer)
			assert.GreaterOrEqual(t, elapsed, tc.deadline-50*time.Millisecond, "the deadline, not an immediate refusal")
			assert.NotContains(t, string(answer), "200 OK")
		})
	}

	resp, err := http.Post(f.iss.URL()+"/token", "application/x-www-form-urlencoded", strings.NewReader("grant_type=client_credentials&pad="+strings.Repeat("p", 65<<10)))
	require.NoError(t, err)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode, "a token request over 64 KiB: %s", b)

	req, _ := http.NewRequest(http.MethodGet, f.iss.URL()+"/jwks", nil)
	req.Header.Set("X-Padding", strings.Repeat("p", 64<<10))
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusRequestHeaderFieldsTooLarge, resp.StatusCode)
}

// TestRefreshWithUnknownScopeKeepsTheToken: a refresh asking for a scope
// the grant does not hold is refused (invalid_scope) and the refresh
// token still works afterwards.
func TestRefreshWithUnknownScopeKeepsTheToken(t *testing.T) {
	f := startAS(t, nil)
	tok := f.login(t, "alice", "companies:read")
	refresh := func(scope string) (*oauth2.Token, error) {
		form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok.RefreshToken}, "client_id": {authn.DemoTokenClientID}}
		if scope != "" {
			form.Set("scope", scope)
		}
		resp, err := http.PostForm(f.iss.URL()+"/token", form)
		require.NoError(t, err)
		defer resp.Body.Close()
		var out struct {
			oauth2.Token
			Error string `json:"error"`
			Desc  string `json:"error_description"`
		}
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
		if out.Error != "" {
			return nil, fmt.Errorf("%s: %s", out.Error, out.Desc)
		}
		return &out.Token, nil
	}
	for _, scope := range []string{"companies:read admin", "companies:write"} {
		_, err := refresh(scope)
		require.Error(t, err, scope)
		assert.Contains(t, err.Error(), "invalid_scope", scope)
		assert.Contains(t, err.Error(), "the refresh token was not used and still works")
	}
	next, err := refresh("")
	require.NoError(t, err, "the token was not burned")
	assert.NotEqual(t, tok.RefreshToken, next.RefreshToken)
}

// TestClientDocumentFetchIsNoPortScanner: with an open policy, a
// special-use or refused address is turned down without a connection (a
// listener on this machine sees none), and on loopback, where the embedded
// issuer accepts local tools' documents, whatever a port answered (nothing,
// another protocol, an error page, the wrong document) gets one and the
// same answer.
func TestClientDocumentFetchIsNoPortScanner(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	accepted := make(chan struct{}, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- struct{}{}
			_, _ = c.Write([]byte("SSH-2.0-OpenSSH_9.2\r\n"))
			c.Close()
		}
	}()
	t.Cleanup(func() { ln.Close() })
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	v := oauth2.GenerateVerifier()

	closed := startAS(t, func(c *authn.IssuerConfig) { c.ClientDocumentPolicy = authn.ClientDocumentPolicy{Open: true} })
	for id, says := range map[string]string{
		"https://localhost:" + port + "/client.json":    "is on a private address", // a name: refused on its resolved address
		"https://127.0.0.1:" + port + "/client.json":    "is on a private address",
		"https://[64:ff9b::7f00:1]:" + port + "/c.json": "is on a special-use address",
		"https://[2002:7f00:1::1]:" + port + "/c.json":  "is on a special-use address",
		"https://198.18.0.1/client.json":                "is on a special-use address",
		"https://192.0.2.1/client.json":                 "is on a special-use address",
		"https://[2001:db8::1]/client.json":             "is on a special-use address",
	} {
		status, _, body := authorize(t, authURL(closed, id, "http://127.0.0.1/cb", v, nil))
		assert.Equal(t, http.StatusBadRequest, status, id)
		assert.Contains(t, body, says, id)
	}
	select {
	case <-accepted:
		t.Fatal("a refused address was connected to")
	default:
	}

	// The embedded issuer's policy: loopback documents are fetched.
	web := httptestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/wrong.json" {
			_, _ = w.Write([]byte(`{"client_id":"https://elsewhere.example/c.json","redirect_uris":["http://127.0.0.1/cb"]}`))
			return
		}
		http.NotFound(w, r)
	}))
	gone, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	goneAddr := gone.Addr().String()
	gone.Close()
	local := startAS(t, func(c *authn.IssuerConfig) {
		c.ClientDocumentPolicy = authn.ClientDocumentPolicy{Open: true, AllowLoopback: true}
	})
	answers := map[string]bool{}
	for _, id := range []string{
		"http://" + goneAddr + "/c.json",       // nothing listens
		"http://127.0.0.1:" + port + "/c.json", // another protocol
		web + "/missing.json",                  // an error page
		web + "/wrong.json",                    // a document naming another client
		"http://localhost:" + port + "/c.json", // by name
	} {
		status, _, body := authorize(t, authURL(local, id, "http://127.0.0.1/cb", v, nil))
		assert.Equal(t, http.StatusBadRequest, status, id)
		answers[strings.ReplaceAll(body, id, "URL")] = true
	}
	assert.Len(t, answers, 1, "one answer, whatever was there: %v", answers)
	for a := range answers {
		assert.Contains(t, a, "could not be used (for a document on this machine or a private network, the reason is not given)")
	}
}

// httptestServer serves h over plain http on loopback and returns its URL.
func httptestServer(t *testing.T, h http.Handler) string {
	t.Helper()
	srv := &http.Server{Handler: h, ReadHeaderTimeout: time.Second}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String()
}

// TestSignInFloodNeverStopsTheNextSignIn: authorization codes a flood
// leaves unredeemed (here a thousand, the table's size) make the oldest
// give way; the next person's sign-in still gets a code and a token.
func TestSignInFloodNeverStopsTheNextSignIn(t *testing.T) {
	f := startAS(t, nil)
	conf := f.oauthConfig(authn.DemoTokenRedirectURI)
	var first string
	for n := range 1000 {
		_, loc, body := authorize(t, conf.AuthCodeURL("s", oauth2.S256ChallengeOption(oauth2.GenerateVerifier()), oauth2.SetAuthURLParam("login_hint", "flood")))
		require.NotNil(t, loc, body)
		require.NotEmpty(t, loc.Query().Get("code"), "sign-in %d: %s", n, loc.Query().Get("error_description"))
		if n == 0 {
			first = loc.Query().Get("code")
		}
		f.clock.Add(time.Millisecond)
	}
	tok := f.login(t, "alice", "companies:read")
	assert.NotEmpty(t, tok.AccessToken)
	_, err := conf.Exchange(context.Background(), first, oauth2.VerifierOption(oauth2.GenerateVerifier()))
	assert.Equal(t, "invalid_grant", oauthCode(err), "the oldest code gave way")
}

// TestStepUpInAnotherBrowserKeepsTheUser: a client that registered itself
// (one installation) was refused for want of scopes while signed in as
// alice; its step-up opens a browser that is signed in as nobody. The page
// is still alice's only: approving gives alice's token, bob takes signing
// out first. A client_id many share (an operator's) is not bound.
func TestStepUpInAnotherBrowserKeepsTheUser(t *testing.T) {
	f := startAS(t, func(c *authn.IssuerConfig) {
		c.Users = []string{"alice", "bob"}
		c.PublicClients = []authn.PublicClient{{ID: "team-ide", Name: "Team IDE", RedirectURIs: []string{"http://127.0.0.1/cb"}}}
	})
	_, reg := register(t, f.iss.URL(), `{"client_name":"Acme","redirect_uris":["http://127.0.0.1/cb"]}`)
	id := reg["client_id"].(string)
	signInAs(t, f, browser(t), id, "http://127.0.0.1:9000/cb", "alice", "companies:read")
	signInAs(t, f, browser(t), "team-ide", "http://127.0.0.1:9000/cb", "alice", "companies:read")
	need := []string{"companies:read", "companies:write"}
	f.iss.EndGrantsBelow(id, "alice", need)
	f.iss.EndGrantsBelow("team-ide", "alice", need)

	_, page := consentForm(t, browser(t), authURL(f, "team-ide", "http://127.0.0.1:9000/cb", oauth2.GenerateVerifier(), nil))
	assert.Contains(t, page, `value="bob" required>`, "a shared client_id says nothing of who is at this browser")

	v := oauth2.GenerateVerifier()
	stepUp := authURL(f, id, "http://127.0.0.1:9000/cb", v, func(q url.Values) { q.Set("scope", "companies:read companies:write") })
	form, page := consentForm(t, browser(t), stepUp)
	assert.Contains(t, page, "The application is signed in as alice and asks for more. Not alice? Sign out first, then choose who signs in.")
	assert.Contains(t, page, `value="alice" checked`)
	assert.NotContains(t, page, `value="bob"`)
	b := browser(t)
	form, _ = consentForm(t, b, stepUp)
	form.Set("decision", "approve")
	form.Set("user", "alice")
	status, loc, body := decide(t, b, f.iss.URL(), form)
	require.Equal(t, http.StatusFound, status, body)
	conf := &oauth2.Config{ClientID: id, RedirectURL: "http://127.0.0.1:9000/cb",
		Endpoint: oauth2.Endpoint{TokenURL: f.iss.URL() + "/token", AuthStyle: oauth2.AuthStyleInParams}}
	tok, err := conf.Exchange(context.Background(), loc.Query().Get("code"), oauth2.VerifierOption(v))
	require.NoError(t, err)
	sub, claims := f.accessClaims(t, tok.AccessToken, resource)
	assert.Equal(t, "alice", sub)
	assert.Equal(t, "companies:read companies:write", claims["scope"])

	f.iss.EndGrantsBelow(id, "alice", need)
	other := browser(t)
	form, _ = consentForm(t, other, stepUp)
	form.Set("decision", "signout")
	status, _, page = decide(t, other, f.iss.URL(), form)
	require.Equal(t, http.StatusOK, status, page)
	assert.Contains(t, page, "You signed out as alice. Choose who signs in.")
	assert.Contains(t, page, `value="bob" required>`)
}
