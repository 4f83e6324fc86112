package app

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/companyintel/mcp-server/auth"
	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/internal/sizes"
	"github.com/companyintel/mcp-server/internal/untrusted"
	"github.com/companyintel/mcp-server/tools"
	"github.com/companyintel/mcp-server/tools/read"
)

// The two resources: what the filters accept, and how this server is set up.
const (
	FiltersURI = read.FiltersURI
	StatusURI  = "companies://server/status"
)

// vocabularyTTL bounds how stale the filter vocabulary may be. It changes
// only when the catalogue does, and reading it costs a backend call.
const vocabularyTTL = 10 * time.Minute

// vocabularyRetry is how long a failed read of the vocabulary is remembered:
// search_companies reads it before searching with a filter, and a backend
// that cannot serve it should not cost every such search a second call.
const vocabularyRetry = 30 * time.Second

// Status is the content of the status resource: what an agent or an operator
// needs to know about this server before relying on it.
type Status struct {
	Version   string      `json:"version"`
	Catalog   string      `json:"catalog" jsonschema:"Prefix of the catalogue's SHA-256 (mcp-server catalog --hash)."`
	Transport string      `json:"transport"`
	Auth      auth.Status `json:"auth"`
	// Caller is who asked, on HTTP with OAuth: the token's issuer,
	// subject, client and scopes. Auth then describes the same caller, not
	// the server's own credentials.
	Caller     *CallerStatus     `json:"caller,omitempty"`
	Mutations  MutationStatus    `json:"mutations"`
	RateLimits map[string]string `json:"rate_limits" jsonschema:"Per tool, per caller."`
	Limits     map[string]string `json:"limits"`
	Tools      []string          `json:"tools"`
	// SchemaExtensions says which extensions of the API's original schema
	// the backend has, and which tools are served or left out for them.
	SchemaExtensions ExtensionStatus `json:"schema_extensions"`
	// Data is what the backend says about its data; absent when it says
	// nothing or cannot be reached.
	Data *DataStatus `json:"data,omitempty"`
	// Views says which tools' results hosts with MCP Apps show as views.
	Views ViewsStatus `json:"views"`
	// Tasks says which tools' calls may become tasks (the MCP tasks
	// extension) and where their records live; absent when none may.
	Tasks *TasksStatus `json:"tasks,omitempty"`
}

// TasksStatus describes the tasks extension on this server.
type TasksStatus struct {
	Extension string   `json:"extension"`
	Store     string   `json:"store" jsonschema:"redis (shared by the replicas given the same --redis-url) or memory (this process)."`
	Tools     []string `json:"tools"`
}

// DataStatus describes the data behind the API, as the backend reports it.
type DataStatus struct {
	// ReferenceDate is the day a synthetic data set describes.
	ReferenceDate string `json:"reference_date"`
	Note          string `json:"note"`
}

// CallerStatus describes the OAuth user of one request.
type CallerStatus struct {
	Issuer  string   `json:"issuer"`
	Subject string   `json:"subject"`
	Client  string   `json:"client,omitempty"`
	Scopes  []string `json:"scopes"`
}

// forCaller makes the status describe an OAuth caller of this request
// instead of the server's own identity, which such a caller never acts as.
func (st Status) forCaller(ctx context.Context) Status {
	c, ok := tools.CallerFrom(ctx)
	if !ok || !c.Scoped {
		return st
	}
	st.Auth = auth.Status{Method: "oauth", Principal: c.User, Issuer: c.Issuer}
	st.Caller = &CallerStatus{Issuer: c.Issuer, Subject: c.User, Client: c.Client, Scopes: append([]string{}, c.Scopes...)}
	return st
}

// MutationStatus says which writes this server performs, and, when it
// performs any, whether this client's writes are put to the person at the
// keyboard first (--confirm-writes and the client's ability to ask).
type MutationStatus struct {
	Enabled      bool     `json:"enabled"`
	EnabledTools []string `json:"enabled_tools"`
	HowToEnable  string   `json:"how_to_enable,omitempty"`
	// Confirmed says whether a person confirms each write, and how.
	Confirmed ConfirmStatus `json:"confirmed"`
}

