package app

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/appsynclocal/authn"
)

// These tests run the whole server (app.Run over pipes) against the
// embedded backend behind a recording proxy, and play a 2025-11-25 client
// that declares elicitation (or not) and answers the server's
// elicitation/create itself, so that every byte of the exchange is seen.

// mutations are the GraphQL mutations the server can send.
var mutations = []string{"CreateCollection", "AddToCollection", "RemoveFromCollection", "RequestEmailDiscovery"}

func mutationsIn(ops []string) []string {
	return slices.DeleteFunc(slices.Clone(ops), func(op string) bool { return !slices.Contains(mutations, op) })
}

// confirmingClient starts the server over stdio with writes on and mode,
// in front of a recorder, and initializes with capabilities.
func confirmingClient(t *testing.T, mode, capabilities string) (*running, *recorder) {
	t.Helper()
	s := newAuthStack(t)
	rec := newRecorder(t, s.srv.URL())
	r := launch(t, []string{"--endpoint", rec.URL, "--allow-mutations", "--confirm-writes", mode},
		map[string]string{"OIDC_ISSUER": s.iss.URL(), "OIDC_AUDIENCE": authn.DefaultAudience, "OIDC_TOKEN": s.mint(t, "alice")})
	r.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":` + capabilities + `,"clientInfo":{"name":"test","version":"1"}}}`)
	r.read()
	r.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return r, rec
}

// callAsked sends a tool call and returns the server's question to the
// client (elicitation/create): its id and message.
func (r *running) callAsked(tool, args string) (id, message string) {
	r.t.Helper()
	r.id++
	r.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, r.id, tool, args))
	q := r.read()
	require.Equal(r.t, "elicitation/create", q["method"], "the server asks before it writes: %v", q)
	params := q["params"].(map[string]any)
	assert.Equal(r.t, map[string]any{"type": "object", "properties": map[string]any{}}, params["requestedSchema"])
	return q["id"].(string), params["message"].(string)
}

