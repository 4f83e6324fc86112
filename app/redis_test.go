package app

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/graphql"
	"github.com/companyintel/mcp-server/graphql/mutation"
	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/internal/config"
	"github.com/companyintel/mcp-server/ratelimit"
	"github.com/companyintel/mcp-server/ratelimit/redistest"
	"github.com/companyintel/mcp-server/tools"
)

func TestRedisURLIsCheckedAtStartUp(t *testing.T) {
	parse := func(env map[string]string, args ...string) (config.Config, error) {
		return ParseConfig(append([]string{"--embedded"}, args...), func(k string) string { return env[k] }, io.Discard)
	}

	cfg, err := parse(nil)
	require.NoError(t, err)
	assert.Empty(t, cfg.RedisURL, "without the flag the buckets stay in the process")
	assert.Equal(t, 50*time.Millisecond, cfg.RedisTimeout)

	cfg, err = parse(map[string]string{"REDIS_URL": "redis://127.0.0.1:6379/1"})
	require.NoError(t, err)
	assert.Equal(t, "redis://127.0.0.1:6379/1", cfg.RedisURL)
	cfg, err = parse(map[string]string{"REDIS_URL": "redis://127.0.0.1:6379/1"}, "--redis-url", "redis://127.0.0.1:6380")
	require.NoError(t, err)
	assert.Equal(t, "redis://127.0.0.1:6380", cfg.RedisURL, "the flag wins over the environment")

	for _, tt := range []struct{ url, want string }{
		{"http://127.0.0.1:6379", "--redis-url: not a usable Redis URL (want redis://[user:password@]host:port[/db], rediss://… or unix:///path): invalid URL scheme: http"},
		{"redis://:hunter2@127.0.0.1:port", "--redis-url: not a usable Redis URL"},
		{"redis://:hunter2@cache.example:6379", "--redis-url: the Redis URL sends a password in the clear to cache.example:6379; use rediss:// (TLS) for a Redis that is not on loopback"},
	} {
		_, err := parse(nil, "--redis-url", tt.url)
		require.Error(t, err, tt.url)
		assert.Contains(t, err.Error(), tt.want)
		assert.NotContains(t, err.Error(), "hunter2", "the password is never repeated")
	}
	_, err = parse(nil, "--redis-url", "redis://127.0.0.1:6379", "--redis-timeout", "0s")
	assert.EqualError(t, err, "--redis-timeout 0s is out of range; give a duration above 0 and at most 1m, e.g. --redis-timeout 50ms")
}

// replica is one MCP server of a deployment: its own limiter and
// connections, the shared Redis and backend.
func replica(t *testing.T, redisURL string) *session {
	t.Helper()
	opts, err := ratelimit.ParseRedisURL(redisURL)
	require.NoError(t, err)
	// A generous deadline: this test counts decisions on a machine that may
	// be busy; ratelimit's tests hold the default deadline to failing fast.
	lim := ratelimit.NewRedis(opts, defaultLimits(), ratelimit.WithTimeout(5*time.Second), ratelimit.WithLogger(discardLogger()))
	t.Cleanup(func() { _ = lim.Close() })
	client := graphql.NewClient(backend(t).URL(), &http.Client{Transport: headers{map[string]string{"x-test-user": "alice"}, http.DefaultTransport}}, 0)
	s, _ := NewMCPServer(Parts{
		Reader:  query.NewReader(client),
		Writer:  mutation.NewWriter(client),
		Limiter: lim,
		Runtime: tools.Runtime{Logger: discardLogger()},
		Version: "test",
	})
	return &session{t: t, s: s}
}

