package tasks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/internal/edge"
	"github.com/companyintel/mcp-server/ratelimit"
	"github.com/companyintel/mcp-server/ratelimit/redistest"
	"github.com/companyintel/mcp-server/tools"
)

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }
func as(id string) context.Context {
	return tools.WithCaller(context.Background(), tools.Caller{ID: id})
}
func started(id string) json.RawMessage {
	return json.RawMessage(`{"content":[],"structuredContent":{"job":"` + id + `"}}`)
}
func decode(b json.RawMessage) (m map[string]any) { _ = json.Unmarshal(b, &m); return m }

// job is a backend job the test settles: nil outcome while it runs.
type job struct {
	mu      sync.Mutex
	outcome *mcp.CallToolResult
	polls   int
}

func (j *job) follower() *tools.Follower {
	return &tools.Follower{
		TTL: time.Hour, PollInterval: 2 * time.Second,
		Start: func(structured json.RawMessage) (json.RawMessage, string, bool, bool) {
			var s struct{ Job string }
			_ = json.Unmarshal(structured, &s)
			return json.RawMessage(`{"id":"` + s.Job + `"}`), s.Job, false, s.Job != ""
		},
		Poll: func(context.Context, json.RawMessage, map[string]json.RawMessage) (*mcp.CallToolResult, bool, string) {
			j.mu.Lock()
			defer j.mu.Unlock()
			j.polls++
			if j.outcome == nil {
				return nil, false, "job is PENDING"
			}
			return j.outcome, true, ""
		},
	}
}

// stores are the two stores, each on its own clock.
func stores(t *testing.T) map[string]func(clk *clock) Store {
	url := redistest.Start(t).URL()
	return map[string]func(clk *clock) Store{
		"memory": func(clk *clock) Store { return NewMemory(clk.Now) },
		"redis": func(clk *clock) Store {
			opts, err := ratelimit.ParseRedisURL(url)
			require.NoError(t, err)
			r := NewRedis(opts, clk.Now)
			t.Cleanup(func() { _ = r.Close() })
			return r
		},
	}
}

func TestTaskLifecycleOnEachStore(t *testing.T) {
	for name, open := range stores(t) {
		t.Run(name, func(t *testing.T) {
			clk := &clock{t: time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)}
			store := open(clk)
			j := &job{}
			var logs bytes.Buffer
			var events []string
			e := New(store, Options{Followers: map[string]*tools.Follower{"slow": j.follower()}, Now: clk.Now,
				Logger: slog.New(slog.NewTextHandler(&logs, nil)), Observe: func(tool, ev string) { events = append(events, tool+" "+ev) }})

			_, ok := e.Create(as("alice"), "slow", json.RawMessage(`{"content":[],"isError":true}`))
			assert.False(t, ok, "an error answer stays synchronous")
			_, ok = e.Create(as("alice"), "other", started("j0"))
			assert.False(t, ok, "a tool that is not followed stays synchronous")

			created, ok := e.Create(as("alice"), "slow", started("j1"))
			require.True(t, ok)
			c := decode(created)
			id := c["taskId"].(string)
			assert.Equal(t, map[string]any{"resultType": "task", "taskId": id, "status": "working", "statusMessage": "following job j1",
				"createdAt": "2026-12-03T10:00:00Z", "lastUpdatedAt": "2026-12-03T10:00:00Z", "ttlMs": float64(3600000), "pollIntervalMs": float64(2000)}, c)

			get := func(who string) (map[string]any, *edge.Error) {
				b, err := e.Serve(as(who), "tasks/get", json.RawMessage(`{"taskId":"`+id+`"}`))
				return decode(b), err
			}
			got, err := get("alice")
			require.Nil(t, err)
			assert.Equal(t, "working", got["status"])
			assert.Equal(t, "job is PENDING", got["statusMessage"])

			_, bobErr := get("bob")
			_, unknownErr := e.Serve(as("bob"), "tasks/get", json.RawMessage(`{"taskId":"task_nope"}`))
			require.NotNil(t, bobErr)
			assert.Equal(t, edge.CodeInvalidParams, bobErr.Code)
			assert.Equal(t, unknownErr.Message, replaceID(bobErr.Message, id, "task_nope"), "another caller's task reads as an unknown id")
			polls := j.polls

			j.mu.Lock()
			j.outcome = mcp.NewToolResultText("found 2")
			j.mu.Unlock()
			clk.Add(time.Minute)
			got, err = get("alice")
			require.Nil(t, err)
			assert.Equal(t, "completed", got["status"])
			assert.Equal(t, "found 2", got["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"])
			assert.Equal(t, "2026-12-03T10:01:00Z", got["lastUpdatedAt"])
			assert.Equal(t, polls+1, j.polls, "bob's asking did not reach the backend")
			got2, _ := get("alice")
			assert.Equal(t, got, got2)
			assert.Equal(t, polls+1, j.polls, "a settled task is answered from its record")

			b, err := e.Serve(as("alice"), "tasks/cancel", json.RawMessage(`{"taskId":"`+id+`"}`))
			require.Nil(t, err)
			assert.JSONEq(t, `{"resultType":"complete"}`, string(b))
			got, _ = get("alice")
			assert.Equal(t, "completed", got["status"], "cancelling a settled task changes nothing")

			// Cancelled while working, then the job settles: still cancelled.
			j.mu.Lock()
			j.outcome = nil
			j.mu.Unlock()
			created, _ = e.Create(as("alice"), "slow", started("j2"))
			id2 := decode(created)["taskId"].(string)
			_, err = e.Serve(as("alice"), "tasks/cancel", json.RawMessage(`{"taskId":"`+id2+`"}`))
			require.Nil(t, err)
			b, _ = e.Serve(as("alice"), "tasks/get", json.RawMessage(`{"taskId":"`+id2+`"}`))
			assert.Equal(t, "cancelled", decode(b)["status"])

			// Past its TTL: expired, recorded once, then unknown to all.
			clk.Add(time.Hour)
			_, err = get("alice")
			require.NotNil(t, err)
			assert.Contains(t, err.Message, "has expired")
			_, _ = get("alice")
			_, err = get("bob")
			assert.Equal(t, replaceID(unknownErr.Message, "task_nope", id), err.Message, "to another caller an expired task is unknown too")
			clk.Add(keepAfterExpiry + time.Second)
			if name == "memory" { // Redis's own expiry runs on its clock
				_, err = get("alice")
				assert.Equal(t, replaceID(unknownErr.Message, "task_nope", id), err.Message)
			}
			assert.Equal(t, []string{"slow created", "slow completed", "slow created", "slow cancelled", "slow expired"}, events)
			assert.Contains(t, logs.String(), `msg="task expired" task=`+id)
		})
	}
}

