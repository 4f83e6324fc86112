package bench_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/companyintel/mcp-server/app"
	"github.com/companyintel/mcp-server/appsynclocal"
	"github.com/companyintel/mcp-server/appsynclocal/authn"
	"github.com/companyintel/mcp-server/graphql/query"
)

// BenchmarkHTTPVersusForwarder measures the HTTP mode against the floor for
// any Go MCP HTTP server: a bare mcp-go stateless Streamable HTTP server
// with one tool that posts one fixed GraphQL request (GetCompany) and
// returns the answer as text, with no validation, auth, shaping, limits or
// logging. Both serve get_company from the same backend (appsync-local,
// 2,000 companies, API key, loopback) in this process, at 1, 8 and 64
// clients, under both revisions (2025-11-25: the MCP-Protocol-Version
// header; 2026-07-28: the header, Mcp-Method/Mcp-Name and params._meta).
// Each pair runs back to back (forwarder, then mcp-server), so their ratio
// is read from one run. The oauth row is the HTTP mode behind OAuth: a
// verified token and a cached token exchange per call (the embedded issuer).
//
//	go test -run '^$' -bench HTTPVersusForwarder -benchtime 3000x ./bench/
//
// Each sub-benchmark reports calls/s and p50/p99 latency in ms.
func BenchmarkHTTPVersusForwarder(b *testing.B) {
	iss, err := authn.StartIssuer("127.0.0.1:0", authn.IssuerConfig{
		Clients: []authn.Client{{ID: benchExchangeClient, Secret: benchExchangeSecret}},
	})
	if err != nil {
		b.Fatal(err)
	}
	defer iss.Close()
	srv, err := appsynclocal.Start(appsynclocal.Config{DataDir: b.TempDir(), Companies: benchCompanies, APIKey: apiKey,
		Authenticators: []appsynclocal.Authenticator{iss.Authenticator()}}, "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()

	ours := startHTTPServer(b, srv.URL())
	fwd := startForwarder(b, srv.URL())
	oauth := startOAuthServer(b, srv.URL(), iss.URL())
	tok, err := iss.Sign(authn.Claims{Subject: "bench", Audience: oauth, Scopes: []string{"companies:read"}, ClientID: "https://client.example/bench.json"})
	if err != nil {
		b.Fatal(err)
	}

	type target struct {
		name, url string
		hdr       map[string]string
	}
	for _, rev := range []string{"2025-11-25", "2026-07-28"} {
		body := callBody(rev)
		hdr := map[string]string{"MCP-Protocol-Version": rev}
		if rev == "2026-07-28" {
			hdr["Mcp-Method"], hdr["Mcp-Name"] = "tools/call", "get_company"
		}
		targets := []target{{"forwarder", fwd, hdr}, {"mcp-server", ours, hdr}}
		if rev == "2026-07-28" {
			withToken := map[string]string{"Authorization": "Bearer " + tok}
			for k, v := range hdr {
				withToken[k] = v
			}
			targets = append(targets, target{"mcp-server-oauth", oauth, withToken})
		}
		for _, clients := range []int{1, 8, 64} {
			for _, tg := range targets {
				b.Run(fmt.Sprintf("rev=%s/clients=%d/%s", rev, clients, tg.name), func(b *testing.B) {
					load(b, clients, func(c *http.Client) error { return send(c, tg.url, body, tg.hdr, `cmp_000001`) })
				})
			}
		}
	}
}

// callBody is one get_company call in the revision's form.
func callBody(rev string) []byte {
	meta := ""
	if rev == "2026-07-28" {
		meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"}},`
	}
	return []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + meta + `"name":"get_company","arguments":{"id":"cmp_000001"}}}`)
}

// load runs b.N calls of do over clients concurrent clients and reports
// throughput and latency.
func load(b *testing.B, clients int, do func(*http.Client) error) {
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients, MaxConnsPerHost: clients}}
	defer hc.CloseIdleConnections()
	for range clients { // open the connections before the clock starts
		if err := do(hc); err != nil {
			b.Fatal(err)
		}
	}
	lat := make([]time.Duration, b.N)
	var mu sync.Mutex
	i := 0
	b.ResetTimer()
	cpu0 := processCPU()
	start := time.Now()
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() {
			for {
				mu.Lock()
				n := i
				i++
				mu.Unlock()
				if n >= b.N {
					return
				}
				t0 := time.Now()
				if err := do(hc); err != nil {
					b.Error(err)
					return
				}
				lat[n] = time.Since(t0)
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	cpu := processCPU() - cpu0
	b.StopTimer()
	slices.Sort(lat)
	// CPU per call, of the whole process (backend and load generator
	// included, alike for every target): steadier than throughput on a
	// machine others load.
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-us/call")
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "calls/s")
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}

// startForwarder serves the bare forwarder on a free loopback port and
// returns its /mcp URL.
func startForwarder(b *testing.B, endpoint string) string {
	b.Helper()
	gql, _ := json.Marshal(map[string]any{
		"query": query.GetCompanyDocument, "operationName": "GetCompany", "variables": map[string]any{"id": "cmp_000001"},
	})
	upstream := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	s := server.NewMCPServer("forwarder", "1", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("get_company", mcp.WithDescription("Posts one fixed GraphQL request and returns the answer.")),
		func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(gql))
			if err != nil {
				return nil, err
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("x-api-key", apiKey)
			resp, err := upstream.Do(req)
			if err != nil {
				return mcp.NewToolResultError(err.Error()), nil
			}
			defer resp.Body.Close()
			raw, err := io.ReadAll(resp.Body)
			if err != nil || resp.StatusCode != http.StatusOK {
				return mcp.NewToolResultError(fmt.Sprintf("HTTP %d: %s %v", resp.StatusCode, raw, err)), nil
			}
			return mcp.NewToolResultText(string(raw)), nil
		})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", server.NewStreamableHTTPServer(s, server.WithStateLess(true), server.WithDisableStreaming(true)))
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	b.Cleanup(func() { _ = hs.Close() })
	return "http://" + ln.Addr().String() + "/mcp"
}

const (
	benchExchangeClient = "mcp-server"
	benchExchangeSecret = "bench-exchange-secret"
)

// startOAuthServer runs the HTTP mode behind OAuth, trusting issuer, with
// the token exchange as its way to the backend; it returns its /mcp URL,
// which is also the audience its tokens need.
func startOAuthServer(b *testing.B, endpoint, issuer string) string {
	b.Helper()
	env := map[string]string{
		"MCP_EXCHANGE_CLIENT_ID":     benchExchangeClient,
		"MCP_EXCHANGE_CLIENT_SECRET": benchExchangeSecret,
		"MCP_EXCHANGE_AUDIENCE":      authn.DefaultAudience,
	}
	cfg, err := app.ParseConfig([]string{"--endpoint", endpoint, "--http", "127.0.0.1:0", "--oauth-issuer", issuer}, func(k string) string { return env[k] }, io.Discard)
	if err != nil {
		b.Fatal(err)
	}
	return runHTTP(b, cfg, env)
}
