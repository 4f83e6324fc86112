package app

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/appsynclocal"
	"github.com/companyintel/mcp-server/appsynclocal/authn"
	"github.com/companyintel/mcp-server/graphql/query/v1backend"
	"github.com/companyintel/mcp-server/ratelimit/redistest"
)

// These tests run two HTTP replicas by app.Run, sharing a Redis, in front
// of an embedded backend whose email-discovery jobs take a minute of an
// injected clock: a job settles when the test moves that clock, never by
// sleeping.

// tasksMeta is a 2026-07-28 request's _meta from a client that negotiated
// the tasks extension.
const tasksMeta = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}},"io.modelcontextprotocol/clientInfo":{"name":"test","version":"1"}}`

// tasksStack is an issuer, a backend with slow jobs on clk, and a Redis.
type tasksStack struct {
	*oauthStack
	clk   *fakeClock
	redis string
}

func newTasksStack(t *testing.T) *tasksStack {
	t.Helper()
	iss, err := authn.StartIssuer("127.0.0.1:0", authn.IssuerConfig{
		Clients: []authn.Client{{ID: exchangeClient, Secret: exchangeSecret}},
	})
	require.NoError(t, err)
	t.Cleanup(func() { iss.Close() })
	clk := &fakeClock{t: time.Now()}
	srv, err := appsynclocal.Start(appsynclocal.Config{
		DataDir:        t.TempDir(),
		Companies:      300,
		JobDelay:       time.Minute,
		Now:            clk.Now,
		Authenticators: []appsynclocal.Authenticator{iss.Authenticator()},
	}, "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { srv.Close() })
	return &tasksStack{oauthStack: &oauthStack{iss: iss, srv: srv, rec: newRecorder(t, srv.URL())}, clk: clk, redis: redistest.Start(t).URL()}
}

// rpc posts one 2026-07-28 request to a replica as the bearer of tok and
// returns the HTTP status and the decoded answer.
func rpc(t *testing.T, base, tok, method, name, params string) (int, map[string]any, string) {
	t.Helper()
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":7,"method":%q,"params":%s}`, method, params)
	hdr := modernHeaders(method, name)
	if tok != "" {
		hdr["Authorization"] = "Bearer " + tok
	}
	resp := post(t, base, body, hdr)
	raw := readBody(t, resp)
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(raw), &m), raw)
	return resp.StatusCode, m, raw
}

func discoveryParams(meta, company string) string {
	return fmt.Sprintf(`{"_meta":%s,"name":"request_email_discovery","arguments":{"company_id":%q,"roles":["CEO","CTO"]}}`, meta, company)
}

func taskParams(meta, id string) string {
	return fmt.Sprintf(`{"_meta":%s,"taskId":%q}`, meta, id)
}