// callAs runs a tool on s as caller and returns the error code, or "" on
// success. It is safe in a goroutine: it reports problems as codes.
func (s *session) callAs(caller, tool, args string) string {
	msg := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":%s,"name":%q,"arguments":%s}}`, modernMeta, tool, args)
	resp := s.s.HandleMessage(tools.WithCaller(context.Background(), tools.Caller{ID: caller, AuthMethod: "oidc"}), json.RawMessage(msg))
	b, _ := json.Marshal(resp)
	var out struct {
		Result struct {
			IsError bool `json:"isError"`
			Meta    struct {
				Error struct {
					Code        string `json:"code"`
					RetryAfterS int    `json:"retry_after_s"`
				} `json:"io.companyintel/error"`
			} `json:"_meta"`
		} `json:"result"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		return "unreadable answer: " + string(b)
	}
	if !out.Result.IsError {
		return ""
	}
	return out.Result.Meta.Error.Code
}

func TestReplicasShareOneRateLimitThroughRedis(t *testing.T) {
	redis := redistest.Start(t)
	replicas := []*session{replica(t, redis.URL()), replica(t, redis.URL()), replica(t, redis.URL())}
	const aiSearch = `{"query":"software companies in Germany","limit":3}`

	// burst makes n concurrent calls by caller, spread over the replicas,
	// and counts the answers by error code ("" for success).
	burst := func(caller, tool, args string, n int) map[string]int {
		var mu sync.Mutex
		var wg sync.WaitGroup
		codes := map[string]int{}
		start := make(chan struct{})
		for i := range n {
			wg.Go(func() {
				<-start
				code := replicas[i%len(replicas)].callAs(caller, tool, args)
				mu.Lock()
				codes[code]++
				mu.Unlock()
			})
		}
		close(start)
		wg.Wait()
		return codes
	}

	t.Run("one user's 50 concurrent ai_search calls: exactly five pass", func(t *testing.T) {
		assert.Equal(t, map[string]int{"": 5, "rate_limited": 45}, burst("alice", "ai_search", aiSearch, 50))
	})
	t.Run("a second user has a bucket of their own", func(t *testing.T) {
		assert.Equal(t, map[string]int{"": 5, "rate_limited": 45}, burst("bob", "ai_search", aiSearch, 50))
	})
	t.Run("Redis killed: ai_search refused as limit_store_unavailable, reads served", func(t *testing.T) {
		redis.Kill()
		assert.Equal(t, map[string]int{"limit_store_unavailable": 30}, burst("carol", "ai_search", aiSearch, 30))
		assert.Equal(t, map[string]int{"": 30}, burst("carol", "search_companies", `{"query":"software","limit":2}`, 30))
	})
	t.Run("Redis back: the limit holds again", func(t *testing.T) {
		redis.Restart()
		// go-redis redials in the background after a run of failed dials.
		require.Eventually(t, func() bool {
			for _, r := range replicas {
				if r.callAs("probe", "ai_search", aiSearch) != "" {
					return false
				}
			}
			return true
		}, 20*time.Second, 20*time.Millisecond)
		assert.Equal(t, map[string]int{"": 5, "rate_limited": 45}, burst("dave", "ai_search", aiSearch, 50))
	})
}

func TestHTTPReadinessReportsTheLimitStore(t *testing.T) {
	s := newAuthStack(t)
	redis := redistest.Start(t)
	readyz := func(srv *httpServer) (int, string) {
		// The first checks run at start; wait for their results, not a time.
		var code int
		var body string
		require.Eventually(t, func() bool {
			resp, err := http.Get(srv.base + "/readyz")
			require.NoError(t, err)
			defer resp.Body.Close()
			code, body = resp.StatusCode, readBody(t, resp)
			return !strings.Contains(body, "pending")
		}, 10*time.Second, 10*time.Millisecond)
		return code, body
	}

	srv, err := startHTTP(t, serviceEnv(t, s, "dora"), "--endpoint", s.srv.URL(), "--redis-url", redis.URL(), "--redis-timeout", "5s")
	require.NoError(t, err)
	code, body := readyz(srv)
	assert.Equal(t, http.StatusOK, code)
	assert.JSONEq(t, `{"status":"ready","checks":{"backend":"ok","rate_limit_store":"ok"}}`, body)

	redis.Kill()
	srv, err = startHTTP(t, serviceEnv(t, s, "dora"), "--endpoint", s.srv.URL(), "--redis-url", redis.URL())
	require.NoError(t, err, "Redis down at start-up is an outage to ride out, not a reason not to start")
	code, body = readyz(srv)
	assert.Equal(t, http.StatusOK, code, "every replica shares the Redis: taking them all out of rotation would stop the tools that still work")
	assert.JSONEq(t, `{"status":"degraded","checks":{"backend":"ok","rate_limit_store":"failing"}}`, body)
	assert.Contains(t, srv.logs.String(), "rate-limit store unavailable: limited tools are refused until it answers")
}
