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
	MinEmp     int      `json:"min_employees,omitempty" desc:"Inclusive." min:"0" max:"10000000"`
	MaxEmp     int      `json:"max_employees,omitempty" desc:"Inclusive." min:"1" max:"10000000"`
	FoundedGE  int      `json:"founded_after,omitempty" desc:"Year, inclusive." min:"1800" max:"2100"`
	FoundedLE  int      `json:"founded_before,omitempty" desc:"Year, inclusive." min:"1800" max:"2100"`
	Limit      int      `json:"limit,omitempty" desc:"Page size." min:"1" max:"100" default:"20"`
	Cursor     string   `json:"cursor,omitempty" desc:"Previous next_cursor; keep the other arguments." max:"4096"`
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

// Touched names the companies returned, for the audit record.
func (o searchCompaniesOutput) Touched() tools.Touched {
	return tools.Touched{Read: tools.IDs{Companies: tools.CompanyIDs(o.Companies)}}
}

// NewSearchCompanies returns the search_companies tool: keyword search with
// country, category, employee-count and founding-year filters. Contract: at
// least a query or one filter; the employee and year bounds are inclusive
// (founded_after 2010 includes 2010) and a min above its max is refused before
// any backend call; limit 1-100 (default 20); the country is normalised to
// the backend's facet form ("US" → "countries;United States") and an unknown
// one is refused with close matches; categories are checked against the
// filter vocabulary v (a difference of case is corrected and noted, anything
// else refused with up to five close matches) before any search; a real
// country the data has no company in is an empty answer saying what the data
// covers, not an error. Pagination by opaque cursor; total always given.
func NewSearchCompanies(r query.Reader, v Vocabulary) tools.Tool {
	return tools.New(tools.Spec[searchCompaniesInput, searchCompaniesOutput]{
		Name:  "search_companies",
		Title: "Search companies",
		Description: "Find companies by keywords, filters or both. " +
			"All query words must match (no OR): name, description, categories, city. " +
			"Full profile: get_company; plain English: ai_search.",
		Hints:    readHints,
		NextStep: filtersNextStep,
		Run: func(ctx context.Context, in searchCompaniesInput) (searchCompaniesOutput, error) {
			return searchCompanies(ctx, r, v, in)
		},
	})
}

func searchCompanies(ctx context.Context, r query.Reader, v Vocabulary, in searchCompaniesInput) (searchCompaniesOutput, error) {
	bounds := searchBounds(in)
	if in.Query == "" && in.Country == "" && len(in.Categories) == 0 && bounds == (query.Bounds{}) {
		return searchCompaniesOutput{}, tools.Invalid("query",
			"give a query or at least one filter (country, categories, employees or founding year); an unfiltered search returns arbitrary companies")
	}
	if in.MaxEmp != 0 && in.MinEmp > in.MaxEmp {
		return searchCompaniesOutput{}, tools.Invalid("min_employees",
			fmt.Sprintf("min_employees %d is above max_employees %d; give a min no larger than the max", in.MinEmp, in.MaxEmp))
	}
	if in.FoundedGE != 0 && in.FoundedLE != 0 && in.FoundedGE > in.FoundedLE {
		return searchCompaniesOutput{}, tools.Invalid("founded_after",
			fmt.Sprintf("founded_after %d is later than founded_before %d; both years are inclusive, so give after ≤ before", in.FoundedGE, in.FoundedLE))
	}
	var notes []string
	filters := []string{}
	var want *country.Country
	if in.Country != "" {
		c, ok := country.Lookup(in.Country)
		if !ok {
			return searchCompaniesOutput{}, unknownCountry(in.Country)
		}
		want = &c
		filters = append(filters, c.Facet())
		if !strings.EqualFold(in.Country, c.Name) {
			notes = append(notes, fmt.Sprintf("Country %q was read as %s.", in.Country, c.Name))
		}
	}
	var voc *query.Vocabulary
	if want != nil || len(in.Categories) > 0 {
		var unread string
		voc, unread = readVocabulary(ctx, v)
		notes = append(notes, unread)
	}
	categories, catNotes, refused := matchCategories(in.Categories, voc)
	if len(refused) > 0 {
		return searchCompaniesOutput{}, tools.InvalidFields(refused)
	}
	notes = append(notes, catNotes...)
	for _, cat := range categories {
		filters = append(filters, "categories;"+cat)
	}
	if voc != nil && want != nil && !covers(voc, *want) {
		// Nothing to ask the backend: it would refuse a country it has no
		// company in, and "invalid" would mislead about a real country.
		notes = append(notes, notCoveredNote(*want, voc))
		return searchCompaniesOutput{Companies: []tools.Company{}, AppliedFilters: filters, Note: tools.JoinNotes(notes...)}, nil
	}

	page, err := r.SearchCompanies(ctx, tools.OptionalString(in.Query), filters, bounds, &in.Limit, tools.Token(in.Cursor))
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
	if out.Total == 0 && len(filters) > 0 {
		notes = append(notes, emptyNote(voc, want, categories))
	}
	out.Note = tools.JoinNotes(append(notes, partial.Note())...)
	return out, nil
}

// searchBounds turns the range arguments into the backend's bounds; 0 is an
// absent argument (min_employees 0 bounds nothing, so it is absent too).
func searchBounds(in searchCompaniesInput) query.Bounds {
	opt := func(n int) *int {
		if n == 0 {
			return nil
		}
		return &n
	}
	return query.Bounds{MinEmployees: opt(in.MinEmp), MaxEmployees: opt(in.MaxEmp),
		FoundedAfter: opt(in.FoundedGE), FoundedBefore: opt(in.FoundedLE)}
}

// unknownCountry refuses a country that could not be read, with close
// matches.
func unknownCountry(s string) *tools.Error {
	problem := fmt.Sprintf("unknown country %q; give an ISO code (\"US\", \"DEU\") or an English name", tools.Excerpt(s))
	near := country.Suggest(s, 3)
	var names []string
	if len(near) > 0 {
		labels := make([]string, len(near))
		for i, c := range near {
			labels[i] = fmt.Sprintf("%s (%s)", c.Name, c.Alpha2)
			names = append(names, c.Name)
		}
		problem += "; did you mean " + strings.Join(labels, ", ") + "?"
	}
	problem += " " + FiltersURI + " lists the countries the data covers"
	return tools.InvalidFields([]tools.FieldError{{Field: "country", Problem: problem, DidYouMean: names}})
}