func TestEmailDiscoveryTaskAnsweredByAnyReplicaOnlyToItsCreator(t *testing.T) {
	s := newTasksStack(t)
	args := []string{"--allow-mutations", "--redis-url", s.redis}
	a := s.start(t, s.exchangeEnv(), args...)
	b := s.start(t, s.exchangeEnv(), args...)
	assert.Contains(t, a.logs.String(), "tasks=redis", "the start-up line says where task records live")
	aliceA := s.token(t, a.base, "alice", readWrite...)
	_, m, raw := rpc(t, a.base, aliceA, "resources/read", "companies://server/status", `{"_meta":`+tasksMeta+`,"uri":"companies://server/status"}`)
	var st Status
	require.NoError(t, json.Unmarshal([]byte(obj(list(obj(m["result"])["contents"])[0])["text"].(string)), &st), raw)
	assert.Equal(t, &TasksStatus{Extension: "io.modelcontextprotocol/tasks", Store: "redis", Tools: []string{"request_email_discovery"}}, st.Tasks, "the status resource says so too")
	aliceB := s.token(t, b.base, "alice", readWrite...)
	bobB := s.token(t, b.base, "bob", readWrite...)
	company := "cmp_000001"

	// Created on replica A: a flat CreateTaskResult, once the record is stored.
	status, m, raw := rpc(t, a.base, aliceA, "tools/call", "request_email_discovery", discoveryParams(tasksMeta, company))
	require.Equal(t, 200, status, raw)
	created := obj(m["result"])
	require.Equal(t, "task", created["resultType"], raw)
	id, _ := created["taskId"].(string)
	require.Regexp(t, `^task_[0-9a-f]{32}$`, id)
	assert.Equal(t, "working", created["status"])
	assert.Equal(t, float64(time.Hour.Milliseconds()), created["ttlMs"])
	assert.Equal(t, float64(2000), created["pollIntervalMs"])
	for _, k := range []string{"result", "error", "task", "content", "requestState"} {
		assert.NotContains(t, created, k, "a CreateTaskResult carries only the task")
	}
	assert.Regexp(t, `msg="task created" task=`+id+` tool=request_email_discovery caller=".* alice" job=job_\S+ status=working store=redis ttl_ms=3600000 poll_interval_ms=2000`, a.logs.String())

	// On replica B, the job still running: working.
	status, m, raw = rpc(t, b.base, aliceB, "tasks/get", id, taskParams(tasksMeta, id))
	require.Equal(t, 200, status, raw)
	got := obj(m["result"])
	assert.Equal(t, "complete", got["resultType"])
	assert.Equal(t, id, got["taskId"])
	assert.Equal(t, "working", got["status"], raw)
	assert.NotContains(t, got, "result")

	// Bob asking for alice's task gets what an id never issued gets.
	_, m, rawBob := rpc(t, b.base, bobB, "tasks/get", id, taskParams(tasksMeta, id))
	bobErr := obj(m["error"])
	require.NotNil(t, bobErr, rawBob)
	unknown := "task_" + strings.Repeat("0", 32)
	_, _, rawUnknown := rpc(t, b.base, bobB, "tasks/get", unknown, taskParams(tasksMeta, unknown))
	assert.Equal(t, strings.ReplaceAll(rawUnknown, unknown, id), rawBob, "another caller's task is indistinguishable from an unknown id")
	assert.Equal(t, float64(-32602), bobErr["code"])
	_, m, raw = rpc(t, b.base, bobB, "tasks/cancel", id, taskParams(tasksMeta, id))
	assert.Equal(t, float64(-32602), obj(m["error"])["code"], "bob cannot cancel it either: %s", raw)

	// The job settles (the backend's clock moves): completed, with the
	// contacts inlined as the tool's answer.
	s.clk.Add(2 * time.Minute)
	_, m, raw = rpc(t, b.base, aliceB, "tasks/get", id, taskParams(tasksMeta, id))
	got = obj(m["result"])
	require.Equal(t, "completed", got["status"], raw)
	res := obj(got["result"])
	assert.Nil(t, res["isError"], raw)
	job := obj(obj(res["structuredContent"])["job"])
	assert.Equal(t, "COMPLETED", job["status"])
	contacts, _ := job["contacts"].([]any)
	assert.NotEmpty(t, contacts, raw)
	text := obj(res["content"].([]any)[0])["text"].(string)
	assert.Contains(t, text, "COMPLETED")
	assert.Regexp(t, `msg="task completed" task=`+id+` .*status=completed store=redis is_error=false`, b.logs.String())
	// Asked again on A: the same, from the record.
	_, m, raw2 := rpc(t, a.base, aliceA, "tasks/get", id, taskParams(tasksMeta, id))
	assert.Equal(t, obj(m["result"])["result"], res, raw2)

	// Cancelled on B, observed on A; the job settling later changes nothing.
	_, m, raw = rpc(t, a.base, aliceA, "tools/call", "request_email_discovery", discoveryParams(tasksMeta, company))
	id2 := obj(m["result"])["taskId"].(string)
	require.NotEmpty(t, id2, raw)
	_, m, raw = rpc(t, b.base, aliceB, "tasks/cancel", id2, taskParams(tasksMeta, id2))
	assert.Equal(t, map[string]any{"resultType": "complete"}, m["result"], raw)
	s.clk.Add(2 * time.Minute)
	_, m, raw = rpc(t, a.base, aliceA, "tasks/get", id2, taskParams(tasksMeta, id2))
	assert.Equal(t, "cancelled", obj(m["result"])["status"], raw)
	assert.NotContains(t, obj(m["result"]), "result")
	_, m, _ = rpc(t, a.base, aliceA, "tasks/cancel", id2, taskParams(tasksMeta, id2))
	assert.Equal(t, map[string]any{"resultType": "complete"}, m["result"], "cancelling again is acknowledged")
	assert.Contains(t, b.logs.String(), `msg="task cancelled" task=`+id2)

	// A client that did not negotiate: the synchronous answer, and the
	// extension's methods are refused naming it.
	_, m, raw = rpc(t, a.base, aliceA, "tools/call", "request_email_discovery", discoveryParams(modernMeta, company))
	plain := obj(m["result"])
	assert.NotEqual(t, "task", plain["resultType"], raw)
	assert.NotContains(t, plain, "taskId")
	assert.Equal(t, "PENDING", obj(obj(plain["structuredContent"])["job"])["status"], raw)
	status, m, raw = rpc(t, b.base, aliceB, "tasks/get", id, taskParams(modernMeta, id))
	assert.Equal(t, 400, status)
	e := obj(m["error"])
	assert.Equal(t, float64(-32021), e["code"], raw)
	assert.Equal(t, map[string]any{"requiredCapabilities": map[string]any{"extensions": map[string]any{"io.modelcontextprotocol/tasks": map[string]any{}}}}, e["data"])

	// The routing headers must name the task.
	hdr := modernHeaders("tasks/get", "task_other")
	hdr["Authorization"] = "Bearer " + aliceB
	resp := post(t, b.base, fmt.Sprintf(`{"jsonrpc":"2.0","id":8,"method":"tasks/get","params":%s}`, taskParams(tasksMeta, id)), hdr)
	assert.Equal(t, 400, resp.StatusCode)
	assert.Contains(t, readBody(t, resp), `"code":-32020`)

	// The metrics count each event on the replica where it happened.
	metrics := getMetrics(t, b.base)
	assert.Contains(t, metrics, `mcp_method_name="tasks/get"`)
	assert.Contains(t, metrics, `companyintel_task_events_total{event="completed",gen_ai_tool_name="request_email_discovery"} 1`)
	assert.Contains(t, metrics, `companyintel_task_events_total{event="cancelled",gen_ai_tool_name="request_email_discovery"} 1`)
	assert.Contains(t, getMetrics(t, a.base), `companyintel_task_events_total{event="created",gen_ai_tool_name="request_email_discovery"} 2`)
}

