package qualify

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// gSearch is one searchCompanies request with the schema's optional
// extensions: exclusions, an order and an exact count.
type gSearch struct {
	Keyword    string
	Filters    []string
	Exclude    []string
	Sort       string // a CompanySort value; "" sends none (relevance)
	ExactCount bool
	Limit      int
	Next       string
}

// gExtPage is a searchCompanies answer with the extension's
// totalIsLowerBound.
type gExtPage struct {
	gPage
	TotalIsLowerBound bool `json:"totalIsLowerBound"`
}

// searchExtended asks searchCompanies with the extensions s names. A backend
// on the original schema refuses that document; it is then asked the same
// search without them, as the server does, and extended is false: the
// answer is the one the server's must equal when it reports the extensions
// in not_applied.
func (d *direct) searchExtended(ctx context.Context, s gSearch) (p gExtPage, extended bool, err error) {
	vars := map[string]any{"filters": s.Filters, "limit": s.Limit}
	if s.Keyword != "" {
		vars["keyword"] = s.Keyword
	}
	if s.Next != "" {
		vars["nextToken"] = s.Next
	}
	if !d.lacksSearchExtensions {
		ext := map[string]any{"excludeFilters": s.Exclude, "exactCount": s.ExactCount}
		if s.Sort != "" {
			ext["sort"] = s.Sort
		}
		for k, v := range vars {
			ext[k] = v
		}
		var out struct {
			P gExtPage `json:"searchCompanies"`
		}
		err := d.do(ctx, `query($keyword: String, $filters: [String!], $excludeFilters: [String!], $sort: CompanySort, $exactCount: Boolean, $limit: Int, $nextToken: String) {
  searchCompanies(keyword: $keyword, filters: $filters, excludeFilters: $excludeFilters, sort: $sort, exactCount: $exactCount, limit: $limit, nextToken: $nextToken) {
    items { `+companyFields+` } nextToken total totalIsLowerBound } }`, ext, &out)
		if !unknownToSchema(err) {
			return out.P, true, err
		}
		d.lacksSearchExtensions = true
	}
	page, err := d.search(ctx, s.Keyword, s.Filters, s.Limit, s.Next)
	return gExtPage{gPage: page}, false, err
}

// searchAll pages a search to its end (at most most companies) and returns
// the companies in the backend's order.
func (d *direct) searchAll(ctx context.Context, s gSearch, most int) ([]gCompany, error) {
	s.Limit = 100
	var all []gCompany
	for len(all) < most {
		p, _, err := d.searchExtended(ctx, s)
		if err != nil {
			return nil, err
		}
		all = append(all, p.Items...)
		if p.NextToken == nil || *p.NextToken == "" || len(p.Items) == 0 {
			break
		}
		s.Next = *p.NextToken
	}
	if len(all) > most {
		all = all[:most]
	}
	return all, nil
}

// sortEnum is the backend's order for search_companies' sort value, written
// here apart from the server's own table.
func sortEnum(sort string) string {
	if sort == "name" {
		return "NAME_ASC"
	}
	return strings.ToUpper(sort)
}

// applied checks where an extension's constraint is reported: in
// applied_filters when the backend took it, in not_applied when it could
// not, and never in both or neither.
func applied(m mList, constraint string, extended bool) error {
	inApplied, inNot := slices.Contains(m.AppliedFilters, constraint), slices.Contains(m.NotApplied, constraint)
	switch {
	case extended && (!inApplied || inNot):
		return fmt.Errorf("the backend applies %q, but the answer does not say so: applied_filters %q, not_applied %q", constraint, m.AppliedFilters, m.NotApplied)
	case !extended && (inApplied || !inNot):
		return fmt.Errorf("the backend is on the original schema and cannot apply %q, but not_applied does not say so: applied_filters %q, not_applied %q", constraint, m.AppliedFilters, m.NotApplied)
	}
	return nil
}
