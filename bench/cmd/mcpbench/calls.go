package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/companyintel/mcp-server/graphql/query"
)

// callTimeout bounds every single call the driver makes. Nothing here should
// come near it; it only keeps a hung server from hanging the run.
const callTimeout = 30 * time.Second

// The one request every path makes. searchArgs are the arguments of the
// search_companies tool call; searchVars are the GraphQL variables the
// server sends for them (it reads "US" as the facet "countries;United
// States" and passes the default limit of 20, no exclusions, size or founding
// bounds, sort, exact count or cursor). The direct
// call posts searchVars with the server's own operation text
// (query.SearchCompaniesDocument), so both ask the backend the same.
var (
	searchArgs = map[string]any{"query": "software", "country": "US", "limit": 20}
	searchVars = map[string]any{"keyword": "software", "filters": []string{"countries;United States"}, "excludeFilters": nil,
		"minEmployees": nil, "maxEmployees": nil, "foundedAfter": nil, "foundedBefore": nil, "sort": nil, "exactCount": nil,
		"limit": 20, "nextToken": nil}
)

// graphqlRequest is the body the server's GraphQL client posts (genqlient's
// graphql.Request), so that the direct call sends the same bytes.
type graphqlRequest struct {
	Query         string         `json:"query"`
	Variables     map[string]any `json:"variables,omitempty"`
	OperationName string         `json:"operationName"`
}

// searchBody is the POST body for the SearchCompanies operation with vars.
func searchBody(vars map[string]any) []byte {
	b, err := json.Marshal(graphqlRequest{Query: query.SearchCompaniesDocument, Variables: vars, OperationName: "SearchCompanies"})
	if err != nil {
		panic(err) // maps of strings, numbers and nil always encode
	}
	return b
}

// direct posts GraphQL requests to the backend with net/http, the way a
// well-behaved Go client would: one http.Client, keep-alive connections, at
// least as many idle connections kept per host as there are callers.
type direct struct {
	url, apiKey string
	http        *http.Client
}

func newDirect(url, apiKey string, callers int) *direct {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = max(callers, tr.MaxIdleConnsPerHost)
	return &direct{url: url, apiKey: apiKey, http: &http.Client{Transport: tr}}
}

// post sends body and returns the answer, failing on anything but a 200
// without GraphQL errors. The answer is read in full but not decoded: the
// baseline is the backend's round trip, and every cost on top of it is the
// MCP path's.
func (d *direct) post(ctx context.Context, body []byte) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("x-api-key", d.apiKey)
	resp, err := d.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK || bytes.Contains(raw, []byte(`"errors":[{`)) {
		return nil, fmt.Errorf("direct GraphQL call: HTTP %d: %.300s", resp.StatusCode, raw)
	}
	return raw, nil
}

// varRef matches a variable reference ($name) in an operation.
var varRef = regexp.MustCompile(`\$[_A-Za-z][_0-9A-Za-z]*`)

// inlineVariables rewrites a GraphQL operation so that it needs no
// variables: the variable definitions after the operation name are dropped
// and each $name is replaced by its value as a literal (JSON strings,
// numbers, lists and null are valid GraphQL literals for the String, Int and
// [String!] arguments used here).
//
// It exists for mcp-graphql: its query-graphql tool takes variables as a
// string and posts that string as the "variables" member, which a GraphQL
// server that expects an object (appsync-local does, per the GraphQL over
// HTTP spec) rejects as a malformed request. A model using mcp-graphql
// therefore has to write the values into the query, and so does the driver.
func inlineVariables(op string, vars map[string]any) (string, error) {
	brace := strings.IndexByte(op, '{')
	paren := strings.IndexByte(op, '(')
	if brace < 0 {
		return "", errors.New("operation has no selection set")
	}
	if paren >= 0 && paren < brace {
		end := strings.IndexByte(op[paren:], ')')
		if end < 0 || paren+end > brace {
			return "", errors.New("unterminated variable definitions")
		}
		op = strings.TrimRight(op[:paren], " ") + " " + strings.TrimLeft(op[paren+end+1:], " ")
	}
	var missing []string
	out := varRef.ReplaceAllStringFunc(op, func(ref string) string {
		v, ok := vars[ref[1:]]
		if !ok {
			missing = append(missing, ref)
			return ref
		}
		lit, err := json.Marshal(v)
		if err != nil {
			missing = append(missing, ref)
			return ref
		}
		return string(lit)
	})
	if len(missing) > 0 {
		return "", fmt.Errorf("no literal for %s", strings.Join(missing, ", "))
	}
	return out, nil
}

// page is the part of a search answer used to check that every path got the
// same companies.
type page struct {
	IDs   []string
	Total int
}

func (p page) String() string {
	return fmt.Sprintf("total=%d ids=%s", p.Total, strings.Join(p.IDs, ","))
}

