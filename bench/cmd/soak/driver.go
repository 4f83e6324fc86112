package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// keywords vary the searches, so the backend does not answer one cached
// query 100,000 times.
var keywords = []string{"software", "robotics", "logistics", "bank", "energy", "health", "retail", "media",
	"security", "cloud", "food", "travel", "insurance", "chemicals", "games", "education"}

// driver makes the calls: one MCP client (and one HTTP connection) per
// caller, as separate agents would, over the protocol revision mcp-go's
// client speaks by default.
type driver struct {
	clients []*client.Client
	http    *http.Client
	ids     []string // company ids for get_company, from a first search
	next    atomic.Int64

	mu       sync.Mutex
	outcomes map[string]map[string]int // tool → "ok" or error code → count
	lat      []time.Duration
}

func newDriver(ctx context.Context, base string, callers int) (*driver, error) {
	d := &driver{
		http:     &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: callers}},
		outcomes: map[string]map[string]int{},
	}
	for range callers {
		c, err := client.NewStreamableHttpClient(base+"/mcp", transport.WithHTTPBasicClient(d.http))
		if err != nil {
			return nil, err
		}
		if err := c.Start(ctx); err != nil {
			return nil, err
		}
		if _, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{
			ClientInfo: mcp.Implementation{Name: "soak", Version: "1"},
		}}); err != nil {
			return nil, fmt.Errorf("initialize: %w", err)
		}
		d.clients = append(d.clients, c)
	}
	res, err := d.clients[0].CallTool(ctx, call("search_companies", map[string]any{"query": "software", "limit": 50}))
	if err != nil || res.IsError {
		return nil, fmt.Errorf("first search failed: %v %v", err, res)
	}
	var page struct {
		Companies []struct {
			ID string `json:"id"`
		} `json:"companies"`
	}
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &page); err != nil || len(page.Companies) == 0 {
		return nil, fmt.Errorf("first search found no companies: %s", raw)
	}
	for _, c := range page.Companies {
		d.ids = append(d.ids, c.ID)
	}
	return d, nil
}

func call(tool string, args map[string]any) mcp.CallToolRequest {
	return mcp.CallToolRequest{Params: mcp.CallToolParams{Name: tool, Arguments: args}}
}

// request is call number i of the mix: of every 20 calls, 16 keyword
// searches, 3 company lookups and 1 ai_search (limited to 5 a minute, so
// nearly all of those are refused: the limit check is the work).
func (d *driver) request(i int64) mcp.CallToolRequest {
	switch n := i % 20; {
	case n == 0:
		return call("ai_search", map[string]any{"query": "software companies in Germany", "limit": 5})
	case n <= 3:
		return call("get_company", map[string]any{"id": d.ids[int(i/20)%len(d.ids)]})
	default:
		return call("search_companies", map[string]any{"query": keywords[int(i)%len(keywords)], "limit": 10})
	}
}

// drive makes n more calls, spread over the callers.
func (d *driver) drive(ctx context.Context, n int) error {
	end := d.next.Load() + int64(n)
	var wg sync.WaitGroup
	errs := make(chan error, len(d.clients))
	for _, c := range d.clients {
		wg.Go(func() {
			lat := make([]time.Duration, 0, n/len(d.clients)+1)
			counts := map[string]map[string]int{}
			defer func() { d.merge(counts, lat) }()
			for {
				i := d.next.Add(1) - 1
				if i >= end {
					return
				}
				req := d.request(i)
				start := time.Now()
				res, err := c.CallTool(ctx, req)
				lat = append(lat, time.Since(start))
				outcome := "ok"
				switch {
				case err != nil && ctx.Err() != nil:
					errs <- ctx.Err()
					return
				case err != nil:
					outcome = "jsonrpc_error"
				case res.IsError:
					outcome = errorCode(res)
				}
				if counts[req.Params.Name] == nil {
					counts[req.Params.Name] = map[string]int{}
				}
				counts[req.Params.Name][outcome]++
			}
		})
	}
	wg.Wait()
	close(errs)
	return <-errs
}

func (d *driver) merge(counts map[string]map[string]int, lat []time.Duration) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for tool, m := range counts {
		if d.outcomes[tool] == nil {
			d.outcomes[tool] = map[string]int{}
		}
		for k, v := range m {
			d.outcomes[tool][k] += v
		}
	}
	d.lat = append(d.lat, lat...)
}

func errorCode(res *mcp.CallToolResult) string {
	// The server puts a failure's details in _meta["io.companyintel/error"].
	var body struct {
		Code string `json:"code"`
	}
	if res.Meta == nil {
		return "error_without_code"
	}
	raw, _ := json.Marshal(res.Meta.AdditionalFields["io.companyintel/error"])
	if json.Unmarshal(raw, &body) != nil || body.Code == "" {
		return "error_without_code"
	}
	return body.Code
}

// latency returns the p50, p99 and max of every call.
func (d *driver) latency() [3]time.Duration {
	d.mu.Lock()
	defer d.mu.Unlock()
	s := slices.Clone(d.lat)
	slices.Sort(s)
	if len(s) == 0 {
		return [3]time.Duration{}
	}
	return [3]time.Duration{s[len(s)/2], s[len(s)*99/100], s[len(s)-1]}
}

// close ends the clients and drops their connections.
func (d *driver) close() {
	for _, c := range d.clients {
		_ = c.Close()
	}
	d.http.CloseIdleConnections()
}
