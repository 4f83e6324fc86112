package read

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/internal/country"
	"github.com/companyintel/mcp-server/tools"
	"github.com/companyintel/mcp-server/views"
)

type searchCompaniesInput struct {
	Query      string   `json:"query,omitempty" desc:"Keywords, e.g. \"warehouse robotics\"." max:"200"`
	Country    string   `json:"country,omitempty" desc:"ISO code or English name; several: \"US,CA\"." max:"300"`
	Categories []string `json:"categories,omitempty" desc:"Every company carrying any of these; names: companies://filters." max:"10"`
	ExclCntry  string   `json:"exclude_countries,omitempty" desc:"As country." max:"300"`
	ExclCats   []string `json:"exclude_categories,omitempty" desc:"Leave out." max:"10"`
	MinEmp     *int     `json:"min_employees,omitempty" desc:"Inclusive." min:"0"`
	MaxEmp     int      `json:"max_employees,omitempty" desc:"Inclusive." min:"1"`
	FoundedGE  int      `json:"founded_after,omitempty" desc:"Year, inclusive." min:"1800"`
	FoundedLE  int      `json:"founded_before,omitempty" desc:"Year, inclusive." min:"1800"`
	Sort       string   `json:"sort,omitempty" desc:"Default relevance." enum:"relevance|employees_desc|employees_asc|founded_desc|founded_asc|name"`
	Limit      int      `json:"limit,omitempty" desc:"Page size." min:"1" max:"100" default:"20"`
	Cursor     string   `json:"cursor,omitempty" desc:"Previous next_cursor." max:"4096"`
	IDsOnly    bool     `json:"ids_only,omitempty" desc:"Id and name only."`
	Fields     []string `json:"fields,omitempty" desc:"Only these beside id." enum:"name|domain|country_code|city|categories|employee_count|founded_year|description" max:"8"`
	CountOnly  bool     `json:"count_only,omitempty" desc:"Exact total, no rows."`
	Export     bool     `json:"export,omitempty" desc:"All rows as a file link."`
}

type searchCompaniesOutput struct {
	Companies      []tools.Summary `json:"companies" text:"-"`
	Total          int             `json:"total"`
	AtLeast        bool            `json:"total_is_lower_bound"`
	NextCursor     string          `json:"next_cursor,omitempty"`
	AppliedFilters []string        `json:"applied_filters"`
	NotApplied     []string        `json:"not_applied,omitempty"`
	Truncated      bool            `json:"truncated,omitempty"`
	File           *File           `json:"file,omitempty"`
	Note           string          `json:"note,omitempty"`

	at            tools.Position  // where this page was fetched
	before, after string          // the notes around the paging note
	links         exportAnswer    // export: true's links
	sent          sentSearch      // the search as sent, for an export
	sample        []tools.Summary // an export's first rows, for its size
}

// sentSearch is a search as it was sent to the backend.
type sentSearch struct {
	keyword string
	filters []string
	bounds  query.Bounds
}

// ResourceLinks implements tools.Linked: an export's links.
func (o searchCompaniesOutput) ResourceLinks() []mcp.ResourceLink { return o.links.ResourceLinks() }

// Len, Lines and Cut make the answer a tools.List.
func (o searchCompaniesOutput) Len() int        { return len(o.Companies) }
func (o searchCompaniesOutput) Lines() []string { return summaryLines(o.Companies) }
func (o searchCompaniesOutput) Cut(n, bound int) tools.List {
	o.Companies, o.Truncated, o.NextCursor = o.Companies[:n], true, o.at.After(n)
	o.Note = tools.JoinNotes(o.before, fmt.Sprintf("Showing %d of %s companies, %s; for the rest, call again with the same arguments "+
		"and cursor set to next_cursor (fields or ids_only fit more in an answer).", n, tools.Count(o.Total, o.AtLeast), cutNote(bound)), o.after)
	return o
}

// Touched names the companies returned, for the audit record.
func (o searchCompaniesOutput) Touched() tools.Touched {
	return tools.Touched{Read: tools.IDs{Companies: tools.SummaryIDs(o.Companies)}}
}