// ConfirmStatus says whether writes are confirmed by the person at the
// keyboard (--confirm-writes), and which clients can be asked here.
type ConfirmStatus struct {
	// Mode is no (writes off, or --confirm-writes=off), ask or required.
	Mode string `json:"mode"`
	// How says who is asked and what happens to a client that cannot be.
	How string `json:"how"`
	// SingleUse is where a confirmation is remembered as used: redis
	// (shared by replicas) or process.
	SingleUse string `json:"single_use,omitempty"`
	// PutToPerson says whether the writes of the client reading the
	// status are shown to its user to accept or decline before they
	// happen; ForYou says it in a sentence with what to do.
	PutToPerson *bool  `json:"writes_put_to_person,omitempty"`
	ForYou      string `json:"for_you,omitempty"`

	mode      tools.ConfirmMode // the operator's choice, for forClient
	stateless bool              // stateless HTTP: a 2025-11-25 client cannot be asked
}

// forClient says whether the writes of the client of ctx are put to the
// person: that depends on the mode and on whether this client can be asked
// (it declared elicitation, over a transport that can carry the question),
// so it is answered per request.
func (c ConfirmStatus) forClient(ctx context.Context, writes bool) ConfirmStatus {
	if !writes {
		return c
	}
	asks := c.mode != "" && c.mode != tools.ConfirmOff && tools.CanAskUser(ctx) && (server.IsModernRequest(ctx) || !c.stateless)
	c.PutToPerson = &asks
	switch {
	case c.mode == "" || c.mode == tools.ConfirmOff:
		c.ForYou = "Your writes are not put to the person: this server writes what a call sends, so ask the user yourself before a write that matters."
	case asks:
		c.ForYou = "Each of your writes is shown to the person as a preview first and happens only if they accept; a decline is their answer, not an error to retry."
	case c.mode == tools.ConfirmRequired:
		c.ForYou = "This server writes only what the person confirms, and your client cannot be asked here (see how), so write tools will be refused."
	default:
		c.ForYou = "Your client cannot be asked here (see how), so your writes happen without the person confirming them: ask the user yourself before a write that matters."
	}
	return c
}

// resources returns the filter vocabulary and status resources, served from
// vocab, and the views.
func resources(vocab *vocabularyCache, status func() Status) []server.ServerResource {
	return append([]server.ServerResource{
		{
			Resource: mcp.NewResource(FiltersURI, "filter_vocabulary",
				mcp.WithResourceTitle("Search filter vocabulary"),
				mcp.WithResourceDescription("The countries and categories search_companies accepts, with how many companies carry each. "+
					"Read it before filtering by category: names must match exactly."),
				mcp.WithMIMEType("application/json")),
			Handler: func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
				v, err := vocab.get(ctx)
				if err != nil {
					return nil, err
				}
				return jsonContents(FiltersURI, v)
			},
		},
		{
			Resource: mcp.NewResource(StatusURI, "server_status",
				mcp.WithResourceTitle("Server status and limits"),
				mcp.WithResourceDescription("This server's version, auth method, whether write tools are enabled and put to the person first, rate limits and argument limits."),
				mcp.WithMIMEType("application/json")),
			Handler: func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
				st := status().forCaller(ctx)
				st.Mutations.Confirmed = st.Mutations.Confirmed.forClient(ctx, st.Mutations.Enabled)
				// The backend's facts come with the vocabulary, cached; the
				// status is served without them when it cannot be reached.
				if v, err := vocab.get(ctx); err == nil && v.referenceDate != "" {
					st.Data = &DataStatus{ReferenceDate: v.referenceDate,
						Note: "Synthetic data: company ages, founding years and head counts are as of this date."}
				}
				return jsonContents(StatusURI, st)
			},
		},
	}, viewResources()...)
}

// region is a named group of countries, as the backend's natural-language
// search reads it.
type region struct {
	Name      string   `json:"name"`
	Countries []string `json:"countries"`
	Aliases   []string `json:"aliases,omitempty"`
}

