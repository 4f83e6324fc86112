// Package qualify is the deterministic qualification of the MCP server
// (cmd/qualify): every tool's answer compared, field by field, with the
// backend's own answer to the same request over GraphQL; the refusals
// (writes off, bad arguments, rate limit); paging and cross-tool round
// trips; each case three times, with per-tool ceilings for latency and
// answer size read from a checked-in profile. It stores no expected values:
// both sides are read from the backend at the time of the run, so it keeps
// working as the data changes, against the embedded backend or a real one.
package qualify

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/companyintel/mcp-server/app"
	"github.com/companyintel/mcp-server/auth"
)

// Options configure a run.
type Options struct {
	// Endpoint is the backend to qualify against; empty starts the
	// embedded one (see Embedded).
	Endpoint string
	// Getenv supplies the credentials for Endpoint, as for the server.
	Getenv func(string) string
	// Companies and DataDir size and place the embedded backend.
	Companies int
	DataDir   string
	// Repeat is how many times each case runs; 0 means 3.
	Repeat int
	// Profile holds the ceilings; nil means DefaultProfile.
	Profile Profile
	// Commit names the code qualified, for the report.
	Commit string
	// Out receives the report.
	Out io.Writer
}

// Report is a run's outcome.
type Report struct {
	CatalogHash string
	Cases       []CaseResult
	Tools       []ToolResult
	// Uncovered lists tools in tools/list that no case called.
	Uncovered []string
}

// CaseResult is one case over its repetitions.
type CaseResult struct {
	Name     string
	Runs     int
	Failures []string
}

// ToolResult is what a tool's calls cost, beside its ceiling.
type ToolResult struct {
	Tool       string
	Calls      int
	MaxLatency time.Duration
	MaxBytes   int
	Ceiling    Ceiling
}

// Failed reports whether the tool exceeded its ceiling (or has none).
func (t ToolResult) Failed() bool {
	return t.Ceiling.LatencyMS <= 0 || t.Ceiling.Bytes <= 0 ||
		t.MaxLatency > time.Duration(t.Ceiling.LatencyMS)*time.Millisecond || t.MaxBytes > t.Ceiling.Bytes
}

// OK reports whether every case passed, every ceiling held and every tool
// was covered.
func (r Report) OK() bool {
	for _, c := range r.Cases {
		if len(c.Failures) > 0 {
			return false
		}
	}
	for _, t := range r.Tools {
		if t.Failed() {
			return false
		}
	}
	return len(r.Uncovered) == 0 && len(r.Cases) > 0
}

// env is what the cases share: the servers, the direct client, the
// fixtures found in the data, and the cost of each tool's calls.
type env struct {
	ro, rw *mcpServer
	d      *direct
	fx     fixtures
	runID  string
	start  func(ctx context.Context, name string, extra ...string) (*mcpServer, error)

	// listed are the tools the server lists: a tool that needs a schema
	// extension the backend lacks is not (and must not be) among them.
	listed map[string]bool

	mu    sync.Mutex
	stats map[string]*ToolResult
}

// fixtures are chosen from the data at the start of a run.
type fixtures struct {
	// country has the most companies, second the next most; paging a
	// modest number (≤ 200).
	country, second, paging struct{ Value, Code string }
	// category is the largest category.
	category string
	// ids are companies of country, for lookups and writes.
	ids []string
	// collection is a collection made for the run, holding itemIDs.
	collection string
	itemIDs    []string
}

