package app

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/ratelimit/redistest"
)

// Issue 36 item 7: a refused confirmation says its true reason, and the
// start-up line, the status resource and the log say whether (and how)
// writes are confirmed.

// Over stateless HTTP under 2025-11-25 a client that declared elicitation
// still cannot be asked: the refusal says it is the transport, and the
// fix, not that the client declared nothing; nothing reaches the backend.
func TestHTTP20251125RefusalUnderRequiredNamesTheTransportAndTheFix(t *testing.T) {
	s := newAuthStack(t)
	rec := newRecorder(t, s.srv.URL())
	srv, err := startHTTP(t, serviceEnv(t, s, "dora"), "--endpoint", rec.URL, "--allow-mutations", "--confirm-writes", "required")
	require.NoError(t, err)
	assert.Contains(t, srv.logs.String(), " confirm_writes=required")

	old := map[string]string{"MCP-Protocol-Version": "2025-11-25"}
	resp := post(t, srv.base, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",`+
		`"capabilities":{"elicitation":{"form":{}}},"clientInfo":{"name":"t","version":"1"}}}`, nil)
	require.Equal(t, 200, resp.StatusCode, readBody(t, resp))
	body := readBody(t, post(t, srv.base, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"create_collection","arguments":{"name":"never"}}}`, old))
	var out struct {
		Result map[string]any `json:"result"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &out), body)
	require.Equal(t, true, out.Result["isError"], body)
	msg := errorMeta(out.Result)["message"].(string)
	assert.Equal(t, "confirmation_required", errorMeta(out.Result)["code"])
	assert.Contains(t, msg, "this server runs over stateless HTTP, where under protocol 2025-11-25 no question can reach the user within a call, whatever the client declared")
	assert.Contains(t, msg, "connect with protocol 2026-07-28, where the question comes back in the answer, or run the server over stdio")
	assert.NotContains(t, msg, "did not declare")
	assert.Empty(t, rec.Ops(), "nothing reached the backend")

	// The status resource says so too.
	body = readBody(t, post(t, srv.base, `{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"companies://server/status"}}`, old))
	var st struct {
		Result struct {
			Contents []struct {
				Text string `json:"text"`
			} `json:"contents"`
		} `json:"result"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &st), body)
	require.Len(t, st.Result.Contents, 1, body)
	var status Status
	require.NoError(t, json.Unmarshal([]byte(st.Result.Contents[0].Text), &status))
	assert.Equal(t, "required", status.Mutations.Confirmed.Mode)
	assert.Equal(t, "process", status.Mutations.Confirmed.SingleUse)
	assert.Contains(t, status.Mutations.Confirmed.How, "a 2025-11-25 client cannot be asked, whatever it declared: its writes are refused")
}

// Writes off, or confirmation off, is confirm_writes=no on the start-up
// line; a replica set (a shared key) without a shared single-use store
// warns at start, and with --redis-url does not.
func TestStartupSaysWhetherWritesAreConfirmedAndWarnsAReplicaSetWithoutRedis(t *testing.T) {
	s := newAuthStack(t)
	env := serviceEnv(t, s, "dora")
	srv, err := startHTTP(t, env, "--endpoint", s.srv.URL())
	require.NoError(t, err)
	assert.Regexp(t, `msg="starting mcp-server" .* confirm_writes=no `, srv.logs.String())

	srv, err = startHTTP(t, env, "--endpoint", s.srv.URL(), "--allow-mutations", "--confirm-writes", "off")
	require.NoError(t, err)
	assert.Regexp(t, `msg="starting mcp-server" .* confirm_writes=no `, srv.logs.String())

	key := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("k", 32)))
	srv, err = startHTTP(t, env, "--endpoint", s.srv.URL(), "--allow-mutations", "--confirm-state-key", key)
	require.NoError(t, err)
	assert.Regexp(t, `msg="starting mcp-server" .* confirm_writes=ask `, srv.logs.String())
	assert.Contains(t, srv.logs.String(), `level=WARN msg="confirmations are single-use within this process only: in a replica set, `+
		`a confirmed write's state could be answered once on each replica; give every replica the same --redis-url"`)

	redis := redistest.Start(t)
	srv, err = startHTTP(t, env, "--endpoint", s.srv.URL(), "--allow-mutations", "--confirm-state-key", key, "--redis-url", redis.URL())
	require.NoError(t, err)
	assert.NotContains(t, srv.logs.String(), "single-use within this process only")
}
