package graph

import (
	"context"
	"strings"

	"github.com/companyintel/mcp-server/appsynclocal/graph/model"
	"github.com/companyintel/mcp-server/appsynclocal/interpret"
	"github.com/companyintel/mcp-server/appsynclocal/store"
)

// maxAIQuery bounds the sentence aiSearch reads.
const maxAIQuery = 1000

// AiSearch reads a sentence into filters and keywords, searches with them,
// and says how it read the sentence, including what it did not apply: the
// interpreter turns no exclusion into its opposite and no set of bounds
// into an empty range.
func (r *queryResolver) AiSearch(ctx context.Context, query string, limit *int) (*model.AiSearchResult, error) {
	query = strings.TrimSpace(query)
	switch {
	case query == "":
		return nil, badRequest("query must not be empty")
	case len(query) > maxAIQuery:
		return nil, badRequest("query has %d bytes; at most %d are allowed", len(query), maxAIQuery)
	}
	n, err := store.AISearchLimit.Resolve(limit)
	if err != nil {
		return nil, r.fail(ctx, "aiSearch", err)
	}
	iq := interpret.Parse(query)
	sq := store.SearchQuery{
		Keyword:      strings.Join(iq.Keywords, " "),
		MinEmployees: iq.MinEmployees,
		MaxEmployees: iq.MaxEmployees,
		FoundedFrom:  iq.FoundedFrom,
		FoundedTo:    iq.FoundedTo,
		Limit:        n,
	}
	for _, c := range iq.Countries {
		sq.Facets.AddCountry(c)
	}
	for _, k := range iq.Categories {
		sq.Facets.AddCategory(k)
	}
	page, err := r.store.Search(ctx, sq)
	if err != nil {
		return nil, r.fail(ctx, "aiSearch", err)
	}
	// A sentence leaves words no profile has; rather than answer nothing,
	// rank by any of them, and say so.
	anyWord := false
	if page.Total == 0 && len(iq.Keywords) > 1 {
		sq.AnyWord, anyWord = true, true
		if page, err = r.store.Search(ctx, sq); err != nil {
			return nil, r.fail(ctx, "aiSearch", err)
		}
	}
	out := &model.AiSearchResult{
		Items:             toCompanies(page.Items),
		Interpretation:    iq.Describe(anyWord),
		AppliedFilters:    iq.Filters(),
		NotApplied:        iq.NotApplied,
		Total:             page.Total,
		TotalIsLowerBound: page.TotalIsLowerBound,
	}
	if out.NotApplied == nil {
		out.NotApplied = []string{}
	}
	if len(iq.Keywords) > 0 {
		out.Keywords = ptr(sq.Keyword)
	}
	if iq.MinEmployees > 0 {
		out.MinEmployees = ptr(iq.MinEmployees)
	}
	if iq.MaxEmployees > 0 {
		out.MaxEmployees = ptr(iq.MaxEmployees)
	}
	if iq.FoundedFrom > 0 {
		out.FoundedAfter = ptr(iq.FoundedFrom)
	}
	if iq.FoundedTo > 0 {
		out.FoundedBefore = ptr(iq.FoundedTo)
	}
	return out, nil
}
