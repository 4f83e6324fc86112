package app

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/oauth2"
)

// TestOAuthChallengeNamesWhatTheServerAllows: the 401 asks for the read
// scope, and the write scope too once --allow-mutations enables a write
// tool, so a client that requests what the challenge names can use every
// tool it is shown.
func TestOAuthChallengeNamesWhatTheServerAllows(t *testing.T) {
	s := newOAuthStack(t)
	list := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":` + modernMeta + `}}`
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, `scope="companies:read"`},
		{[]string{"--allow-mutations=create_collection"}, `scope="companies:read companies:write"`},
	} {
		srv := s.start(t, s.exchangeEnv(), tc.args...)
		resp := post(t, srv.base, list, modernHeaders("tools/list", ""))
		readBody(t, resp)
		require.Equal(t, http.StatusUnauthorized, resp.StatusCode)
		assert.Contains(t, resp.Header.Get("WWW-Authenticate"), tc.want, "flags %v", tc.args)
	}
}

// TestOAuthStatusDescribesTheCaller: over HTTP the status resource names
// the caller of that request (issuer, subject, client, scopes), never the
// server's own identity.
func TestOAuthStatusDescribesTheCaller(t *testing.T) {
	s := newOAuthStack(t)
	srv := s.start(t, s.exchangeEnv())
	read := `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"_meta":` + modernMeta + `,"uri":"` + StatusURI + `"}}`
	status := func(user string) Status {
		resp := post(t, srv.base, read, modernHeaders("resources/read", StatusURI, "Authorization", "Bearer "+s.token(t, srv.base, user, readOnly...)))
		body := readBody(t, resp)
		require.Equal(t, http.StatusOK, resp.StatusCode, body)
		var rpc struct {
			Result struct {
				Contents []struct {
					Text string `json:"text"`
				} `json:"contents"`
			} `json:"result"`
		}
		require.NoError(t, json.Unmarshal([]byte(body[strings.Index(body, "{"):]), &rpc), body)
		require.Len(t, rpc.Result.Contents, 1, body)
		var st Status
		require.NoError(t, json.Unmarshal([]byte(rpc.Result.Contents[0].Text), &st))
		return st
	}
	for _, user := range []string{"alice", "bob"} {
		st := status(user)
		require.NotNil(t, st.Caller)
		assert.Equal(t, CallerStatus{Issuer: s.iss.URL(), Subject: user, Client: "https://client.example/app.json", Scopes: readOnly}, *st.Caller)
		assert.EqualValues(t, "oauth", st.Auth.Method)
		assert.Equal(t, user, st.Auth.Principal)
		assert.Equal(t, s.iss.URL(), st.Auth.Issuer)
		assert.Empty(t, st.Auth.TokenSource, "not the server's client_credentials")
	}
}

// TestEmbeddedIssuerOffersOnlyWhatTheServerAllows: with writes off, the
// write scope appears nowhere a client or a person would take it from:
// not in the resource's or the issuer's metadata, not on the consent page,
// not in a token, and asking for it is invalid_scope. With
// --allow-mutations it is in all of them.
func TestEmbeddedIssuerOffersOnlyWhatTheServerAllows(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		scopes []any
	}{
		{nil, []any{"companies:read"}},
		{[]string{"--allow-mutations"}, []any{"companies:read", "companies:write"}},
	} {
		t.Run(fmt.Sprint(tc.args), func(t *testing.T) {
			srv, err := startHTTP(t, nil, append([]string{"--embedded", "--data-dir", t.TempDir(), "--companies", "20", "--oauth-issuer", "embedded"}, tc.args...)...)
			require.NoError(t, err)
			getJSON := func(u string) map[string]any {
				resp, err := http.Get(u)
				require.NoError(t, err)
				defer resp.Body.Close()
				var doc map[string]any
				require.NoError(t, json.NewDecoder(resp.Body).Decode(&doc))
				return doc
			}
			prm := getJSON(srv.base + "/.well-known/oauth-protected-resource/mcp")
			assert.Equal(t, tc.scopes, prm["scopes_supported"])
			issuer := prm["authorization_servers"].([]any)[0].(string)
			assert.Equal(t, tc.scopes, getJSON(issuer + "/.well-known/oauth-authorization-server")["scopes_supported"])

			resp, err := http.Post(issuer+"/register", "application/json", strings.NewReader(`{"client_name":"scope test","redirect_uris":["http://127.0.0.1/cb"]}`))
			require.NoError(t, err)
			var reg map[string]any
			require.NoError(t, json.NewDecoder(resp.Body).Decode(&reg))
			resp.Body.Close()
			conf := &oauth2.Config{ClientID: reg["client_id"].(string), RedirectURL: "http://127.0.0.1:7000/cb",
				Endpoint: oauth2.Endpoint{AuthURL: issuer + "/authorize", TokenURL: issuer + "/token", AuthStyle: oauth2.AuthStyleInParams}}
			jar, _ := cookiejar.New(nil)
			browser := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
			v := oauth2.GenerateVerifier()

			resp, err = browser.Get(conf.AuthCodeURL("s", oauth2.S256ChallengeOption(v), oauth2.SetAuthURLParam("scope", "companies:read companies:write")))
			require.NoError(t, err)
			page := readBody(t, resp)
			if len(tc.scopes) == 1 {
				require.Equal(t, http.StatusFound, resp.StatusCode, page)
				loc, _ := url.Parse(resp.Header.Get("Location"))
				assert.Equal(t, "invalid_scope", loc.Query().Get("error"), "asking for writes is refused")
				resp, err = browser.Get(conf.AuthCodeURL("s", oauth2.S256ChallengeOption(v)))
				require.NoError(t, err)
				page = readBody(t, resp)
			}
			require.Equal(t, http.StatusOK, resp.StatusCode, page)
			assert.Equal(t, len(tc.scopes) == 2, strings.Contains(page, "Change your lists"), "the consent page describes writes only when they are allowed")
			form := url.Values{"decision": {"approve"}, "user": {"alice"}}
			for _, m := range regexp.MustCompile(`name="(request|csrf_token)" value="([^"]*)"`).FindAllStringSubmatch(page, -1) {
				form.Set(m[1], m[2])
			}
			resp, err = browser.PostForm(issuer+"/authorize", form)
			require.NoError(t, err)
			readBody(t, resp)
			require.Equal(t, http.StatusFound, resp.StatusCode)
			loc, _ := url.Parse(resp.Header.Get("Location"))
			tok, err := conf.Exchange(context.Background(), loc.Query().Get("code"), oauth2.VerifierOption(v))
			require.NoError(t, err)
			want := []string{}
			for _, s := range tc.scopes {
				want = append(want, s.(string))
			}
			assert.Equal(t, strings.Join(want, " "), tok.Extra("scope"), "the token holds what was allowed")
		})
	}
}
