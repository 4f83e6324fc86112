package read

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/internal/untrusted"
	"github.com/companyintel/mcp-server/ratelimit"
	"github.com/companyintel/mcp-server/tools"
	"github.com/companyintel/mcp-server/views"
)

type aiSearchInput struct {
	Query string `json:"query" desc:"E.g. \"fintech startups in Germany\"." max:"500"`
	Limit int    `json:"limit,omitempty" desc:"Page size." min:"1" max:"50" default:"10"`
}

// aiInterpreted is what the backend read the request as, in search_companies'
// argument names, so that a caller can check it and repeat it.
type aiInterpreted struct {
	Keywords      string   `json:"keywords,omitempty"`
	Countries     []string `json:"countries"`
	Categories    []string `json:"categories"`
	MinEmployees  *int     `json:"min_employees,omitempty"`
	MaxEmployees  *int     `json:"max_employees,omitempty"`
	FoundedAfter  *int     `json:"founded_after,omitempty"`
	FoundedBefore *int     `json:"founded_before,omitempty"`
	// ExclCountries and ExclCategories are what a negation left out ("outside
	// the EU"): no company shown is in any of them.
	ExclCountries  []string `json:"exclude_countries,omitempty"`
	ExclCategories []string `json:"exclude_categories,omitempty"`

	// countOnly says the request asked how many: the backend counted
	// exactly, and search_companies' count_only repeats that.
	countOnly bool

	// sort is the order a superlative asked for, as search_companies names
	// it ("employees_desc"); the interpretation says it in words, and the
	// paging note repeats it. It is not a field of its own: the catalogue
	// has no bytes to spare for it.
	sort string
}

type aiSearchOutput struct {
	Companies      []tools.Summary `json:"companies" text:"-"`
	Total          int             `json:"total"`
	Interpretation string          `json:"interpretation"`
	Interpreted    aiInterpreted   `json:"interpreted"`
	NotApplied     []string        `json:"not_applied"`
	Truncated      bool            `json:"truncated,omitempty"`
	Note           string          `json:"note,omitempty"`

	before, after string // the notes around the paging note
	repeat        string // how to page through every match
	atLeast       bool   // total is a lower bound
}

// Len, Lines and Cut make the answer a tools.List.
func (o aiSearchOutput) Len() int        { return len(o.Companies) }
func (o aiSearchOutput) Lines() []string { return summaryLines(o.Companies) }
func (o aiSearchOutput) Cut(n, bound int) tools.List {
	o.Companies, o.Truncated = o.Companies[:n], true
	o.Note = tools.JoinNotes(o.before, fmt.Sprintf("Showing the best %d of %s matches, %s. Ask for a smaller limit, or to page through all of them, %s",
		n, tools.Count(o.Total, o.atLeast), cutNote(bound), o.repeat), o.after)
	return o
}

// Touched names the companies returned, for the audit record.
func (o aiSearchOutput) Touched() tools.Touched {
	return tools.Touched{Read: tools.IDs{Companies: tools.SummaryIDs(o.Companies)}}
}

// aiSearchFacts are ai_search's facts; the tool registers itself with them.
var aiSearchFacts = tools.Facts{
	Name: "ai_search", Order: 4, Kind: tools.Read,
	Limit:  ratelimit.Limit{Count: 5, Period: time.Minute},
	Bounds: map[string]string{"limit": "1-50, default 10"},
}

var _ = registry.Add(aiSearchFacts, func(d Deps) tools.Tool { return NewAiSearch(d.Reader) })