// searchCompaniesFacts are search_companies's facts; the tool registers itself with them.
var searchCompaniesFacts = tools.Facts{
	Name: "search_companies", Order: 1, Kind: tools.Read,
	Bounds: map[string]string{"limit": "1-100, default 20", "categories": "at most 10, names from " + FiltersURI},
}

var _ = registry.Add(searchCompaniesFacts, func(d Deps) tools.Tool { return newSearchCompanies(d) })

// NewSearchCompanies returns the search_companies tool: keyword search with
// country, category, employee-count and founding-year filters, exclusions,
// an order, a projection and an exact count. Contract: at least a query or
// one filter; the employee and year bounds are inclusive (founded_after 2010
// includes 2010) and a min above its max is refused before any backend call;
// limit 1-100 (default 20); countries (one, or several separated by commas)
// are normalised to the backend's facet form ("US" → "countries;United
// States") and an unknown one is refused with close matches; categories are
// checked against the filter vocabulary v (a difference of case is corrected
// and noted, anything else refused with up to five close matches) before any
// search; a real country the data has no company in is left out and noted,
// and a search of only such countries is an empty answer saying what the
// data covers, not an error. total_is_lower_bound says the total is where
// counting stopped; count_only answers the exact total and no rows.
// applied_filters names every constraint applied, not_applied every one the
// backend could not apply (exclusions, sort and exact count on the original
// schema), which the answer then does without. Pagination by opaque cursor.
func NewSearchCompanies(r query.Reader, v Vocabulary) tools.Tool {
	return newSearchCompanies(Deps{Reader: r, Vocabulary: v})
}

func newSearchCompanies(d Deps) tools.Tool {
	r, v := d.Reader, d.Vocabulary
	return tools.New(tools.Spec[searchCompaniesInput, searchCompaniesOutput]{
		Facts: searchCompaniesFacts,
		Title: "Search companies",
		Description: "Find companies by keywords (all must match), filters or both. " +
			"N largest: sort+limit. Ask only needed fields. How many: count_only. Many rows: export. " +
			"Profiles: get_company; plain English: ai_search.",
		Hints:    readHints,
		NextStep: filtersNextStep,
		Run: func(ctx context.Context, in searchCompaniesInput) (searchCompaniesOutput, error) {
			out, err := searchCompanies(ctx, r, v, in)
			if err == nil && in.Export {
				out, err = exportSearch(ctx, d, in, out)
			}
			return out, err
		},
	}).WithView(views.SearchURI)
}