func getMetrics(t *testing.T, base string) string {
	t.Helper()
	resp, err := http.Get(base + "/metrics")
	require.NoError(t, err)
	defer resp.Body.Close()
	return readBody(t, resp)
}

// TestEmailDiscoveryTaskAgainstTheOriginalSchema: a backend that cannot
// report on a job (no getEmailDiscoveryJob) ends the first task with an
// error that says where the contacts will appear; later calls, known to
// be unfollowable, stay synchronous.
func TestEmailDiscoveryTaskAgainstTheOriginalSchema(t *testing.T) {
	s := newTasksStack(t)
	v1, err := v1backend.Start(s.srv.URL())
	require.NoError(t, err)
	t.Cleanup(v1.Close)
	tok, err := s.iss.Mint("alice", time.Hour)
	require.NoError(t, err)
	env := map[string]string{"OIDC_ISSUER": s.iss.URL(), "OIDC_AUDIENCE": authn.DefaultAudience, "OIDC_TOKEN": tok}
	srv, err := startHTTP(t, env, "--endpoint", v1.URL(), "--allow-mutations")
	require.NoError(t, err)
	assert.Contains(t, srv.logs.String(), "tasks=memory")

	_, m, raw := rpc(t, srv.base, "", "tools/call", "request_email_discovery", discoveryParams(tasksMeta, "cmp_000002"))
	id, _ := obj(m["result"])["taskId"].(string)
	require.NotEmpty(t, id, raw)
	_, m, raw = rpc(t, srv.base, "", "tasks/get", id, taskParams(tasksMeta, id))
	got := obj(m["result"])
	require.Equal(t, "completed", got["status"], raw)
	res := obj(got["result"])
	assert.Equal(t, true, res["isError"])
	e := errorMeta(res)
	assert.Equal(t, "backend_error", e["code"])
	assert.Contains(t, e["message"], "call get_company with id cmp_000002")

	_, m, raw = rpc(t, srv.base, "", "tools/call", "request_email_discovery", discoveryParams(tasksMeta, "cmp_000002"))
	assert.NotContains(t, obj(m["result"]), "taskId", "known to be unfollowable, the call stays synchronous: %s", raw)
	assert.Equal(t, "PENDING", obj(obj(obj(m["result"])["structuredContent"])["job"])["status"], raw)
}

// legacyRPC posts one 2025-11-25 request (no _meta) as the bearer of tok.
func legacyRPC(t *testing.T, base, tok, body string) map[string]any {
	t.Helper()
	raw := readBody(t, post(t, base, body, map[string]string{"MCP-Protocol-Version": "2025-11-25", "Authorization": "Bearer " + tok}))
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(raw), &m), raw)
	return m
}