// NewAiSearch returns the ai_search tool: a plain-English request, interpreted
// by the backend into filters and keywords. Contract: query required (at most
// 500 characters); limit 1-50 (default 10); the interpretation is returned as
// a sentence and as structured fields (keywords, countries, categories,
// employee and founding-year bounds) so the caller can check it; what the
// backend could not express (a negation, a city, conflicting bounds) is in
// not_applied and said in the note; when more match than are shown, the note
// gives the search_companies call that pages through them with every
// interpreted constraint. It is expensive upstream, so it has a per-caller
// token bucket (the runtime states the limit in the description).
func NewAiSearch(r query.Reader) tools.Tool {
	return tools.New(tools.Spec[aiSearchInput, aiSearchOutput]{
		Facts: aiSearchFacts,
		Title: "Search companies in plain English",
		Description: "Find companies from a plain-English request: countries, categories, sizes and founding years become filters, other words keywords. " +
			"Check not_applied: filter by it yourself. Prefer search_companies when you can state filters.",
		Hints: readHints,
		Run: func(ctx context.Context, in aiSearchInput) (aiSearchOutput, error) {
			return aiSearch(ctx, r, in)
		},
	}).WithView(views.SearchURI)
}

func aiSearch(ctx context.Context, r query.Reader, in aiSearchInput) (aiSearchOutput, error) {
	res, err := r.AiSearch(ctx, in.Query, &in.Limit)
	partial, err := tools.KeepPartial(err)
	if err != nil {
		return aiSearchOutput{}, err
	}
	out := aiSearchOutput{
		Companies:      summariesFrom(res.Items, tools.DetailSummary),
		Total:          res.Total,
		Interpretation: untrusted.Clean(res.Interpretation),
		Interpreted:    interpreted(res),
		NotApplied:     untrusted.CleanAll(res.NotApplied),
	}
	if out.NotApplied == nil {
		out.NotApplied = []string{}
	}
	if len(out.NotApplied) > 0 {
		out.before = "Not expressed as filters, so check the results yourself: " + untrusted.InlineAll(out.NotApplied, "; ") + "."
	}
	pageSize := in.Limit
	if res.Limit != nil {
		pageSize = *res.Limit
	}
	out.repeat, out.atLeast, out.after = repeatWith(out.Interpreted, pageSize, searchTakesNoBounds(r)), res.TotalIsLowerBound, partial.Note()
	page := tools.PageNote(len(out.Companies), out.Total, "", "companies")
	if out.Total > len(out.Companies) {
		page = fmt.Sprintf("Showing the best %d of %s matches. To page through all of them, %s",
			len(out.Companies), tools.Count(out.Total, out.atLeast), out.repeat)
	}
	if out.Interpreted.countOnly {
		out.before = tools.JoinNotes(countWith(out.Interpreted, out.NotApplied), out.before)
	}
	out.Note = tools.JoinNotes(out.before, page, out.after)
	return out, nil
}

// interpreted reads the backend's answer into search_companies' terms.
func interpreted(res *query.AiSearchResult) aiInterpreted {
	in := aiInterpreted{
		Keywords:      untrusted.Clean(tools.String(res.Keywords)),
		Countries:     []string{},
		Categories:    []string{},
		MinEmployees:  res.MinEmployees,
		MaxEmployees:  res.MaxEmployees,
		FoundedAfter:  res.FoundedAfter,
		FoundedBefore: res.FoundedBefore,
	}
	if res.Sort != nil && *res.Sort != query.SortRelevance {
		in.sort = strings.ToLower(string(*res.Sort))
	}
	for _, f := range res.AppliedFilters {
		kind, value, _ := strings.Cut(f, ";")
		switch kind {
		case "countries":
			in.Countries = append(in.Countries, untrusted.Clean(value))
		case "categories":
			in.Categories = append(in.Categories, untrusted.Clean(value))
		}
	}
	for _, f := range res.ExcludedFilters {
		kind, value, _ := strings.Cut(f, ";")
		switch kind {
		case "countries":
			in.ExclCountries = append(in.ExclCountries, value)
		case "categories":
			in.ExclCategories = append(in.ExclCategories, value)
		}
	}
	in.countOnly = res.ExactCount != nil && *res.ExactCount
	return in
}

