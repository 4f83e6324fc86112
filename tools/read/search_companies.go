package read

import (
	"context"
	"fmt"
	"strings"

	"github.com/companyintel/mcp-server/country"
	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/tools"
)

type searchCompaniesInput struct {
	Query      string   `json:"query,omitempty" desc:"Keywords, e.g. \"warehouse robotics\"." max:"200"`
	Country    string   `json:"country,omitempty" desc:"ISO code or English name: \"US\", \"DEU\", \"United Kingdom\"." max:"100"`
	Categories []string `json:"categories,omitempty" desc:"Any of these; exact names from companies://filters." max:"10"`
	Limit      int      `json:"limit,omitempty" desc:"Page size." min:"1" max:"100" default:"20"`
	Cursor     string   `json:"cursor,omitempty" desc:"next_cursor of the previous page; keep the other arguments." max:"4096"`
}

type searchCompaniesOutput struct {
	Companies      []tools.Company `json:"companies"`
	Total          int             `json:"total"`
	NextCursor     string          `json:"next_cursor,omitempty"`
	AppliedFilters []string        `json:"applied_filters"`
	Note           string          `json:"note,omitempty"`
}

// ItemCount reports the companies returned, for the audit record.
func (o searchCompaniesOutput) ItemCount() int { return len(o.Companies) }

// NewSearchCompanies returns the search_companies tool: keyword search with
// country and category filters. Contract: at least a query or one filter; limit
// 1-100 (default 20); the country is normalised to the backend's facet form
// ("US" → "countries;United States") and an unknown one is refused with close
// matches; pagination by opaque cursor; total always given.
func NewSearchCompanies(r query.Reader) tools.Tool {
	return tools.New(tools.Spec[searchCompaniesInput, searchCompaniesOutput]{
		Name:  "search_companies",
		Title: "Search companies",
		Description: "Find companies by keywords and filters; give a query or a filter. " +
			"Every query word must match (no OR) in name, description, categories or city. " +
			"Next page: pass next_cursor as cursor. get_company gives a full profile; ai_search reads plain English.",
		Hints: readHints,
		Run: func(ctx context.Context, in searchCompaniesInput) (searchCompaniesOutput, error) {
			return searchCompanies(ctx, r, in)
		},
	})
}

func searchCompanies(ctx context.Context, r query.Reader, in searchCompaniesInput) (searchCompaniesOutput, error) {
	if in.Query == "" && in.Country == "" && len(in.Categories) == 0 {
		return searchCompaniesOutput{}, tools.Invalid("query",
			"give a query or at least one filter (country or categories); an unfiltered search returns arbitrary companies")
	}
	var notes []string
	filters := []string{}
	if in.Country != "" {
		c, ok := country.Lookup(in.Country)
		if !ok {
			return searchCompaniesOutput{}, tools.Invalid("country", unknownCountry(in.Country))
		}
		filters = append(filters, c.Facet())
		if !strings.EqualFold(in.Country, c.Name) {
			notes = append(notes, fmt.Sprintf("Country %q was read as %s.", in.Country, c.Name))
		}
	}
	for _, cat := range in.Categories {
		filters = append(filters, "categories;"+cat)
	}

	page, err := r.SearchCompanies(ctx, tools.OptionalString(in.Query), filters, &in.Limit, tools.Token(in.Cursor))
	partial, err := tools.KeepPartial(err)
	if err != nil {
		return searchCompaniesOutput{}, err
	}
	out := searchCompaniesOutput{
		Companies:      companiesFrom(page.Items),
		Total:          page.Total,
		NextCursor:     tools.Cursor(page.NextToken),
		AppliedFilters: filters,
	}
	notes = append(notes, tools.SearchPageNote(len(out.Companies), out.Total, page.TotalIsLowerBound, out.NextCursor, "companies"))
	if out.Total == 0 && len(in.Categories) > 0 {
		notes = append(notes, "Category names must match exactly; the companies://filters resource lists them.")
	}
	out.Note = tools.JoinNotes(strings.Join(notes, " "), partial.Note())
	return out, nil
}

// unknownCountry explains a country that could not be read, with close matches.
func unknownCountry(s string) string {
	msg := fmt.Sprintf("unknown country %q; give an ISO code (\"US\", \"DEU\") or an English name", tools.Excerpt(s))
	if near := country.Suggest(s, 3); len(near) > 0 {
		names := make([]string, len(near))
		for i, c := range near {
			names[i] = fmt.Sprintf("%s (%s)", c.Name, c.Alpha2)
		}
		msg += "; did you mean " + strings.Join(names, ", ") + "?"
	}
	return msg
}
