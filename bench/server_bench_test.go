// Package bench holds the benchmarks of the MCP server. The side-by-side
// figures (our server, the direct GraphQL call, mcp-graphql) come from the
// driver in cmd/mcpbench; the benchmarks here isolate the server's own cost
// per call so that it can be profiled:
//
//	go test -run '^$' -bench . -benchmem -cpuprofile /tmp/cpu.out -o /tmp/bench.test ./bench/
//	go tool pprof -top -cum /tmp/cpu.out
//
// They are run on purpose, never by CI: go test ./... compiles them and runs
// no benchmark.
package bench_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/companyintel/mcp-server/app"
	"github.com/companyintel/mcp-server/appsynclocal"
	"github.com/companyintel/mcp-server/graphql/query"
)

// benchCompanies is the size of the data set the recorded answer comes
// from: small enough to build in a moment, large enough that the search
// fills a page of 20.
const benchCompanies = 2000

const apiKey = "bench-key"

// recordedBackend asks a real appsync-local, once, the questions a
// search_companies call makes (the search, and the filter vocabulary its
// country and categories are checked against, which the server then
// caches), and serves their answers again by operation name. The profile
// then holds the MCP server's work and not SQLite's.
func recordedBackend(b *testing.B) *httptest.Server {
	b.Helper()
	srv, err := appsynclocal.Start(appsynclocal.Config{DataDir: b.TempDir(), Companies: benchCompanies, APIKey: apiKey}, "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	record := func(op, document string, vars map[string]any, want string) []byte {
		body, _ := json.Marshal(map[string]any{"query": document, "operationName": op, "variables": vars})
		req, _ := http.NewRequest(http.MethodPost, srv.URL(), bytes.NewReader(body))
		req.Header.Set("x-api-key", apiKey)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		defer resp.Body.Close()
		raw, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK || !bytes.Contains(raw, []byte(want)) {
			b.Fatalf("recording the answer to %s: HTTP %d, %v: %.300s", op, resp.StatusCode, err, raw)
		}
		return raw
	}
	answers := map[string][]byte{
		"SearchCompanies": record("SearchCompanies", query.SearchCompaniesDocument,
			map[string]any{"keyword": "software", "filters": []string{"countries;United States"}, "limit": 20, "nextToken": nil}, `"items":[{`),
		"FilterVocabulary": record("FilterVocabulary", query.FilterVocabularyDocument, nil, `"United States"`),
	}
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			OperationName string `json:"operationName"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || answers[req.OperationName] == nil {
			http.Error(w, "the benchmark backend has no answer to this operation", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(answers[req.OperationName])
	}))
	b.Cleanup(backend.Close)
	return backend
}

// stdioServer runs app.Run, the server's whole stdio path (framing, the
// drain, mcp-go, the tool pipeline, the audit log, the GraphQL client over
// loopback HTTP), in this process, and talks raw JSON-RPC lines to it.
type stdioServer struct {
	in  *io.PipeWriter
	out *bufio.Reader
}

func startServer(b *testing.B, endpoint string) *stdioServer {
	b.Helper()
	s, stop := runServer(b, endpoint)
	b.Cleanup(stop)
	return s
}

// runServer starts app.Run as startServer does, through initialize, and
// returns how to stop it: close its input and wait for Run to return.
func runServer(b *testing.B, endpoint string) (*stdioServer, func()) {
	b.Helper()
	return runServerEnv(b, endpoint, nil)
}

// runServerEnv is runServer with env added to the server's environment.
func runServerEnv(b *testing.B, endpoint string, env map[string]string) (*stdioServer, func()) {
	b.Helper()
	getenv := func(k string) string {
		if k == "APPSYNC_API_KEY" {
			return apiKey
		}
		return env[k]
	}
	cfg, err := app.ParseConfig([]string{"--endpoint", endpoint}, getenv, io.Discard)
	if err != nil {
		b.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		// Logs are formatted as in production and then dropped: writing
		// them to a pipe is the client's cost, not the server's.
		done <- app.Run(ctx, cfg, app.Stdio{In: inR, Out: outW, Err: io.Discard}, getenv)
		outW.Close()
	}()
	stop := func() {
		inW.Close()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cancel()
			<-done
		}
		cancel()
	}
	s := &stdioServer{in: inW, out: bufio.NewReaderSize(outR, 1<<16)}
	s.roundTrip(b, 0, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`)
	if _, err := io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"); err != nil {
		stop()
		b.Fatal(err)
	}
	return s, stop
}

