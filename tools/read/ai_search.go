package read

import (
	"context"
	"fmt"

	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/tools"
)

type aiSearchInput struct {
	Query string `json:"query" desc:"E.g. \"fintech startups in Germany with over 50 employees\"." max:"500"`
	Limit int    `json:"limit,omitempty" desc:"Page size." min:"1" max:"50" default:"10"`
}

type aiSearchOutput struct {
	Companies      []tools.Company `json:"companies"`
	Total          int             `json:"total"`
	Interpretation string          `json:"interpretation"`
	AppliedFilters []string        `json:"applied_filters"`
	Keywords       string          `json:"keywords,omitempty"`
	MinEmployees   *int            `json:"min_employees,omitempty"`
	MaxEmployees   *int            `json:"max_employees,omitempty"`
	NotApplied     []string        `json:"not_applied" jsonschema:"Constraints not applied; filter the results yourself."`
	Note           string          `json:"note,omitempty"`
}

// ItemCount reports the companies returned, for the audit record.
func (o aiSearchOutput) ItemCount() int { return len(o.Companies) }

// Touched names the companies returned, for the audit record.
func (o aiSearchOutput) Touched() tools.Touched {
	return tools.Touched{Read: tools.IDs{Companies: tools.CompanyIDs(o.Companies)}}
}

// NewAiSearch returns the ai_search tool: a plain-English request, interpreted
// by the backend into filters and keywords. Contract: query required (at most
// 500 characters); limit 1-50 (default 10); the interpretation is returned so
// the caller can check it. It is expensive upstream, so it has a per-caller
// token bucket (the runtime states the limit in the description).
func NewAiSearch(r query.Reader) tools.Tool {
	return tools.New(tools.Spec[aiSearchInput, aiSearchOutput]{
		Name:  "ai_search",
		Title: "AI company search",
		Description: "Find companies from a plain-English request: countries, categories, sizes and founding years become filters, other words keywords. " +
			"Check not_applied. Prefer search_companies when you can state the filters.",
		Hints: readHints,
		Run: func(ctx context.Context, in aiSearchInput) (aiSearchOutput, error) {
			return aiSearch(ctx, r, in)
		},
	})
}

func aiSearch(ctx context.Context, r query.Reader, in aiSearchInput) (aiSearchOutput, error) {
	res, err := r.AiSearch(ctx, in.Query, &in.Limit)
	partial, err := tools.KeepPartial(err)
	if err != nil {
		return aiSearchOutput{}, err
	}
	out := aiSearchOutput{
		Companies:      companiesFrom(res.Items),
		Total:          res.Total,
		Interpretation: res.Interpretation,
		AppliedFilters: res.AppliedFilters,
		Keywords:       tools.String(res.Keywords),
		MinEmployees:   res.MinEmployees,
		MaxEmployees:   res.MaxEmployees,
		NotApplied:     res.NotApplied,
	}
	if out.AppliedFilters == nil {
		out.AppliedFilters = []string{}
	}
	if out.NotApplied == nil {
		out.NotApplied = []string{}
	}
	out.Note = tools.PageNote(len(out.Companies), out.Total, "", "companies")
	if out.Total > len(out.Companies) {
		out.Note = fmt.Sprintf("Showing the best %d of %s matches. To page through all of them, "+
			"call search_companies with the applied filters and the keywords as its query.", len(out.Companies), tools.Count(out.Total, res.TotalIsLowerBound))
	}
	out.Note = tools.JoinNotes(out.Note, partial.Note())
	return out, nil
}
