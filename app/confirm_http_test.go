package app

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/ratelimit/redistest"
)

// These tests run two (and three) HTTP servers by app.Run, as replicas of
// one service sharing a --confirm-state-key and a Redis, in front of the
// embedded backend behind a recording proxy, and speak 2026-07-28 to them
// with raw requests: the question comes from one replica, the answer goes
// to another.

// elicitingMeta is a 2026-07-28 request's _meta from a client that can ask
// its user.
const elicitingMeta = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}},"io.modelcontextprotocol/clientInfo":{"name":"test","version":"1"}}`

// modernConfirm posts a tools/call; with state, it is the retry carrying
// the person's action.
func modernConfirm(t *testing.T, base, tool, args, state, action string) map[string]any {
	t.Helper()
	retry := ""
	if state != "" {
		retry = fmt.Sprintf(`,"requestState":%q,"inputResponses":{"confirm":{"action":%q}}`, state, action)
	}
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":%s,"name":%q,"arguments":%s%s}}`, elicitingMeta, tool, args, retry)
	raw := readBody(t, post(t, base, body, modernHeaders("tools/call", tool)))
	var m struct {
		Result map[string]any `json:"result"`
	}
	require.NoError(t, json.Unmarshal([]byte(raw), &m), raw)
	require.NotNil(t, m.Result, raw)
	return m.Result
}

// question reads an InputRequiredResult: the message and the state.
func question(t *testing.T, res map[string]any) (message, state string) {
	t.Helper()
	require.Equal(t, "input_required", res["resultType"], "%v", res)
	req := res["inputRequests"].(map[string]any)["confirm"].(map[string]any)
	require.Equal(t, "elicitation/create", req["method"])
	return req["params"].(map[string]any)["message"].(string), res["requestState"].(string)
}

func refusedState(t *testing.T, res map[string]any) string {
	t.Helper()
	require.Equal(t, true, res["isError"], "%v", res)
	e := errorMeta(res)
	require.Equal(t, "confirmation_invalid", e["code"], "%v", e)
	return e["message"].(string)
}

func TestConfirmationAskedOnOneReplicaIsFinishedOnAnotherOnceAndOnlyAsAsked(t *testing.T) {
	s := newAuthStack(t)
	rec := newRecorder(t, s.srv.URL())
	redis := redistest.Start(t)
	key := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("r", 32)))
	env := serviceEnv(t, s, "dora")
	env["CONFIRM_STATE_KEY"] = key
	args := []string{"--endpoint", rec.URL, "--allow-mutations", "--confirm-writes=required", "--redis-url", redis.URL()}
	a, err := startHTTP(t, env, args...)
	require.NoError(t, err)
	b, err := startHTTP(t, env, args...)
	require.NoError(t, err)
	other := serviceEnv(t, s, "erin") // another caller, the same service key
	other["CONFIRM_STATE_KEY"] = key
	c, err := startHTTP(t, other, args...)
	require.NoError(t, err)

	call := `{"name":"Replicated prospects"}`
	msg, state := question(t, modernConfirm(t, a.base, "create_collection", call, "", ""))
	assert.Contains(t, msg, `Create a new, empty collection named "Replicated prospects".`)
	assert.NotContains(t, state, "dora", "the state is sealed, not readable")
	assert.Empty(t, mutationsIn(rec.Ops()), "asking writes nothing")

	// Refused states, each with a plain message, none written.
	tampered := []byte(state)
	tampered[len(tampered)/2] ^= 0x01
	assert.Contains(t, refusedState(t, modernConfirm(t, b.base, "create_collection", call, string(tampered), "accept")),
		"the confirmation state was altered or cut short, or was not issued by this service; nothing was written. Call create_collection again without requestState and inputResponses to ask the user anew")
	assert.Contains(t, refusedState(t, modernConfirm(t, b.base, "create_collection", `{"name":"Something else"}`, state, "accept")),
		"the arguments differ from those the user was asked about")
	assert.Contains(t, refusedState(t, modernConfirm(t, b.base, "add_to_collection", `{"collection_id":"col_1","company_ids":["cmp_1"]}`, state, "accept")),
		"the confirmation was issued for create_collection")
	assert.Contains(t, refusedState(t, modernConfirm(t, c.base, "create_collection", call, state, "accept")),
		"the confirmation was issued to another user")
	assert.Empty(t, mutationsIn(rec.Ops()))

	// Accepted on the other replica: written once, recorded as the user's.
	res := modernConfirm(t, b.base, "create_collection", call, state, "accept")
	require.Nil(t, res["isError"], "%v", res)
	assert.Equal(t, true, res["structuredContent"].(map[string]any)["created"])
	assert.Equal(t, []string{"CreateCollection"}, mutationsIn(rec.Ops()))
	assert.Contains(t, b.logs.String(), "tool=create_collection caller=")
	assert.Regexp(t, `tool=create_collection .*outcome=ok .*confirmed=user preview_sha256=[0-9a-f]{64}`, b.logs.String())

	// The answer was lost, the client retries: on either replica the state
	// is spent, and the create is not sent again.
	for _, r := range []*httpServer{a, b} {
		assert.Contains(t, refusedState(t, modernConfirm(t, r.base, "create_collection", call, state, "accept")),
			"this confirmation was already used: the write it confirmed is done once, never again")
	}
	assert.Equal(t, []string{"CreateCollection"}, mutationsIn(rec.Ops()), "created once")

	// Declined on the other replica: nothing reaches the backend.
	_, state = question(t, modernConfirm(t, a.base, "create_collection", `{"name":"Never made"}`, "", ""))
	res = modernConfirm(t, b.base, "create_collection", `{"name":"Never made"}`, state, "decline")
	assert.Equal(t, "declined", errorMeta(res)["code"])
	assert.Equal(t, []string{"CreateCollection"}, mutationsIn(rec.Ops()))

	// A client that declares no elicitation cannot be asked: under required
	// it is refused before any backend call.
	before := len(rec.Ops())
	raw := readBody(t, post(t, a.base, modernCall("create_collection", `{"name":"No asking"}`), modernHeaders("tools/call", "create_collection")))
	assert.Contains(t, raw, `"code":"confirmation_required"`)
	assert.Len(t, rec.Ops(), before)
}