func searchCompanies(ctx context.Context, r query.Reader, v Vocabulary, in searchCompaniesInput) (searchCompaniesOutput, error) {
	bounds := searchBounds(in)
	if in.Query == "" && in.Country == "" && len(in.Categories) == 0 && !bounds.Ranged() && in.ExclCntry == "" && len(in.ExclCats) == 0 {
		return searchCompaniesOutput{}, noSelection(in)
	}
	if in.MaxEmp != 0 && in.MinEmp != nil && *in.MinEmp > in.MaxEmp {
		return searchCompaniesOutput{}, tools.Invalid("min_employees",
			fmt.Sprintf("min_employees %d is above max_employees %d; give a min no larger than the max", *in.MinEmp, in.MaxEmp))
	}
	if in.FoundedGE != 0 && in.FoundedLE != 0 && in.FoundedGE > in.FoundedLE {
		return searchCompaniesOutput{}, tools.Invalid("founded_after",
			fmt.Sprintf("founded_after %d is later than founded_before %d; both years are inclusive, so give after ≤ before", in.FoundedGE, in.FoundedLE))
	}
	if in.Export && (in.CountOnly || in.Cursor != "") {
		return searchCompaniesOutput{}, tools.Invalid("export", "an export is every row from the first: give it without count_only and cursor")
	}
	if in.IDsOnly && len(in.Fields) > 0 {
		return searchCompaniesOutput{}, tools.Invalid("fields", "give fields or ids_only, not both: ids_only is fields left empty")
	}
	at, err := tools.ParseCursor(in.Cursor)
	if err == nil {
		err = at.Fits(in.Limit)
	}
	if err != nil {
		return searchCompaniesOutput{}, err
	}
	want, notes, bad := readCountries("country", in.Country)
	if bad != nil {
		return searchCompaniesOutput{}, bad
	}
	unwanted, exclNotes, bad := readCountries("exclude_countries", in.ExclCntry)
	if bad != nil {
		return searchCompaniesOutput{}, bad
	}
	notes = append(notes, exclNotes...)
	var voc *query.Vocabulary
	if len(want) > 0 || len(unwanted) > 0 || len(in.Categories) > 0 || len(in.ExclCats) > 0 {
		var unread string
		voc, unread = readVocabulary(ctx, v)
		notes = append(notes, unread)
	}
	categories, catNotes, refused := matchCategories(in.Categories, voc)
	exclCats, exclCatNotes, exclRefused := matchCategories(in.ExclCats, voc)
	for _, f := range exclRefused {
		f.Field = "exclude_categories"
		refused = append(refused, f)
	}
	if len(refused) > 0 {
		return searchCompaniesOutput{}, tools.InvalidFields(refused)
	}
	notes = append(notes, catNotes...)
	notes = append(notes, exclCatNotes...)

	filters, absent := facets(want, voc)
	filters = append([]string{}, filters...) // sent as [], never null
	// A country without companies is applied too: it is why none of its
	// companies are listed.
	var applied []string
	for _, c := range want {
		applied = append(applied, c.Facet())
	}
	for _, cat := range categories {
		filters = append(filters, "categories;"+cat)
		applied = append(applied, "categories;"+cat)
	}
	// A country without companies has none to leave out: excluding it is
	// applied by not sending it, which the backend would refuse.
	exclude, _ := facets(unwanted, voc)
	for _, cat := range exclCats {
		exclude = append(exclude, "categories;"+cat)
	}
	for _, c := range unwanted {
		applied = append(applied, "not "+c.Facet())
	}
	for _, cat := range exclCats {
		applied = append(applied, "not categories;"+cat)
	}
	keyword, ranges, refined := constraints(in)
	applied = append(append(keyword, applied...), ranges...)

	if len(absent) > 0 {
		notes = append(notes, notCoveredNote(absent, voc, len(want) > len(absent)))
		if len(want) == len(absent) {
			// Nothing to ask the backend: it would refuse a country it
			// has no company in, and "invalid" would mislead about a
			// real country.
			return searchCompaniesOutput{Companies: []tools.Summary{}, AppliedFilters: append(applied, refined...),
				Note: tools.JoinNotes(notes...)}, nil
		}
	}

	bounds.Exclude, bounds.Sort, bounds.ExactCount = exclude, sortArg[in.Sort], in.CountOnly || in.Export
	limit := in.Limit
	if in.CountOnly || in.Export {
		limit, at = 1, tools.Position{}
	}
	if in.Export {
		limit = exportSample // a sample of rows, for the file's size
	}
	page, err := r.SearchCompanies(ctx, tools.OptionalString(in.Query), filters, bounds, &limit, at.Token)
	if errors.Is(err, query.ErrBoundsUnsupported) {
		return searchCompaniesOutput{}, boundsUnsupported(in)
	}
	partial, err := tools.KeepPartial(err)
	if err != nil {
		return searchCompaniesOutput{}, err
	}
	var notApplied []string
	if bounds.Refined() && searchTakesNoBounds(r) {
		for _, c := range unwanted {
			notApplied = append(notApplied, "not "+c.Facet())
		}
		for _, cat := range exclCats {
			notApplied = append(notApplied, "not categories;"+cat)
		}
		notApplied = append(notApplied, refined...)
		applied = slices.DeleteFunc(applied, func(a string) bool { return strings.HasPrefix(a, "not ") })
	} else {
		applied = append(applied, refined...)
	}
	out := searchCompaniesOutput{
		Companies:      []tools.Summary{},
		Total:          page.Total,
		AtLeast:        page.TotalIsLowerBound,
		AppliedFilters: applied,
		NotApplied:     notApplied,
		at:             at,
		before:         tools.JoinNotes(tools.JoinNotes(notes...), notAppliedNote(notApplied)),
	}
	out.sent = sentSearch{keyword: in.Query, filters: filters, bounds: bounds}
	if in.Export {
		out.sample = summariesFrom(page.Items, tools.DetailSummary)
	}
	if in.CountOnly || in.Export {
		out.after = partial.Note()
		out.Note = tools.JoinNotes(out.before, countNote(out.Total, out.AtLeast), out.after)
		return out, nil
	}
	items := page.Items[min(at.Skip, len(page.Items)):]
	out.Companies = project(summariesFrom(items, detail(in.IDsOnly)), in.Fields)
	out.NextCursor = at.Next(page.NextToken)
	if out.Total == 0 && len(filters) > 0 {
		out.after = emptyNote(voc, want, categories)
	}
	if out.AtLeast {
		out.after = tools.JoinNotes(out.after, exactCountHint)
	}
	out.after = tools.JoinNotes(out.after, partial.Note())
	out.Note = tools.JoinNotes(out.before, tools.SearchPageNote(len(out.Companies), out.Total, out.AtLeast, out.NextCursor, "companies"), out.after)
	return out, nil
}

