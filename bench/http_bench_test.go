package bench_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/companyintel/mcp-server/app"
	"github.com/companyintel/mcp-server/appsynclocal"
	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/internal/config"
)

// BenchmarkHTTPGetCompany measures the HTTP mode (local single-user mode,
// app.Run in this process) serving get_company at 1, 8 and 64 concurrent
// clients, beside the same GraphQL request sent straight to the same
// backend (appsync-local over loopback, API key). Each sub-benchmark
// reports calls/s and p50/p99 latency; the 64-client runs also report the
// process's heap in use after the run (server, backend and load generator
// share the process, so it bounds the server's share from above).
//
//	go test -run '^$' -bench HTTPGetCompany -benchtime 2000x ./bench/
func BenchmarkHTTPGetCompany(b *testing.B) {
	srv, err := appsynclocal.Start(appsynclocal.Config{DataDir: b.TempDir(), Companies: benchCompanies, APIKey: apiKey}, "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	mcpURL := startHTTPServer(b, srv.URL())

	direct, _ := json.Marshal(map[string]any{
		"query": query.GetCompanyDocument, "operationName": "GetCompany", "variables": map[string]any{"id": "cmp_000001"},
	})
	viaMCP := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"}},"name":"get_company","arguments":{"id":"cmp_000001"}}}`)
	targets := []struct {
		name string
		do   func(*http.Client) error
	}{
		{"direct-graphql", func(c *http.Client) error {
			return send(c, srv.URL(), direct, map[string]string{"x-api-key": apiKey}, `"getCompany":{"id"`)
		}},
		{"mcp-http", func(c *http.Client) error {
			return send(c, mcpURL, viaMCP, map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "get_company"}, `"structuredContent"`)
		}},
	}
	for _, clients := range []int{1, 8, 64} {
		for _, tg := range targets {
			b.Run(fmt.Sprintf("%s/clients=%d", tg.name, clients), func(b *testing.B) {
				hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients, MaxConnsPerHost: clients}}
				lat := make([]time.Duration, b.N)
				var next sync.Mutex
				i := 0
				b.ResetTimer()
				start := time.Now()
				var wg sync.WaitGroup
				for range clients {
					wg.Go(func() {
						for {
							next.Lock()
							n := i
							i++
							next.Unlock()
							if n >= b.N {
								return
							}
							t0 := time.Now()
							if err := tg.do(hc); err != nil {
								b.Error(err)
								return
							}
							lat[n] = time.Since(t0)
						}
					})
				}
				wg.Wait()
				elapsed := time.Since(start)
				b.StopTimer()
				slices.Sort(lat)
				b.ReportMetric(float64(b.N)/elapsed.Seconds(), "calls/s")
				b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
				b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
				if clients == 64 {
					var ms runtime.MemStats
					runtime.ReadMemStats(&ms)
					b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MiB")
				}
			})
		}
	}
}

// send posts body and checks that the answer is a 200 holding want.
func send(c *http.Client, url string, body []byte, hdr map[string]string, want string) error {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK || !bytes.Contains(raw, []byte(want)) {
		return fmt.Errorf("HTTP %d: %.200s", resp.StatusCode, raw)
	}
	return nil
}

var benchAddr = regexp.MustCompile(`starting mcp-server.* addr=(\S+)`)

// startHTTPServer runs app.Run with --http on a free loopback port in local
// mode against endpoint, and returns its /mcp URL.
func startHTTPServer(b *testing.B, endpoint string) string {
	b.Helper()
	env := map[string]string{"APPSYNC_API_KEY": apiKey}
	cfg, err := app.ParseConfig([]string{"--endpoint", endpoint, "--http", "127.0.0.1:0", "--auth", "apikey"}, func(k string) string { return env[k] }, io.Discard)
	if err != nil {
		b.Fatal(err)
	}
	return runHTTP(b, cfg, env)
}

// runHTTP runs app.Run with cfg until the benchmark ends, and returns the
// /mcp URL of the start-up line.
func runHTTP(b *testing.B, cfg config.Config, env map[string]string) string {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	logs := &lockedBuffer{}
	done := make(chan struct{})
	go func() {
		_ = app.Run(ctx, cfg, app.Stdio{Err: logs}, func(k string) string { return env[k] })
		close(done)
	}()
	b.Cleanup(func() { cancel(); <-done })
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if m := benchAddr.FindStringSubmatch(logs.String()); m != nil {
			logs.discard()
			return "http://" + m[1] + "/mcp"
		}
		time.Sleep(5 * time.Millisecond)
	}
	b.Fatalf("no start-up line: %s", logs.String())
	return ""
}

// lockedBuffer keeps the log until the start-up line is read, then drops
// every later line (the audit records) so that memory measures the server.
type lockedBuffer struct {
	mu      sync.Mutex
	b       strings.Builder
	dropped bool
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.dropped {
		l.b.Write(p)
	}
	return len(p), nil
}

func (l *lockedBuffer) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.b.String() }
func (l *lockedBuffer) discard()       { l.mu.Lock(); l.dropped = true; l.b.Reset(); l.mu.Unlock() }