func replaceID(s, from, to string) string {
	return string(bytes.ReplaceAll([]byte(s), []byte(from), []byte(to)))
}

func TestTaskOfAToolNoLongerFollowedFails(t *testing.T) {
	clk := &clock{t: time.Now()}
	store := NewMemory(clk.Now)
	j := &job{}
	a := New(store, Options{Followers: map[string]*tools.Follower{"slow": j.follower()}, Now: clk.Now})
	created, ok := a.Create(as("alice"), "slow", started("j1"))
	require.True(t, ok)
	id := decode(created)["taskId"].(string)
	b := New(store, Options{Now: clk.Now}) // a replica that does not follow "slow"
	out, err := b.Serve(as("alice"), "tasks/get", json.RawMessage(`{"taskId":"`+id+`"}`))
	require.Nil(t, err)
	got := decode(out)
	assert.Equal(t, "failed", got["status"])
	assert.Equal(t, float64(edge.CodeInternalError), got["error"].(map[string]any)["code"])
	assert.NotContains(t, got, "result")
}

// TestTaskWaitsForTheInputItAsksFor: a job that needs input is
// input_required with the requests still outstanding; tasks/update keeps
// only answers to those (others are ignored); it works again once all are
// in, and another caller's update is refused like an unknown id.
func TestTaskWaitsForTheInputItAsksFor(t *testing.T) {
	clk := &clock{t: time.Now()}
	asks := map[string]json.RawMessage{"a": json.RawMessage(`{"method":"elicitation/create","params":{"message":"A?"}}`),
		"b": json.RawMessage(`{"method":"elicitation/create","params":{"message":"B?"}}`)}
	j := &job{outcome: mcp.NewToolResultText("done")}
	f := j.follower()
	f.Ask = func(_ json.RawMessage, responses map[string]json.RawMessage) map[string]json.RawMessage {
		out := map[string]json.RawMessage{}
		for k, v := range asks {
			if _, ok := responses[k]; !ok {
				out[k] = v
			}
		}
		return out
	}
	e := New(NewMemory(clk.Now), Options{Followers: map[string]*tools.Follower{"ask": f}, Now: clk.Now})
	created, ok := e.Create(as("alice"), "ask", started("j1"))
	require.True(t, ok)
	id := decode(created)["taskId"].(string)
	get := func() map[string]any {
		b, err := e.Serve(as("alice"), "tasks/get", json.RawMessage(`{"taskId":"`+id+`"}`))
		require.Nil(t, err)
		return decode(b)
	}
	update := func(who, responses string) *edge.Error {
		b, err := e.Serve(as(who), "tasks/update", json.RawMessage(`{"taskId":"`+id+`","inputResponses":`+responses+`}`))
		if err == nil {
			assert.JSONEq(t, `{"resultType":"complete"}`, string(b))
		}
		return err
	}
	got := get()
	assert.Equal(t, "input_required", got["status"])
	assert.Len(t, got["inputRequests"], 2)
	assert.Zero(t, j.polls, "the job is not asked after while it waits for input")

	require.Nil(t, update("alice", `{"a":{"action":"accept"},"never-asked":{"action":"accept"}}`))
	require.NotNil(t, update("bob", `{"b":{"action":"accept"}}`), "bob cannot answer for alice's task")
	got = get()
	assert.Equal(t, "input_required", got["status"])
	assert.Equal(t, []string{"b"}, keys(got["inputRequests"]))

	require.Nil(t, update("alice", `{"b":{"action":"decline"}}`))
	got = get()
	assert.Equal(t, "completed", got["status"])
	assert.NotContains(t, got, "inputRequests")
	_, err := e.Serve(as("alice"), "tasks/update", json.RawMessage(`{"taskId":"`+id+`"}`))
	assert.Equal(t, edge.CodeInvalidParams, err.Code, "inputResponses is required")
}

