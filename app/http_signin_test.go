package app

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