// pageFromGraphQL reads a SearchCompanies answer (direct, or mcp-graphql's
// text content, which is the same JSON indented).
func pageFromGraphQL(raw []byte) (page, error) {
	var body struct {
		Data struct {
			SearchCompanies struct {
				Items []struct {
					ID string `json:"id"`
				} `json:"items"`
				Total int `json:"total"`
			} `json:"searchCompanies"`
		} `json:"data"`
	}
	if err := json.Unmarshal(raw, &body); err != nil {
		return page{}, fmt.Errorf("decoding a SearchCompanies answer: %w: %.200s", err, raw)
	}
	p := page{Total: body.Data.SearchCompanies.Total}
	for _, it := range body.Data.SearchCompanies.Items {
		p.IDs = append(p.IDs, it.ID)
	}
	return p, nil
}

// pageFromTool reads our search_companies result's structuredContent (its
// text is a rendering for the model), as the client decoded it.
func pageFromTool(structured any) (page, error) {
	raw, err := json.Marshal(structured)
	if err != nil {
		return page{}, fmt.Errorf("encoding a search_companies result again: %w", err)
	}
	var out struct {
		Companies []struct {
			ID string `json:"id"`
		} `json:"companies"`
		Total int `json:"total"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return page{}, fmt.Errorf("decoding a search_companies result's structuredContent: %w: %.200s", err, raw)
	}
	p := page{Total: out.Total}
	for _, c := range out.Companies {
		p.IDs = append(p.IDs, c.ID)
	}
	return p, nil
}

// target is one way of making the search call, measured by runRounds.
type target struct {
	name string
	// call makes one call; it must fail on anything but a good answer.
	call func(ctx context.Context) error
	// pid is the process whose CPU time is charged to this target's calls
	// (0: none), read before and after each of its blocks.
	pid int
}

// series is what runRounds measured for one target.
type series struct {
	lat   []time.Duration // one per call
	cpu   time.Duration   // CPU time of target.pid during the target's blocks
	wall  time.Duration   // wall time of the target's blocks
	calls int
	// blocks is the median latency of each block, in round order, so that
	// targets can be compared round by round: a ratio taken within one round
	// is measured side by side, whatever the machine did between rounds.
	blocks []time.Duration
}

// runRounds makes total calls per target with conc concurrent callers, split
// into rounds: each round runs one block per target, in an order rotated
// from round to round, so that the targets share the machine's drift (heat,
// other load, GC of the driver) instead of one target getting the quiet
// minute. Each block's calls are split evenly over its callers.
func runRounds(ctx context.Context, targets []*target, conc, total, rounds int) (map[*target]*series, error) {
	if total < rounds*conc {
		rounds = max(1, total/conc)
	}
	out := map[*target]*series{}
	for _, t := range targets {
		out[t] = &series{lat: make([]time.Duration, 0, total)}
	}
	for r := range rounds {
		perBlock := total / rounds
		if r < total%rounds {
			perBlock++
		}
		for i := range targets {
			t := targets[(i+r)%len(targets)]
			if err := runBlock(ctx, t, out[t], conc, perBlock); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// runBlock makes n calls of t with conc callers and adds them to s.
func runBlock(ctx context.Context, t *target, s *series, conc, n int) error {
	var cpu0 time.Duration
	if t.pid != 0 {
		var err error
		if cpu0, err = cpuTime(t.pid); err != nil {
			return err
		}
	}
	var (
		mu       sync.Mutex
		wg       sync.WaitGroup
		firstErr error
	)
	first := len(s.lat)
	start := time.Now()
	for w := range conc {
		calls := n / conc
		if w < n%conc {
			calls++
		}
		wg.Go(func() {
			lat := make([]time.Duration, 0, calls)
			for range calls {
				cctx, cancel := context.WithTimeout(ctx, callTimeout)
				t0 := time.Now()
				err := t.call(cctx)
				d := time.Since(t0)
				cancel()
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = fmt.Errorf("%s: %w", t.name, err)
					}
					mu.Unlock()
					return
				}
				lat = append(lat, d)
			}
			mu.Lock()
			s.lat = append(s.lat, lat...)
			mu.Unlock()
		})
	}
	wg.Wait()
	s.wall += time.Since(start)
	if firstErr != nil {
		return firstErr
	}
	s.blocks = append(s.blocks, summarize(s.lat[first:]).P50)
	s.calls += n
	if t.pid != 0 {
		cpu1, err := cpuTime(t.pid)
		if err != nil {
			return err
		}
		s.cpu += cpu1 - cpu0
	}
	return nil
}

// sameIDs reports whether two pages hold the same companies in the same order.
func sameIDs(a, b page) bool { return a.Total == b.Total && slices.Equal(a.IDs, b.IDs) }