// roundTrip writes one request line and reads the answer line, checking its
// id and that it is no error. The answer is not decoded: decoding is the
// client's cost.
func (s *stdioServer) roundTrip(b *testing.B, id int, line string) []byte {
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		b.Fatal(err)
	}
	ans, err := s.out.ReadBytes('\n')
	if err != nil {
		b.Fatal(err)
	}
	if !bytes.HasPrefix(ans, fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"result":`, id)) || bytes.Contains(ans, []byte(`"isError":true`)) {
		b.Fatalf("unexpected answer to request %d: %.500s", id, ans)
	}
	return ans
}

// BenchmarkStdioSearchCompanies is one search_companies call through the
// server's stdio path against a backend that replays a recorded answer
// (10 KB, 20 companies), one call at a time. ns/op is the latency the
// server adds on top of a backend that answers instantly, B/op and
// allocs/op are the server's (the client side reads raw lines).
func BenchmarkStdioSearchCompanies(b *testing.B) {
	backend := recordedBackend(b)
	s := startServer(b, backend.URL+"/graphql")
	call := func(id int) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"search_companies","arguments":{"query":"software","country":"US","limit":20}}}`, id)
	}
	for i := 1; i <= 50; i++ { // warm the connection and lazy state
		if ans := s.roundTrip(b, i, call(i)); !bytes.Contains(ans, []byte(`"companies":[{`)) {
			b.Fatalf("the search found nothing; the benchmark needs a page of results: %.500s", ans)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu := startCPU()
	id := 1000
	for b.Loop() {
		id++
		s.roundTrip(b, id, call(id))
	}
	cpu.report(b)
}

// cpuClock is the process's CPU time (user and system, every thread) when a
// measurement began. On a shared machine the wall time per call swings with
// other load; the CPU time the calls cost swings much less, so A/B
// comparisons read cpu-ns/op.
type cpuClock time.Duration

func startCPU() cpuClock { return cpuClock(processCPU()) }

// report adds cpu-ns/op: the CPU time since start over b.N. It counts this
// whole process: the server, the test client and the stub backend.
func (c cpuClock) report(b *testing.B) {
	b.ReportMetric(float64(processCPU()-time.Duration(c))/float64(b.N), "cpu-ns/op")
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkClientDecodeSearchResult is what mcp-go's stdio client does
// with one search_companies answer of our server (21 KB: the result as
// structuredContent and again as text): the line is decoded as a JSON-RPC
// message, then as a response, then as a CallToolResult. It is the client's
// share of the latency the MCP path adds, which the driver's figures
// include, as every MCP client pays it.
func BenchmarkClientDecodeSearchResult(b *testing.B) {
	backend := recordedBackend(b)
	s := startServer(b, backend.URL+"/graphql")
	line := s.roundTrip(b, 1, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_companies","arguments":{"query":"software","country":"US","limit":20}}}`)
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		var base struct {
			JSONRPC string         `json:"jsonrpc"`
			ID      *mcp.RequestId `json:"id,omitempty"`
			Method  string         `json:"method,omitempty"`
		}
		if err := json.Unmarshal(line, &base); err != nil {
			b.Fatal(err)
		}
		var resp transport.JSONRPCResponse
		if err := json.Unmarshal(line, &resp); err != nil {
			b.Fatal(err)
		}
		res, err := mcp.ParseCallToolResult(&resp.Result)
		if err != nil || res.IsError || res.StructuredContent == nil {
			b.Fatalf("decoding the answer: %v", err)
		}
	}
}

// BenchmarkStdioToolsList is tools/list through the same path: the
// catalogue a client reads once per session.
func BenchmarkStdioToolsList(b *testing.B) {
	s := startServer(b, "http://127.0.0.1:1/graphql") // never called
	b.ReportAllocs()
	id := 1000
	for b.Loop() {
		id++
		s.roundTrip(b, id, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`, id))
	}
}

// BenchmarkStdioStart is the server's own share of a cold start: app.Run
// from parsed flags to the answer to the first tools/list (credential
// chain, catalogue, initialize), against a backend that is never called.
// Package initialisation and the process start are not in it (the driver's
// start rows measure those, beside the floor); B/op is what decides whether
// the first garbage collection falls before that answer.
func BenchmarkStdioStart(b *testing.B) {
	// The AWS SDK reads the process environment and ~/.aws itself. The
	// driver starts the server with only PATH, HOME and TMPDIR set, so the
	// credential chain's SigV4 link finds nothing and probes the instance
	// metadata service; so does this benchmark (an AWS_CA_BUNDLE, for one,
	// would add the parsing of every certificate in it).
	for _, k := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_REGION", "AWS_CA_BUNDLE"} {
		b.Setenv(k, "")
	}
	b.Setenv("AWS_CONFIG_FILE", b.TempDir()+"/config")
	b.Setenv("AWS_SHARED_CREDENTIALS_FILE", b.TempDir()+"/credentials")
	b.ReportAllocs()
	cpu := startCPU()
	for b.Loop() {
		s, stop := runServer(b, "http://127.0.0.1:1/graphql")
		s.roundTrip(b, 1, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
		stop()
	}
	cpu.report(b)
}

// BenchmarkCatalogueHash is computing the catalogue hash: every tool built
// and its definition canonicalised. --version, check and catalog --hash
// compute it; the start-up line shows the recorded one
// (app/catalogue_hash.go), which is what this costs per start otherwise.
func BenchmarkCatalogueHash(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := app.CatalogueHash(); err != nil {
			b.Fatal(err)
		}
	}
}