// vocabulary is the filter vocabulary as the resource shows it.
type vocabulary struct {
	FacetForm  string       `json:"facet_form"`
	Countries  []facetValue `json:"countries"`
	Categories []facetValue `json:"categories"`
	// Sizes say what the size words mean as head counts: ai_search reads
	// them so, and search_companies takes them as min_employees and
	// max_employees.
	Sizes []sizes.Band `json:"sizes"`
	// Regions say which countries a region ai_search reads ("the Nordics",
	// "outside the EU") stands for; search_companies takes them as country
	// or exclude_countries lists.
	Regions []region `json:"regions,omitempty"`
	Usage   string   `json:"usage"`

	referenceDate string // shown by the status resource
}

type facetValue struct {
	Name  string `json:"name"`
	Code  string `json:"code,omitempty"`
	Count int    `json:"count"`
}

// vocabularyCache fetches the vocabulary on first read and keeps it for
// vocabularyTTL. A failed fetch is kept for vocabularyRetry, so that the
// searches that check their filters against it do not each wait on it.
// The resources and search_companies share one.
type vocabularyCache struct {
	r   query.Reader
	now func() time.Time

	mu       sync.Mutex
	raw      *query.Vocabulary
	v        *vocabulary
	fetched  time.Time
	err      error
	failedAt time.Time
}

func newVocabularyCache(r query.Reader) *vocabularyCache {
	return &vocabularyCache{r: r, now: time.Now}
}

// FilterVocabulary returns the vocabulary as the backend gave it; it is
// what search_companies checks its filters against (read.Vocabulary).
func (c *vocabularyCache) FilterVocabulary(ctx context.Context) (*query.Vocabulary, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.refresh(ctx); err != nil {
		return nil, err
	}
	return c.raw, nil
}

func (c *vocabularyCache) get(ctx context.Context) (*vocabulary, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.refresh(ctx); err != nil {
		return nil, err
	}
	return c.v, nil
}

// refresh fetches the vocabulary when the copy held is stale; c.mu is held.
func (c *vocabularyCache) refresh(ctx context.Context) error {
	now := c.now()
	if c.v != nil && now.Sub(c.fetched) < vocabularyTTL {
		return nil
	}
	if c.err != nil && now.Sub(c.failedAt) < vocabularyRetry {
		return c.err
	}
	raw, err := c.r.FilterVocabulary(ctx)
	if err != nil {
		// One caller's cancelled or timed-out request says nothing about
		// the backend: remembering it would refuse every other caller the
		// vocabulary for vocabularyRetry.
		if ctx.Err() == nil {
			c.err, c.failedAt = err, now
		}
		return err
	}
	v := &vocabulary{
		FacetForm: "countries;<name> and categories;<name>",
		Sizes:     sizes.Bands,
		Usage: "Pass a country's name or code as search_companies' country argument and category names in its categories list; " +
			"ai_search understands them in plain English too, and regions (regions lists the countries each stands for; \"outside\" one excludes them). A size word (startup, small, mid-sized, large) means the head-count band in sizes: " +
			"give search_companies its min_employees and max_employees.",
	}
	if raw.ReferenceDate != nil {
		v.referenceDate = *raw.ReferenceDate
	}
	// The backend's words, cleaned as every untrusted string is.
	for _, f := range raw.Countries {
		v.Countries = append(v.Countries, facetValue{Name: untrusted.Clean(f.Value), Code: untrusted.Clean(derefString(f.Code)), Count: f.Count})
	}
	for _, f := range raw.Categories {
		v.Categories = append(v.Categories, facetValue{Name: untrusted.Clean(f.Value), Count: f.Count})
	}
	for _, r := range raw.Regions {
		v.Regions = append(v.Regions, region{Name: untrusted.Clean(r.Name), Countries: untrusted.CleanAll(r.Countries), Aliases: untrusted.CleanAll(r.Aliases)})
	}
	c.raw, c.v, c.fetched, c.err = raw, v, now, nil
	return nil
}

func jsonContents(uri string, v any) ([]mcp.ResourceContents, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	return []mcp.ResourceContents{mcp.TextResourceContents{URI: uri, MIMEType: "application/json", Text: string(b)}}, nil
}

func derefString(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
