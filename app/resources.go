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
)

// The two resources: what the filters accept, and how this server is set up.
const (
	FiltersURI = "companies://filters"
	StatusURI  = "companies://server/status"
)

// vocabularyTTL bounds how stale the filter vocabulary may be. It changes
// only when the catalogue does, and reading it costs a backend call.
const vocabularyTTL = 10 * time.Minute

// Status is the content of the status resource: what an agent or an operator
// needs to know about this server before relying on it.
type Status struct {
	Version    string            `json:"version"`
	Catalog    string            `json:"catalog" jsonschema:"Prefix of the catalogue's SHA-256 (mcp-server catalog --hash)."`
	Transport  string            `json:"transport"`
	Auth       auth.Status       `json:"auth"`
	Mutations  MutationStatus    `json:"mutations"`
	RateLimits map[string]string `json:"rate_limits" jsonschema:"Per tool, per caller."`
	Limits     map[string]string `json:"limits"`
	Tools      []string          `json:"tools"`
	// Data is what the backend says about its data; absent when it says
	// nothing or cannot be reached.
	Data *DataStatus `json:"data,omitempty"`
}

// DataStatus describes the data behind the API, as the backend reports it.
type DataStatus struct {
	// ReferenceDate is the day a synthetic data set describes.
	ReferenceDate string `json:"reference_date"`
	Note          string `json:"note"`
}

// MutationStatus says which writes this server performs.
type MutationStatus struct {
	Enabled      bool     `json:"enabled"`
	EnabledTools []string `json:"enabled_tools"`
	HowToEnable  string   `json:"how_to_enable,omitempty"`
}

// resources returns the filter vocabulary and status resources.
func resources(r query.Reader, status func() Status) []server.ServerResource {
	vocab := &vocabularyCache{r: r}
	return []server.ServerResource{
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
				mcp.WithResourceDescription("This server's version, auth method, whether write tools are enabled, rate limits and argument limits."),
				mcp.WithMIMEType("application/json")),
			Handler: func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
				st := status()
				// The backend's facts come with the vocabulary, cached; the
				// status is served without them when it cannot be reached.
				if v, err := vocab.get(ctx); err == nil && v.referenceDate != "" {
					st.Data = &DataStatus{ReferenceDate: v.referenceDate,
						Note: "Synthetic data: company ages, founding years and head counts are as of this date."}
				}
				return jsonContents(StatusURI, st)
			},
		},
	}
}

// vocabulary is the filter vocabulary as the resource shows it.
type vocabulary struct {
	FacetForm  string       `json:"facet_form"`
	Countries  []facetValue `json:"countries"`
	Categories []facetValue `json:"categories"`
	Usage      string       `json:"usage"`

	referenceDate string // shown by the status resource
}

type facetValue struct {
	Name  string `json:"name"`
	Code  string `json:"code,omitempty"`
	Count int    `json:"count"`
}

// vocabularyCache fetches the vocabulary on first read and keeps it for
// vocabularyTTL; a failed fetch is not cached.
type vocabularyCache struct {
	r       query.Reader
	mu      sync.Mutex
	v       *vocabulary
	fetched time.Time
}

func (c *vocabularyCache) get(ctx context.Context) (*vocabulary, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.v != nil && time.Since(c.fetched) < vocabularyTTL {
		return c.v, nil
	}
	raw, err := c.r.FilterVocabulary(ctx)
	if err != nil {
		return nil, err
	}
	v := &vocabulary{
		FacetForm: "countries;<name> and categories;<name>",
		Usage: "Pass a country's name or code as search_companies' country argument and category names in its categories list; " +
			"ai_search understands them in plain English too.",
	}
	if raw.ReferenceDate != nil {
		v.referenceDate = *raw.ReferenceDate
	}
	for _, f := range raw.Countries {
		v.Countries = append(v.Countries, facetValue{Name: f.Value, Code: derefString(f.Code), Count: f.Count})
	}
	for _, f := range raw.Categories {
		v.Categories = append(v.Categories, facetValue{Name: f.Value, Count: f.Count})
	}
	c.v, c.fetched = v, time.Now()
	return v, nil
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