// call makes one MCP call and records its cost.
func (e *env) call(ctx context.Context, s *mcpServer, tool string, args map[string]any) (call, error) {
	c, err := s.call(ctx, tool, args)
	if err != nil {
		return c, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	st := e.stats[tool]
	if st == nil {
		st = &ToolResult{Tool: tool}
		e.stats[tool] = st
	}
	st.Calls++
	st.MaxLatency = max(st.MaxLatency, c.latency)
	st.MaxBytes = max(st.MaxBytes, c.bytes)
	return c, nil
}

// Run qualifies the server against the backend, writes the report to
// o.Out and returns it. An error means the run itself could not be made
// (no backend, no credentials); failed cases are in the report.
func Run(ctx context.Context, o Options) (Report, error) {
	if o.Repeat <= 0 {
		o.Repeat = 3
	}
	if o.Profile == nil {
		o.Profile = DefaultProfile()
	}
	if o.Out == nil {
		o.Out = io.Discard
	}
	getenv, endpoint, label := o.Getenv, o.Endpoint, "endpoint "+o.Endpoint
	if endpoint == "" {
		b, err := startBackend(o)
		if err != nil {
			return Report{}, err
		}
		defer b.Close()
		getenv, endpoint, label = b.getenv(o.Getenv), b.url, fmt.Sprintf("embedded backend (%d companies)", b.companies)
	}
	src, err := auth.Resolve(ctx, auth.Options{Getenv: getenv, Endpoint: endpoint, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return Report{}, fmt.Errorf("credentials for the direct GraphQL requests: %w", err)
	}
	e := &env{
		d:     &direct{endpoint: endpoint, client: &http.Client{Transport: src.Transport, Timeout: 30 * time.Second}},
		runID: strconv.FormatInt(time.Now().UnixNano(), 36),
		stats: map[string]*ToolResult{},
	}
	// Every server runs the flags of a real run; ai_search's default
	// limit (5 a minute) would refuse the suite's own repetitions.
	e.start = func(ctx context.Context, name string, extra ...string) (*mcpServer, error) {
		args := append([]string{"--endpoint", endpoint, "--log-level", "warn", "--rate-limit", "ai_search=off"}, extra...)
		return startServer(ctx, name, args, getenv)
	}
	if e.ro, err = e.start(ctx, "read-only"); err != nil {
		return Report{}, err
	}
	defer e.ro.Close()
	if e.rw, err = e.start(ctx, "writes-on", "--allow-mutations"); err != nil {
		return Report{}, err
	}
	defer e.rw.Close()
	if err := e.findFixtures(ctx); err != nil {
		return Report{}, err
	}
	r := Report{}
	listed, err := e.rw.c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		return Report{}, err
	}
	e.listed = map[string]bool{}
	for _, t := range listed.Tools {
		e.listed[t.Name] = true
	}
	// The hash of the catalogue served: the original schema's when the
	// backend lacks the extension remove_from_collection needs.
	if r.CatalogHash, err = app.CatalogueHashOf(false, e.listed["remove_from_collection"]); err != nil {
		return Report{}, err
	}
	covered := map[string]bool{}
	for _, c := range cases() {
		res := CaseResult{Name: c.name}
		for rep := range o.Repeat {
			res.Runs++
			if err := c.run(ctx, e, rep); err != nil {
				res.Failures = append(res.Failures, fmt.Sprintf("run %d: %v", rep+1, err))
			}
		}
		for _, t := range c.tools {
			covered[t] = true
		}
		r.Cases = append(r.Cases, res)
	}
	for _, t := range listed.Tools {
		if !covered[t.Name] {
			r.Uncovered = append(r.Uncovered, t.Name)
		}
	}
	names := make([]string, 0, len(e.stats))
	for n := range e.stats {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t := *e.stats[n]
		t.Ceiling = o.Profile[n]
		r.Tools = append(r.Tools, t)
	}
	r.write(o.Out, label, o.Commit, len(listed.Tools))
	return r, nil
}

// findFixtures picks, from the data as it is now, the countries, category,
// companies and collection the cases use.
func (e *env) findFixtures(ctx context.Context) error {
	v, err := e.d.vocabulary(ctx)
	if err != nil {
		return fmt.Errorf("reading the filter vocabulary: %w", err)
	}
	if len(v.Countries) == 0 || len(v.Categories) == 0 {
		return errors.New("the backend lists no countries or categories: nothing to qualify against")
	}
	countries := slices.Clone(v.Countries)
	slices.SortFunc(countries, func(a, b struct {
		Value string `json:"value"`
		Code  string `json:"code"`
		Count int    `json:"count"`
	}) int {
		return b.Count - a.Count
	})
	if len(countries) < 2 {
		return errors.New("the backend lists one country: searching several cannot be qualified")
	}
	e.fx.country.Value, e.fx.country.Code = countries[0].Value, countries[0].Code
	e.fx.second.Value, e.fx.second.Code = countries[1].Value, countries[1].Code
	e.fx.paging = e.fx.country
	for _, c := range countries { // largest first: the last one ≤ 200 is the smallest
		if c.Count >= 8 && c.Count <= 200 {
			e.fx.paging.Value, e.fx.paging.Code = c.Value, c.Code
			break
		}
	}
	best := v.Categories[0]
	for _, c := range v.Categories {
		if c.Count > best.Count {
			best = c
		}
	}
	e.fx.category = best.Value
	page, err := e.d.search(ctx, "", []string{"countries;" + e.fx.country.Value}, 10, "")
	if err != nil {
		return err
	}
	if len(page.Items) < 7 {
		return fmt.Errorf("%s has %d companies; the suite needs 7", e.fx.country.Value, len(page.Items))
	}
	for _, c := range page.Items {
		e.fx.ids = append(e.fx.ids, c.ID)
	}
	col, err := e.d.createCollection(ctx, "qualify "+e.runID+" fixture")
	if err != nil {
		return fmt.Errorf("creating the fixture collection: %w", err)
	}
	e.fx.collection, e.fx.itemIDs = col.Collection.ID, e.fx.ids[:7]
	if _, err := e.d.add(ctx, e.fx.collection, e.fx.itemIDs); err != nil {
		return fmt.Errorf("filling the fixture collection: %w", err)
	}
	return nil
}
