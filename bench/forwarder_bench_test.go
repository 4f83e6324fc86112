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
// The oauth target is the HTTP mode behind OAuth: a verified token and a
// cached token exchange per call (the embedded issuer).
//
//	go test -run '^$' -bench HTTPVersusForwarder -benchtime 3000x ./bench/
//
// Each sub-benchmark is one cell (revision, clients) and makes b.N calls
// to every target, in pairedRounds rounds in which the targets take turns,
// the first to go alternating. Why: the backend, the GC and the machine
// drift over a cell's seconds, and a target measured only after another
// inherits that drift; taking turns spreads it over both. Per target it
// reports calls/s, p50 and p99 over all its calls, and CPU per call of the
// whole process; "x-calls/s" is the median over the rounds of mcp-server's
// throughput over the forwarder's in the same round, and "x-p99" the ratio
// of the two p99s.
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

	for _, rev := range []string{"2025-11-25", "2026-07-28"} {
		body := callBody(rev)
		hdr := map[string]string{"MCP-Protocol-Version": rev}
		if rev == "2026-07-28" {
			hdr["Mcp-Method"], hdr["Mcp-Name"] = "tools/call", "get_company"
		}
		targets := []target{{name: "fwd", url: fwd, hdr: hdr}, {name: "ours", url: ours, hdr: hdr}}
		if rev == "2026-07-28" {
			withToken := map[string]string{"Authorization": "Bearer " + tok}
			for k, v := range hdr {
				withToken[k] = v
			}
			targets = append(targets, target{name: "oauth", url: oauth, hdr: withToken})
		}
		for _, clients := range []int{1, 8, 64} {
			b.Run(fmt.Sprintf("rev=%s/clients=%d", rev, clients), func(b *testing.B) {
				pairedLoad(b, clients, targets, body)
			})
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

// pairedRounds is how many turns each target takes in a cell.
const pairedRounds = 6

// target is one server under load in a cell.
type target struct {
	name, url string
	hdr       map[string]string
}

// measured is what a target's calls in one cell took.
type measured struct {
	hc      *http.Client
	lat     []time.Duration
	elapsed time.Duration
	cpu     time.Duration
	rate    []float64 // calls/s in each round
}

// pairedLoad makes b.N calls to each target over clients concurrent
// clients, in rounds in which the targets take turns, and reports each
// target's figures and mcp-server's ratios to the forwarder (targets[0]
// and targets[1]).
func pairedLoad(b *testing.B, clients int, targets []target, body []byte) {
	rounds := min(pairedRounds, b.N)
	m := make([]measured, len(targets))
	for i, tg := range targets {
		m[i].hc = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients, MaxConnsPerHost: clients}}
		defer m[i].hc.CloseIdleConnections()
		for range clients { // open the connections before the clock starts
			if err := send(m[i].hc, tg.url, body, tg.hdr, `cmp_000001`); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ResetTimer()
	for r := range rounds {
		n := b.N*(r+1)/rounds - b.N*r/rounds // the rounds' calls add up to b.N
		for k := range targets {
			i := (k + r) % len(targets) // who goes first moves on each round
			lat, elapsed, cpu := burst(b, targets[i], m[i].hc, clients, n, body)
			m[i].lat = append(m[i].lat, lat...)
			m[i].elapsed += elapsed
			m[i].cpu += cpu
			m[i].rate = append(m[i].rate, float64(n)/elapsed.Seconds())
		}
	}
	b.StopTimer()
	for i, tg := range targets {
		slices.Sort(m[i].lat)
		b.ReportMetric(float64(b.N)/m[i].elapsed.Seconds(), tg.name+"-calls/s")
		b.ReportMetric(ms(m[i].lat[len(m[i].lat)/2]), tg.name+"-p50-ms")
		b.ReportMetric(ms(p99(m[i].lat)), tg.name+"-p99-ms")
		// CPU per call, of the whole process (backend and load generator
		// included, alike for every target): steadier than throughput on a
		// machine others load.
		b.ReportMetric(float64(m[i].cpu.Microseconds())/float64(b.N), tg.name+"-cpu-us/call")
	}
	fwd, ours := m[0], m[1]
	ratios := make([]float64, rounds)
	for r := range ratios {
		ratios[r] = ours.rate[r] / fwd.rate[r]
	}
	slices.Sort(ratios)
	b.ReportMetric(ratios[len(ratios)/2], "x-calls/s")
	b.ReportMetric(ms(p99(ours.lat))/ms(p99(fwd.lat)), "x-p99")
}

// p99 is the 99th percentile of sorted latencies.
func p99(sorted []time.Duration) time.Duration { return sorted[len(sorted)*99/100] }

// burst makes n calls to tg through hc over clients concurrent clients and
// returns each call's latency, the wall time and the process CPU they took.
func burst(b *testing.B, tg target, hc *http.Client, clients, n int, body []byte) ([]time.Duration, time.Duration, time.Duration) {
	lat := make([]time.Duration, n)
	var mu sync.Mutex
	i := 0
	cpu0 := processCPU()
	start := time.Now()
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() {
			for {
				mu.Lock()
				k := i
				i++
				mu.Unlock()
				if k >= n {
					return
				}
				t0 := time.Now()
				if err := send(hc, tg.url, body, tg.hdr, `cmp_000001`); err != nil {
					b.Error(err)
					return
				}
				lat[k] = time.Since(t0)
			}
		})
	}
	wg.Wait()
	return lat, time.Since(start), processCPU() - cpu0
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

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
