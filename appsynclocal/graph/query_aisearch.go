package graph

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/companyintel/mcp-server/appsynclocal/graph/model"
	"github.com/companyintel/mcp-server/appsynclocal/interpret"
	"github.com/companyintel/mcp-server/appsynclocal/store"
)

// maxAIQuery bounds the sentence aiSearch reads.
const maxAIQuery = 1000

// AiSearch reads a sentence into filters, keywords, an order and a count,
// searches with them, and says how it read the sentence, including what it
// did not apply: the interpreter turns no exclusion into its opposite and no
// set of bounds into an empty range. Keywords never empty an answer the
// filters alone have: a word in no profile is left out, and so are all of
// them when no company matching the filters has them, each listed in
// notApplied. A superlative orders the answer and a count sizes the page;
// neither filters.
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
	named, err := r.named(ctx, query)
	if err != nil {
		return nil, r.fail(ctx, "aiSearch", err)
	}
	if named != nil {
		iq = *named
	}
	if iq.Limit > 0 {
		n = iq.Limit
	}
	sq := store.SearchQuery{
		MinEmployees: iq.MinEmployees,
		MaxEmployees: iq.MaxEmployees,
		FoundedFrom:  iq.FoundedFrom,
		FoundedTo:    iq.FoundedTo,
		Sort:         iq.Sort,
		Limit:        n,
	}
	for _, c := range iq.Countries {
		sq.Facets.AddCountry(c)
	}
	for _, k := range iq.Categories {
		sq.Facets.AddCategory(k)
	}
	for _, c := range iq.ExcludeCountries {
		sq.Exclude.AddCountry(c)
	}
	for _, k := range iq.ExcludeCategories {
		sq.Exclude.AddCategory(k)
	}
	sq.ExactCount = iq.HowMany
	if iq.Name != "" {
		if err := r.nameFilters(ctx, &iq, &sq); err != nil {
			return nil, r.fail(ctx, "aiSearch", err)
		}
	} else if err := r.useKeywords(ctx, &iq, sq); err != nil {
		return nil, r.fail(ctx, "aiSearch", err)
	}
	sq.Keyword = strings.Join(iq.Keywords, " ")
	page, err := r.store.Search(ctx, sq)
	if err != nil {
		return nil, r.fail(ctx, "aiSearch", err)
	}
	return out(iq, sq, page), nil
}

// useKeywords leaves out of q the keywords the search could not use: each
// word no profile has, then, if no company matching the filters has all the
// others, those too (when the filters alone match some). Each is listed in
// NotApplied with its reason, so a keyword never silently empties an
// answer.
func (r *queryResolver) useKeywords(ctx context.Context, q *interpret.Query, sq store.SearchQuery) error {
	var absent []string
	for _, w := range q.Keywords {
		total, _, err := r.store.Count(ctx, store.SearchQuery{Keyword: w})
		if err != nil {
			return err
		}
		if total == 0 {
			absent = append(absent, w)
		}
	}
	q.DropKeywords(absent, "in no company profile")
	if len(q.Keywords) == 0 {
		return nil
	}
	sq.Keyword = strings.Join(q.Keywords, " ")
	with, _, err := r.store.Count(ctx, sq)
	if err != nil || with > 0 {
		return err
	}
	sq.Keyword = ""
	without, _, err := r.store.Count(ctx, sq)
	if err != nil || without == 0 {
		return err
	}
	q.DropKeywords(slices.Clone(q.Keywords), "no company matching the filters has them")
	return nil
}

// out is aiSearch's answer for the reading q, searched as sq, found page.
func out(q interpret.Query, sq store.SearchQuery, page *store.CompanyPage) *model.AiSearchResult {
	res := &model.AiSearchResult{
		Items:             toCompanies(page.Items),
		Interpretation:    q.Describe(),
		AppliedFilters:    q.Filters(),
		ExcludedFilters:   q.ExcludeFilters(),
		NotApplied:        q.NotApplied,
		Total:             page.Total,
		TotalIsLowerBound: page.TotalIsLowerBound,
		Limit:             ptr(sq.Limit),
	}
	if res.NotApplied == nil {
		res.NotApplied = []string{}
	}
	if sq.Keyword != "" {
		res.Keywords = ptr(sq.Keyword)
	}
	if q.HowMany {
		res.ExactCount = ptr(true)
	}
	if q.MinEmployees > 0 {
		res.MinEmployees = ptr(q.MinEmployees)
	}
	if q.MaxEmployees > 0 {
		res.MaxEmployees = ptr(q.MaxEmployees)
	}
	if q.FoundedFrom > 0 {
		res.FoundedAfter = ptr(q.FoundedFrom)
	}
	if q.FoundedTo > 0 {
		res.FoundedBefore = ptr(q.FoundedTo)
	}
	for gql, st := range storeSort {
		if st == sq.Sort && st != store.SortRelevance {
			res.Sort = ptr(gql)
		}
	}
	return res
}

// maxNamed bounds the company names an answer lists as matching.
const maxNamed = 5

// named reads a sentence that names a company in the data ("what does
// Kavora Health do?"): the first run of capitalised words that all of some
// company's name words contain (legal forms and "&" aside) is searched as
// the name, and the rest of the sentence as usual. It returns nil when the
// sentence names no company.
func (r *queryResolver) named(ctx context.Context, sentence string) (*interpret.Query, error) {
	for _, name := range interpret.NameCandidates(sentence) {
		terms := interpret.NameTerms(name)
		if len(terms) == 0 {
			continue
		}
		page, err := r.store.Search(ctx, store.SearchQuery{Keyword: strings.Join(terms, " "), Limit: 20})
		if err != nil {
			return nil, err
		}
		var matched []string
		for _, c := range page.Items {
			if hasAll(interpret.NameTerms(c.Name), terms) && len(matched) < maxNamed {
				matched = append(matched, c.Name)
			}
		}
		if len(matched) > 0 {
			q := interpret.ParseNamed(sentence, name, matched)
			return &q, nil
		}
	}
	return nil, nil
}

// nameFilters keeps the sentence's filters on a named company only when
// some company of that name meets them; otherwise they are listed as not
// applied and the name alone is searched, so the company asked about is
// found ("Is Kavora Health a fintech company?" finds Kavora Health, a
// health company, and says the Fintech filter was not applied).
func (r *queryResolver) nameFilters(ctx context.Context, q *interpret.Query, sq *store.SearchQuery) error {
	if sq.Facets.Empty() && sq.MinEmployees == 0 && sq.MaxEmployees == 0 && sq.FoundedFrom == 0 && sq.FoundedTo == 0 {
		return nil
	}
	probe := *sq
	probe.Keyword, probe.Limit, probe.Sort = strings.Join(q.Keywords, " "), 20, store.SortRelevance
	page, err := r.store.Search(ctx, probe)
	if err != nil {
		return err
	}
	for _, c := range page.Items {
		if hasAll(interpret.NameTerms(c.Name), q.Keywords) {
			return nil
		}
	}
	q.DropFilters("no company named " + strconv.Quote(q.Name) + " meets it")
	sq.Facets = store.Facets{}
	return nil
}

// hasAll reports whether words holds every one of terms.
func hasAll(words, terms []string) bool {
	for _, t := range terms {
		if !slices.Contains(words, t) {
			return false
		}
	}
	return true
}
