package graph

import (
	"context"
	"time"

	"github.com/companyintel/mcp-server/appsynclocal/dataset"
	"github.com/companyintel/mcp-server/appsynclocal/graph/model"
	"github.com/companyintel/mcp-server/appsynclocal/store"
)

// SearchCompanies is keyword search with facet filters and exclusions,
// inclusive employee-count and founding-year bounds, an order and, on
// request, an exact count.
func (r *queryResolver) SearchCompanies(ctx context.Context, keyword *string, filters []string, excludeFilters []string, minEmployees *int, maxEmployees *int, foundedAfter *int, foundedBefore *int, sort *model.CompanySort, exactCount *bool, limit *int, nextToken *string) (*model.CompanyConnection, error) {
	n, err := store.SearchLimit.Resolve(limit)
	if err != nil {
		return nil, r.fail(ctx, "searchCompanies", err)
	}
	// The store reads 0 as "no bound", so a bound of 0 or below could only
	// mean something different from what was asked: refuse it.
	for _, b := range []struct {
		name string
		v    *int
	}{{"minEmployees", minEmployees}, {"maxEmployees", maxEmployees}, {"foundedAfter", foundedAfter}, {"foundedBefore", foundedBefore}} {
		if b.v != nil && *b.v < 1 {
			return nil, r.fail(ctx, "searchCompanies", badRequest("%s must be at least 1, got %d", b.name, *b.v))
		}
	}
	facets, err := store.ParseFilters(filters)
	if err != nil {
		return nil, r.fail(ctx, "searchCompanies", err)
	}
	exclude, err := store.ParseFilters(excludeFilters)
	if err != nil {
		return nil, r.fail(ctx, "searchCompanies", err)
	}
	page, err := r.store.Search(ctx, store.SearchQuery{
		Keyword:      deref(keyword),
		Facets:       facets,
		MinEmployees: derefInt(minEmployees),
		MaxEmployees: derefInt(maxEmployees),
		FoundedFrom:  derefInt(foundedAfter),
		FoundedTo:    derefInt(foundedBefore),
		Exclude:      exclude,
		Sort:         storeSort[derefSort(sort)],
		ExactCount:   exactCount != nil && *exactCount,
		Limit:        n,
		NextToken:    deref(nextToken),
	})
	if err != nil {
		return nil, r.fail(ctx, "searchCompanies", err)
	}
	return &model.CompanyConnection{Items: toCompanies(page.Items), NextToken: token(page.NextToken),
		Total: page.Total, TotalIsLowerBound: page.TotalIsLowerBound}, nil
}

// storeSort maps the schema's orders to the store's.
var storeSort = map[model.CompanySort]store.Sort{
	model.CompanySortRelevance:     store.SortRelevance,
	model.CompanySortEmployeesDesc: store.SortEmployeesDesc,
	model.CompanySortEmployeesAsc:  store.SortEmployeesAsc,
	model.CompanySortFoundedDesc:   store.SortFoundedDesc,
	model.CompanySortFoundedAsc:    store.SortFoundedAsc,
	model.CompanySortNameAsc:       store.SortNameAsc,
}

func derefSort(s *model.CompanySort) model.CompanySort {
	if s == nil {
		return model.CompanySortRelevance
	}
	return *s
}

// GetCompany returns one company, or null.
func (r *queryResolver) GetCompany(ctx context.Context, id string) (*model.Company, error) {
	c, err := r.store.Company(ctx, id)
	if err != nil {
		return nil, r.fail(ctx, "getCompany", err)
	}
	return toCompany(c), nil
}

// GetCompanies returns up to store.MaxBatchIDs companies in the order asked,
// null where an id is unknown.
func (r *queryResolver) GetCompanies(ctx context.Context, ids []string) ([]*model.Company, error) {
	cs, err := r.store.Companies(ctx, ids)
	if err != nil {
		return nil, r.fail(ctx, "getCompanies", err)
	}
	out := make([]*model.Company, len(cs))
	for i, c := range cs {
		out[i] = toCompany(c)
	}
	return out, nil
}

// FilterVocabulary lists the filter values with their company counts, and
// the day the synthetic profiles describe.
func (r *queryResolver) FilterVocabulary(ctx context.Context) (*model.FilterVocabulary, error) {
	v, err := r.store.Vocabulary(ctx)
	if err != nil {
		return nil, r.fail(ctx, "filterVocabulary", err)
	}
	out := &model.FilterVocabulary{
		Countries:     []*model.FacetValue{},
		Categories:    []*model.FacetValue{},
		ReferenceDate: ptr(dataset.ReferenceDate.Format(time.DateOnly)),
	}
	for _, c := range v.Countries {
		out.Countries = append(out.Countries, &model.FacetValue{Value: c.Value, Code: ptr(c.Code), Count: c.Count})
	}
	for _, c := range v.Categories {
		out.Categories = append(out.Categories, &model.FacetValue{Value: c.Value, Count: c.Count})
	}
	for _, rg := range dataset.Regions {
		names := make([]string, len(rg.Codes))
		for i, code := range rg.Codes {
			c, _ := dataset.CountryByCode(code)
			names[i] = c.Name
		}
		out.Regions = append(out.Regions, &model.Region{Name: rg.Name, Countries: names, Aliases: rg.Aliases})
	}
	return out, nil
}