func keys(v any) []string {
	var out []string
	for k := range v.(map[string]any) {
		out = append(out, k)
	}
	return out
}

// TestLegacyResultWaitsForTheJob: 2025-11-25's tasks/result asks after the
// job at the task's interval (an injected timer: no sleeping) until it
// settles, then answers the tool's answer with the related-task _meta.
func TestLegacyResultWaitsForTheJob(t *testing.T) {
	clk := &clock{t: time.Now()}
	j := &job{}
	ticks := make(chan time.Time)
	var waited []time.Duration
	e := New(NewMemory(clk.Now), Options{Followers: map[string]*tools.Follower{"slow": j.follower()}, Now: clk.Now,
		After: func(d time.Duration) <-chan time.Time { waited = append(waited, d); return ticks }})
	created, ok := e.CreateLegacy(as("alice"), "slow", started("j1"))
	require.True(t, ok)
	task := decode(created)["task"].(map[string]any)
	id := task["taskId"].(string)
	assert.Equal(t, float64(3600000), task["ttl"])

	done := make(chan json.RawMessage)
	go func() {
		b, err := e.ServeLegacy(as("alice"), "tasks/result", json.RawMessage(`{"taskId":"`+id+`"}`))
		assert.Nil(t, err)
		done <- b
	}()
	ticks <- time.Now() // one more poll, still running
	j.mu.Lock()
	j.outcome = mcp.NewToolResultText("found 1")
	j.mu.Unlock()
	ticks <- time.Now()
	got := decode(<-done)
	assert.Equal(t, map[string]any{"taskId": id}, got["_meta"].(map[string]any)[mcp.RelatedTaskMetaKey])
	assert.Equal(t, []time.Duration{2 * time.Second, 2 * time.Second}, waited)

	_, err := e.ServeLegacy(as("alice"), "tasks/cancel", json.RawMessage(`{"taskId":"`+id+`"}`))
	require.NotNil(t, err)
	assert.Contains(t, err.Message, "already completed")
	b, err := e.ServeLegacy(as("alice"), "tasks/get", json.RawMessage(`{"taskId":"`+id+`"}`))
	require.Nil(t, err)
	assert.Equal(t, "completed", decode(b)["status"])
	assert.NotContains(t, decode(b), "result", "2025-11-25's tasks/get does not inline the result")
}

// brokenStore fails every write, as a Redis that does not answer does.
type brokenStore struct{ *Memory }

func (b *brokenStore) Create(context.Context, Record) error {
	return errors.New("dial tcp: connection refused")
}

// TestTaskNotStoredIsAnsweredSynchronously: the job was started, so a
// record that cannot be stored leaves the caller the synchronous answer
// (and a warning in the log), never a task id nobody can read.
func TestTaskNotStoredIsAnsweredSynchronously(t *testing.T) {
	var logs bytes.Buffer
	j := &job{}
	e := New(&brokenStore{NewMemory(nil)}, Options{Followers: map[string]*tools.Follower{"slow": j.follower()},
		Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	_, ok := e.Create(as("alice"), "slow", started("j1"))
	assert.False(t, ok)
	assert.Contains(t, logs.String(), `msg="task not created: its record could not be stored; answered synchronously" tool=slow caller=alice job=j1 store=memory error="dial tcp: connection refused"`)
}