// searchArgs are search_companies' arguments, for the paging note.
type searchArgs struct {
	Query         string   `json:"query,omitempty"`
	Country       string   `json:"country,omitempty"`
	Categories    []string `json:"categories,omitempty"`
	MinEmployees  *int     `json:"min_employees,omitempty"`
	MaxEmployees  *int     `json:"max_employees,omitempty"`
	FoundedAfter  *int     `json:"founded_after,omitempty"`
	FoundedBefore *int     `json:"founded_before,omitempty"`
	ExclCountries string   `json:"exclude_countries,omitempty"`
	ExclCats      []string `json:"exclude_categories,omitempty"`
	Sort          string   `json:"sort,omitempty"`
	Limit         int      `json:"limit,omitempty"`
	CountOnly     bool     `json:"count_only,omitempty"`
}

// boundsKnower is a Reader that knows whether the backend's search takes
// employee-count and founding-year bounds: query.NewReader's does, once the
// backend has refused them (a backend on the API's original schema).
type boundsKnower interface{ SearchBoundsUnsupported() bool }

// searchTakesNoBounds reports whether r is known to search without bounds.
func searchTakesNoBounds(r query.Reader) bool {
	k, ok := r.(boundsKnower)
	return ok && k.SearchBoundsUnsupported()
}

// repeatWith says how to repeat the interpreted search with search_companies,
// every applied constraint included and nothing else: the keywords the
// backend searched (not the words it left out), the countries (comma
// separated, as search_companies takes several), categories, bounds, the
// order a superlative asked for and the page size, so that the call's first
// page is this answer's companies in this order. An agent told only "the
// applied filters" once dropped the size bounds. When the backend's search
// takes no bounds (noBounds), the call leaves them out and the caller is
// told to apply them to the results itself, rather than be sent into a
// refusal.
func repeatWith(in aiInterpreted, limit int, noBounds bool) string {
	args := searchArgs{Query: in.Keywords, Country: strings.Join(in.Countries, ","), Categories: in.Categories,
		MinEmployees: in.MinEmployees, MaxEmployees: in.MaxEmployees, FoundedAfter: in.FoundedAfter, FoundedBefore: in.FoundedBefore,
		ExclCountries: strings.Join(in.ExclCountries, ","), ExclCats: in.ExclCategories,
		Sort: in.sort, Limit: limit}
	var keep string
	if noBounds && (args.MinEmployees != nil || args.MaxEmployees != nil || args.FoundedAfter != nil || args.FoundedBefore != nil) {
		keep = " Keep only the companies whose employee_count and founded_year fit " + boundsText(args) +
			": this data API's search_companies takes no such bounds."
		args.MinEmployees, args.MaxEmployees, args.FoundedAfter, args.FoundedBefore = nil, nil, nil, nil
	}
	return "call search_companies with " + compactJSON(args) + " and follow next_cursor." + keep
}

// countWith says which search_companies call counts exactly what was
// applied, and, when part of the request was not applied, that its count
// does not answer the question as asked either.
func countWith(in aiInterpreted, notApplied []string) string {
	args := searchArgs{Query: in.Keywords, Country: strings.Join(in.Countries, ","), Categories: in.Categories,
		MinEmployees: in.MinEmployees, MaxEmployees: in.MaxEmployees, FoundedAfter: in.FoundedAfter, FoundedBefore: in.FoundedBefore,
		ExclCountries: strings.Join(in.ExclCountries, ","), ExclCats: in.ExclCategories, CountOnly: true}
	if len(notApplied) == 0 {
		return "Asked how many: total is the exact count; search_companies with " + compactJSON(args) + " gives the same."
	}
	return "Asked how many, but part of the request was not applied (not_applied), so total does not answer it. " +
		"search_companies with " + compactJSON(args) + " counts what was applied; narrow it by what not_applied lists " +
		"(a separate call per second question) before answering."
}

// boundsText renders the bounds of args as search_companies names them.
func boundsText(args searchArgs) string {
	b := searchArgs{MinEmployees: args.MinEmployees, MaxEmployees: args.MaxEmployees, FoundedAfter: args.FoundedAfter, FoundedBefore: args.FoundedBefore}
	return compactJSON(b)
}

// compactJSON renders v as a model would write it as arguments: compact,
// with "&" as it is.
func compactJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "{}"
	}
	return strings.TrimSpace(b.String())
}