// TestEmailDiscoveryTaskForA2025Client: a 2025-11-25 client with the
// experimental tasks (params.task) gets that revision's surface over the
// same records: initialize names it, the task is answered on any replica
// and only to its creator, and tasks/result gives the contacts.
func TestEmailDiscoveryTaskForA2025Client(t *testing.T) {
	s := newTasksStack(t)
	args := []string{"--allow-mutations", "--redis-url", s.redis}
	a := s.start(t, s.exchangeEnv(), args...)
	b := s.start(t, s.exchangeEnv(), args...)
	aliceA, aliceB := s.token(t, a.base, "alice", readWrite...), s.token(t, b.base, "alice", readWrite...)
	bobB := s.token(t, b.base, "bob", readWrite...)

	init := legacyRPC(t, a.base, aliceA, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"tasks":{}},"clientInfo":{"name":"t","version":"1"}}}`)
	caps := obj(obj(init["result"])["capabilities"])
	assert.Equal(t, map[string]any{"cancel": map[string]any{}, "requests": map[string]any{"tools": map[string]any{"call": map[string]any{}}}}, caps["tasks"])
	tl := legacyRPC(t, a.base, aliceA, `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}`)
	for _, tool := range obj(tl["result"])["tools"].([]any) {
		if obj(tool)["name"] == "request_email_discovery" {
			assert.Equal(t, map[string]any{"taskSupport": "optional"}, obj(tool)["execution"])
		}
	}

	m := legacyRPC(t, a.base, aliceA, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"request_email_discovery","arguments":{"company_id":"cmp_000003"},"task":{"ttl":60000}}}`)
	task := obj(obj(m["result"])["task"])
	id, _ := task["taskId"].(string)
	require.NotEmpty(t, id, "%v", m)
	assert.Equal(t, "working", task["status"])
	assert.Equal(t, float64(3600000), task["ttl"])
	assert.Equal(t, float64(2000), task["pollInterval"])

	get := `{"jsonrpc":"2.0","id":4,"method":"tasks/get","params":{"taskId":"` + id + `"}}`
	assert.Equal(t, "working", obj(legacyRPC(t, b.base, aliceB, get)["result"])["status"])
	assert.Equal(t, float64(-32602), obj(legacyRPC(t, b.base, bobB, get)["error"])["code"], "bob's asking is an unknown id")

	s.clk.Add(2 * time.Minute)
	res := obj(legacyRPC(t, b.base, aliceB, `{"jsonrpc":"2.0","id":5,"method":"tasks/result","params":{"taskId":"`+id+`"}}`)["result"])
	job := obj(obj(res["structuredContent"])["job"])
	assert.Equal(t, "COMPLETED", job["status"])
	assert.NotEmpty(t, job["contacts"])
	assert.Equal(t, map[string]any{"taskId": id}, obj(res["_meta"])["io.modelcontextprotocol/related-task"])
	assert.Equal(t, "completed", obj(legacyRPC(t, a.base, aliceA, get)["result"])["status"])
	e := obj(legacyRPC(t, a.base, aliceA, `{"jsonrpc":"2.0","id":6,"method":"tasks/cancel","params":{"taskId":"`+id+`"}}`)["error"])
	assert.Contains(t, e["message"], "already completed")

	// Without params.task: the synchronous answer.
	m = legacyRPC(t, a.base, aliceA, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"request_email_discovery","arguments":{"company_id":"cmp_000003"}}}`)
	assert.NotContains(t, obj(m["result"]), "task")
	assert.Equal(t, "PENDING", obj(obj(obj(m["result"])["structuredContent"])["job"])["status"])
}

// TestEmailDiscoveryTaskOnStdio: the same flow on stdio, negotiated for the
// session at initialize, records in the process.
func TestEmailDiscoveryTaskOnStdio(t *testing.T) {
	s := newTasksStack(t)
	tok, err := s.iss.Mint("alice", time.Hour)
	require.NoError(t, err)
	r := launch(t, []string{"--endpoint", s.srv.URL(), "--allow-mutations"},
		map[string]string{"OIDC_ISSUER": s.iss.URL(), "OIDC_AUDIENCE": authn.DefaultAudience, "OIDC_TOKEN": tok})
	select {
	case <-r.logs.started():
	case err := <-r.done:
		t.Fatal(err)
	case <-time.After(10 * time.Second):
		t.Fatalf("no start-up line: %s", r.logs.String())
	}
	assert.Contains(t, r.logs.String(), "tasks=memory")
	r.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}},"clientInfo":{"name":"test","version":"1"}}}`)
	caps := obj(obj(r.read()["result"])["capabilities"])
	assert.Contains(t, obj(caps["extensions"]), "io.modelcontextprotocol/tasks")

	r.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"request_email_discovery","arguments":{"company_id":"cmp_000004"}}}`)
	created := obj(r.read()["result"])
	require.Equal(t, "task", created["resultType"], "%v", created)
	id := created["taskId"].(string)
	get := `{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"` + id + `"}}`
	r.send(get)
	assert.Equal(t, "working", obj(r.read()["result"])["status"])
	s.clk.Add(2 * time.Minute)
	r.send(get)
	got := obj(r.read()["result"])
	require.Equal(t, "completed", got["status"], "%v", got)
	assert.Equal(t, "COMPLETED", obj(obj(obj(got["result"])["structuredContent"])["job"])["status"])
	assert.Contains(t, r.logs.String(), `msg="task completed" task=`+id)
}