// project keeps the fields asked for; none asked for keeps the summary.
func project(s []tools.Summary, fields []string) []tools.Summary {
	if len(fields) == 0 {
		return s
	}
	cols := tools.ParseColumns(fields)
	for i := range s {
		s[i] = s[i].Project(cols)
	}
	return s
}

// countNote states a count_only answer.
func countNote(total int, atLeast bool) string {
	if atLeast {
		return fmt.Sprintf("At least %d companies match; this data API could not count them exactly.", total)
	}
	return fmt.Sprintf("Exactly %d companies match (count_only: no rows).", total)
}

// searchBounds turns the range arguments into the backend's bounds; 0 is an
// absent argument, except min_employees, which the schema allows to be 0:
// a lower bound of 0 is still a filter (the companies whose head count is
// known, any size), which the backend, taking bounds of 1 and more, is
// sent as the ceiling below for the maximum when no maximum was given.
// A bound past any company is held to these ceilings, which select the same
// companies: the schema spends no catalogue bytes on maxima, and the backend
// gets a 32-bit Int whatever was sent.
func searchBounds(in searchCompaniesInput) query.Bounds {
	opt := func(n, ceiling int) *int {
		if n == 0 {
			return nil
		}
		n = min(n, ceiling)
		return &n
	}
	b := query.Bounds{MaxEmployees: opt(in.MaxEmp, maxEmployees),
		FoundedAfter: opt(in.FoundedGE, maxYear), FoundedBefore: opt(in.FoundedLE, maxYear)}
	switch {
	case in.MinEmp == nil:
	case *in.MinEmp > 0:
		b.MinEmployees = opt(*in.MinEmp, maxEmployees)
	case b.MaxEmployees == nil:
		b.MaxEmployees = opt(maxEmployees, maxEmployees)
	}
	return b
}

// noSelection refuses a search with neither a query nor a filter, for the
// reason that fits what the call asked: a count, an export or an order has
// its own words, and only a plain page is "arbitrary companies".
func noSelection(in searchCompaniesInput) *tools.Error {
	const give = "give a query or at least one filter (country, categories, exclusions, employees or founding year)"
	switch {
	case in.CountOnly:
		return tools.Invalid("query", "count_only counts the companies a query or filter selects, and this call gives neither; "+
			give+"; "+FiltersURI+" has how many companies each country and category holds")
	case in.Export:
		return tools.Invalid("query", "an export is of the companies a query or filter selects, and this call gives neither; "+give)
	case sortArg[in.Sort] != "":
		return tools.Invalid("query", "sort orders the companies a query or filter selects, and this call gives neither; "+
			give+": e.g. the largest in a country is country with sort employees_desc")
	}
	return tools.Invalid("query", give+"; without either, a page would be arbitrary companies")
}

// The ceilings of searchBounds: more employees than any company has, a
// year after any founding.
const (
	maxEmployees = 10_000_000
	maxYear      = 2100
)