// reply sends the person's answer and returns the call's result.
func (r *running) reply(id, action string) map[string]any {
	r.t.Helper()
	r.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"result":{"action":%q}}`, id, action))
	return r.read()["result"].(map[string]any)
}

// records returns the audit records of tool calls logged so far.
func (r *running) records(tool string) []string {
	var out []string
	for _, l := range strings.Split(r.logs.String(), "\n") {
		if strings.Contains(l, `msg="tool call"`) && strings.Contains(l, "tool="+tool+" ") {
			out = append(out, l)
		}
	}
	return out
}

func TestConfirmedWriteHappensOnceOnAcceptAndNeverOnDecline(t *testing.T) {
	r, rec := confirmingClient(t, "required", `{"elicitation":{"form":{}}}`)

	id, question := r.callAsked("create_collection", `{"name":"Berlin fintech prospects","description":"for the Q3 push"}`)
	assert.Equal(t, "Create a collection?\n\n"+
		`Create a new, empty collection named "Berlin fintech prospects", described as "for the Q3 push". You have no collection of that name yet.`+"\n"+
		"Cost: no rate limit applies to this tool.\n\nAccept to write this; decline and nothing is written.", question)
	assert.Empty(t, mutationsIn(rec.Ops()), "nothing is written while the person reads")
	res := r.reply(id, "accept")
	require.Nil(t, res["isError"], "%v", res)
	col := res["structuredContent"].(map[string]any)["collection"].(map[string]any)
	assert.Equal(t, true, res["structuredContent"].(map[string]any)["created"])
	assert.Equal(t, []string{"CreateCollection"}, mutationsIn(rec.Ops()), "accepted: written once")
	recs := r.records("create_collection")
	require.Len(t, recs, 1)
	assert.Contains(t, recs[0], "confirmed=user preview_sha256=")

	// add_to_collection shows the companies by name and what is there.
	company := r.firstCompany()
	id, question = r.callAsked("add_to_collection", fmt.Sprintf(`{"collection_id":%q,"company_ids":[%q,"cmp_nope"]}`, col["id"], company["id"]))
	assert.Contains(t, question, `Add 1 company to your collection "Berlin fintech prospects" (now 0 companies):`)
	assert.Contains(t, question, fmt.Sprintf("  - %q (%s)", company["name"], company["id"]))
	assert.Contains(t, question, "No company has these ids, so they would be skipped: cmp_nope.")
	res = r.reply(id, "decline")
	assert.Equal(t, true, res["isError"])
	assert.Equal(t, "declined", errorMeta(res)["code"])
	assert.Contains(t, res["content"].([]any)[0].(map[string]any)["text"], "add_to_collection failed [declined]: the user declined this write")
	assert.Equal(t, []string{"CreateCollection"}, mutationsIn(rec.Ops()), "declined: no mutation reached the backend")

	// request_email_discovery says what it costs; cancel is no yes either.
	id, question = r.callAsked("request_email_discovery", fmt.Sprintf(`{"company_id":%q,"roles":["CEO"]}`, company["id"]))
	assert.Contains(t, question, fmt.Sprintf(`Start an email-discovery job at %q (%s), looking for the work email addresses of: "CEO".`, company["name"], company["id"]))
	assert.Contains(t, question, "Cost: one of your 10 per hour calls; 10 left now.")
	res = r.reply(id, "cancel")
	assert.Equal(t, "declined", errorMeta(res)["code"])
	assert.Equal(t, []string{"CreateCollection"}, mutationsIn(rec.Ops()))

	assert.Contains(t, r.records("add_to_collection")[0], "confirmed=declined answer=decline preview_sha256=")
	assert.Contains(t, r.records("request_email_discovery")[0], "confirmed=declined answer=cancel preview_sha256=")
	// The declined job spent none of the budget: the next question says so.
	id, question = r.callAsked("request_email_discovery", fmt.Sprintf(`{"company_id":%q}`, company["id"]))
	assert.Contains(t, question, "10 left now")
	assert.Contains(t, question, "of: its leadership roles (the default)")
	r.reply(id, "decline")
}

// A removal is asked about like every write: the question names the
// companies by name and what is not there, a decline removes nothing, and
// an accept removes once; the records say how each was confirmed.
func TestConfirmedRemoveNamesTheCompaniesAndRemovesOnlyOnAccept(t *testing.T) {
	r, rec := confirmingClient(t, "required", `{"elicitation":{"form":{}}}`)
	id, _ := r.callAsked("create_collection", `{"name":"Shortlist"}`)
	col := r.reply(id, "accept")["structuredContent"].(map[string]any)["collection"].(map[string]any)
	company := r.firstCompany()
	id, _ = r.callAsked("add_to_collection", fmt.Sprintf(`{"collection_id":%q,"company_ids":[%q]}`, col["id"], company["id"]))
	require.Nil(t, r.reply(id, "accept")["isError"])

	args := fmt.Sprintf(`{"collection_id":%q,"company_ids":[%q,"cmp_nope"]}`, col["id"], company["id"])
	id, question := r.callAsked("remove_from_collection", args)
	assert.Equal(t, "Remove companies from a collection?\n\n"+
		`Remove 1 company from your collection "Shortlist" (now 1 company):`+"\n"+
		fmt.Sprintf("  - %q (%s)\n", company["name"], company["id"])+
		"Not in it, so nothing to remove: cmp_nope.\n"+
		"Adding a company again later puts it at the end of the collection.\n"+
		"Cost: no rate limit applies to this tool.\n\nAccept to write this; decline and nothing is written.", question)
	res := r.reply(id, "decline")
	assert.Equal(t, "declined", errorMeta(res)["code"])
	assert.Contains(t, res["content"].([]any)[0].(map[string]any)["text"], "remove_from_collection failed [declined]: the user declined this write")
	assert.NotContains(t, mutationsIn(rec.Ops()), "RemoveFromCollection", "declined: nothing removed")

	id, _ = r.callAsked("remove_from_collection", args)
	res = r.reply(id, "accept")
	require.Nil(t, res["isError"], "%v", res)
	sc := res["structuredContent"].(map[string]any)
	assert.Equal(t, []any{company["id"]}, sc["removed"])
	assert.Equal(t, []any{"cmp_nope"}, sc["not_present"])
	assert.Equal(t, []string{"CreateCollection", "AddToCollection", "RemoveFromCollection"}, mutationsIn(rec.Ops()), "accepted: removed once")
	recs := r.records("remove_from_collection")
	require.Len(t, recs, 2)
	assert.Contains(t, recs[0], "confirmed=declined answer=decline preview_sha256=")
	assert.Contains(t, recs[1], "confirmed=user preview_sha256=")
}

// firstCompany finds a company by search (a read: never asked about).
func (r *running) firstCompany() map[string]any {
	r.t.Helper()
	got, isErr := r.call("search_companies", `{"query":"a","limit":1}`)
	require.False(r.t, isErr, "%v", got)
	return got["companies"].([]any)[0].(map[string]any)
}

func TestClientThatCannotAskIsRefusedUnderRequiredBeforeAnyBackendCall(t *testing.T) {
	r, rec := confirmingClient(t, "required", `{}`)
	before := len(rec.Ops())
	got, isErr := r.call("create_collection", `{"name":"never"}`)
	require.True(t, isErr)
	assert.Equal(t, "confirmation_required", got["error"].(map[string]any)["code"])
	assert.Contains(t, got["error"].(map[string]any)["message"], "this client cannot ask its user (it did not declare the elicitation capability); nothing was written")
	assert.Len(t, rec.Ops(), before, "refused before any backend call, the dry run's too")
	assert.NotContains(t, r.records("create_collection")[0], "confirmed=", "nobody was asked, and nothing was written")
}

func TestClientThatCannotAskWritesUnderAskAndTheRecordSaysNotAsked(t *testing.T) {
	r, rec := confirmingClient(t, "ask", `{}`)
	got, isErr := r.call("create_collection", `{"name":"unasked"}`)
	require.False(t, isErr, "%v", got)
	assert.Equal(t, []string{"CreateCollection"}, mutationsIn(rec.Ops()))
	assert.Contains(t, r.records("create_collection")[0], `confirmed="not asked"`)
}