// boundsUnsupported refuses the employee and founding-year bounds of a
// backend whose searchCompanies has no such arguments (the API's original
// schema). It is invalid_arguments, though the arguments are well formed:
// the class asks the caller to change the arguments it names, which is the
// one thing that helps here, whereas backend_error would invite a retry that
// fails the same way. The message says it is this data API's limit, and the
// bounds are never dropped silently: a search without them answers another
// question.
func boundsUnsupported(in searchCompaniesInput) *tools.Error {
	const problem = "this data API does not support employee-count or founding-year filters"
	var fields []tools.FieldError
	var names []string
	for _, b := range []struct {
		name string
		set  bool
	}{{"min_employees", in.MinEmp != nil}, {"max_employees", in.MaxEmp != 0}, {"founded_after", in.FoundedGE != 0}, {"founded_before", in.FoundedLE != 0}} {
		if b.set {
			fields = append(fields, tools.FieldError{Field: b.name, Problem: problem})
			names = append(names, b.name)
		}
	}
	return &tools.Error{
		Class: tools.InvalidArguments,
		Message: problem + " (a limit of the backend, not a mistake in the call), so nothing was searched: drop " +
			strings.Join(names, ", ") + " and search by query, country or categories, then keep the companies whose " +
			"employee_count or founded_year fits; or describe the size in plain words to ai_search",
		Fields: fields,
	}
}

// unknownCountry refuses a country that could not be read, with close
// matches.
func unknownCountry(field, s string) *tools.Error {
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
	return tools.InvalidFields([]tools.FieldError{{Field: field, Problem: problem, DidYouMean: names}})
}

// exportSearch turns a counted search into an export answer: the links to
// its rows, sealed for the caller. A search the backend could not apply
// whole (not_applied) is not exported: the file would hold other companies
// than it names.
func exportSearch(ctx context.Context, d Deps, in searchCompaniesInput, out searchCompaniesOutput) (searchCompaniesOutput, error) {
	if d.Exports == nil {
		return out, tools.Invalid("export", "this server offers no exports; page with cursor, with fields or ids_only to fit more in an answer")
	}
	if len(out.NotApplied) > 0 {
		return out, tools.Invalid("export", "this data API cannot apply "+strings.Join(out.NotApplied, ", ")+
			", so an export would hold other companies than the search names; export without them, or page with cursor")
	}
	if out.Total == 0 {
		return out, nil // the note already says none match
	}
	caller, _ := tools.CallerFrom(ctx)
	now := time.Now
	if d.Now != nil {
		now = d.Now
	}
	b := out.sent.bounds
	spec := exportSpec{Caller: caller.ID, Expires: now().Add(exportTTL).Unix(), Keyword: out.sent.keyword, Filters: out.sent.filters,
		Exclude: b.Exclude, MinEmp: b.MinEmployees, MaxEmp: b.MaxEmployees, FromYr: b.FoundedAfter, ToYr: b.FoundedBefore,
		Sort: string(b.Sort), Fields: in.Fields}
	if in.IDsOnly {
		spec.Fields = []string{"name"}
	}
	csvURI, jsonlURI, err := exportLinks(d.Exports, spec)
	if err != nil {
		return out, err
	}
	rows := min(out.Total, MaxExportRows)
	out.links = exportAnswer{csv: csvURI, jsonl: jsonlURI, bytes: estimateRow(out.sample, spec.Fields) * int64(rows)}
	out.AppliedFilters = slices.DeleteFunc(out.AppliedFilters, func(a string) bool { return a == "count;exact" })
	var file *File
	why := "this server makes no file for the person"
	if d.Delivery != nil {
		dl := Download{spec: spec, reader: d.Reader, sealer: d.Exports, Rows: rows, RowsAtLeast: out.AtLeast,
			RowBytes: int(estimateRow(out.sample, spec.Fields)), Query: in.Query}
		dl.spec.Method, dl.spec.Issuer, dl.spec.User, dl.spec.Scopes, dl.spec.Scoped = caller.AuthMethod, caller.Issuer, caller.User, caller.Scopes, caller.Scoped
		f, w, err := d.Delivery.Deliver(ctx, dl)
		if err != nil {
			return out, err
		}
		if f.URL != "" {
			file = &f
			out.links.file = f
		}
		why = w
	}
	out.File = file
	out.Note = tools.JoinNotes(out.before, exportNote(out.Total, out.AtLeast, csvURI, file, why), out.after)
	return out, nil
}
