package qualify

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// The cases of search_companies' arguments beyond the original search
// (issue 26): an order, several countries, exclusions, a projection, an
// exact count and an export, each compared with the backend's own answer to
// the same search. A backend on the API's original schema has no
// exclusions, order or exact count: there the tool must name each in
// not_applied and answer as the backend does without them, never refuse or
// drop it unsaid. The projection, several countries and the export need no
// extension and answer the same on both.
func searchCases() []caseDef {
	return []caseDef{
		{"search_companies sort = searchCompanies(sort)", []string{"search_companies"}, caseSort},
		{"search_companies several countries = searchCompanies(filters)", []string{"search_companies"}, caseSeveralCountries},
		{"search_companies exclude_countries = searchCompanies(excludeFilters)", []string{"search_companies"}, caseExcludeCountries},
		{"search_companies exclude_categories = searchCompanies(excludeFilters)", []string{"search_companies"}, caseExcludeCategories},
		{"search_companies fields = searchCompanies, those fields only", []string{"search_companies"}, caseFields},
		{"search_companies count_only = searchCompanies(exactCount)", []string{"search_companies"}, caseCountOnly},
		{"search_companies export = every page of searchCompanies", []string{"search_companies"}, caseExport},
	}
}

// searchSorts are the orders caseSort runs through, one a repetition.
var searchSorts = []string{"employees_desc", "founded_asc", "name"}

func caseSort(ctx context.Context, e *env, rep int) error {
	sort := searchSorts[rep%len(searchSorts)]
	m, _, err := e.search(ctx, map[string]any{"country": e.fx.country.Code, "sort": sort, "limit": 5})
	if err != nil {
		return err
	}
	g, ext, err := e.d.searchExtended(ctx, gSearch{Filters: []string{"countries;" + e.fx.country.Value}, Sort: sortEnum(sort), Limit: 5})
	if err != nil {
		return err
	}
	if err := applied(m, "sort;"+sort, ext); err != nil {
		return err
	}
	if err := same("total", m.Total, g.Total); err != nil {
		return err
	}
	return compareList(m.Companies, g.Items)
}

// caseSeveralCountries searches two countries in one call: the backend's
// answer to both facets (ORed), whose total is the two countries' totals
// added up when each was counted exactly.
func caseSeveralCountries(ctx context.Context, e *env, _ int) error {
	a, b := e.fx.country, e.fx.second
	m, _, err := e.search(ctx, map[string]any{"country": a.Code + "," + b.Code, "limit": 10})
	if err != nil {
		return err
	}
	facets := []string{"countries;" + a.Value, "countries;" + b.Value}
	if err := same("applied_filters", m.AppliedFilters, facets); err != nil {
		return err
	}
	g, ext, err := e.d.searchExtended(ctx, gSearch{Filters: facets, Limit: 10})
	if err != nil {
		return err
	}
	if err := same("total", m.Total, g.Total); err != nil {
		return err
	}
	for _, c := range m.Companies {
		if c.CountryCode != a.Code && c.CountryCode != b.Code {
			return fmt.Errorf("%s is in %s, neither of the countries asked for", c.ID, c.CountryCode)
		}
	}
	if ext && !g.TotalIsLowerBound {
		sum := 0
		for _, f := range facets {
			one, _, err := e.d.searchExtended(ctx, gSearch{Filters: []string{f}, Limit: 1})
			if err != nil {
				return err
			}
			sum += one.Total
		}
		if err := same("total (the two countries' totals added)", m.Total, sum); err != nil {
			return err
		}
	}
	return compareList(m.Companies, g.Items)
}

func caseExcludeCountries(ctx context.Context, e *env, _ int) error {
	x := e.fx.country
	m, _, err := e.search(ctx, map[string]any{"categories": []string{e.fx.category}, "exclude_countries": x.Code, "limit": 10})
	if err != nil {
		return err
	}
	g, ext, err := e.d.searchExtended(ctx, gSearch{Filters: []string{"categories;" + e.fx.category}, Exclude: []string{"countries;" + x.Value}, Limit: 10})
	if err != nil {
		return err
	}
	if err := applied(m, "not countries;"+x.Value, ext); err != nil {
		return err
	}
	for _, c := range m.Companies {
		if ext && c.CountryCode == x.Code {
			return fmt.Errorf("%s is in %s, which was excluded", c.ID, x.Code)
		}
	}
	if err := same("total", m.Total, g.Total); err != nil {
		return err
	}
	return compareList(m.Companies, g.Items)
}

func caseExcludeCategories(ctx context.Context, e *env, _ int) error {
	cat := e.fx.category
	m, _, err := e.search(ctx, map[string]any{"country": e.fx.country.Code, "exclude_categories": []string{cat}, "limit": 10})
	if err != nil {
		return err
	}
	g, ext, err := e.d.searchExtended(ctx, gSearch{Filters: []string{"countries;" + e.fx.country.Value}, Exclude: []string{"categories;" + cat}, Limit: 10})
	if err != nil {
		return err
	}
	if err := applied(m, "not categories;"+cat, ext); err != nil {
		return err
	}
	for _, c := range m.Companies {
		if ext && slices.Contains(c.Categories, cat) {
			return fmt.Errorf("%s is in %s, which was excluded", c.ID, cat)
		}
	}
	if err := same("total", m.Total, g.Total); err != nil {
		return err
	}
	return compareList(m.Companies, g.Items)
}

// caseFields asks for two fields: each company carries its id and those
// two, equal to the backend's, and nothing else, in the structured answer
// and in the text.
func caseFields(ctx context.Context, e *env, _ int) error {
	filters := []string{"countries;" + e.fx.country.Value, "categories;" + e.fx.category}
	c, err := e.call(ctx, e.ro, "search_companies", map[string]any{"country": e.fx.country.Code, "categories": []string{e.fx.category},
		"fields": []string{"city", "employee_count"}, "limit": 5})
	if err != nil {
		return err
	}
	var m struct {
		Companies []map[string]any `json:"companies"`
		Total     int              `json:"total"`
	}
	if err := c.decode(&m); err != nil {
		return err
	}
	g, err := e.d.search(ctx, "", filters, 5, "")
	if err != nil {
		return err
	}
	if err := same("total", m.Total, g.Total); err != nil {
		return err
	}
	if len(m.Companies) != len(g.Items) {
		return fmt.Errorf("MCP returned %d companies, GraphQL %d", len(m.Companies), len(g.Items))
	}
	text := c.text()
	for i, mc := range m.Companies {
		gc := g.Items[i]
		want := map[string]any{"id": gc.ID}
		if gc.City != nil && *gc.City != "" {
			want["city"] = *gc.City
		}
		if gc.EmployeeCount != nil {
			want["employee_count"] = float64(*gc.EmployeeCount)
		}
		if err := same(fmt.Sprintf("company %d with fields city and employee_count", i), mc, want); err != nil {
			return err
		}
		if strings.Contains(text, gc.Domain) {
			return fmt.Errorf("the text shows %s's domain, which was not asked for", gc.ID)
		}
	}
	return nil
}

// commonWord is in nearly every profile ("The company was founded in …"):
// a keyword search for it matches more companies than a backend counts
// (1,000 for the embedded one), so its total is a lower bound.
const commonWord = "company"

// caseCountOnly counts a keyword search of nearly everything: the page's
// total and its lower-bound flag are the backend's, a lower bound is said
// in the note with the way to the exact count, and count_only answers the
// backend's exact count, no rows.
func caseCountOnly(ctx context.Context, e *env, _ int) error {
	x := e.fx.paging
	exclude := []string{"countries;" + x.Value}
	m, _, err := e.search(ctx, map[string]any{"query": commonWord, "exclude_countries": x.Code, "fields": []string{"name"}, "limit": 1})
	if err != nil {
		return err
	}
	g, ext, err := e.d.searchExtended(ctx, gSearch{Keyword: commonWord, Exclude: exclude, Limit: 1})
	if err != nil {
		return err
	}
	if err := same("total, total_is_lower_bound", [2]any{m.Total, m.TotalIsLowerBound}, [2]any{g.Total, g.TotalIsLowerBound}); err != nil {
		return err
	}
	if m.TotalIsLowerBound && (!strings.Contains(m.Note, fmt.Sprintf("at least %d", m.Total)) || !strings.Contains(m.Note, "count_only")) {
		return fmt.Errorf("a lower-bound total is not said as such, with the way to the exact count: %s", m.Note)
	}
	m, _, err = e.search(ctx, map[string]any{"query": commonWord, "exclude_countries": x.Code, "count_only": true})
	if err != nil {
		return err
	}
	g, ext, err = e.d.searchExtended(ctx, gSearch{Keyword: commonWord, Exclude: exclude, ExactCount: true, Limit: 1})
	if err != nil {
		return err
	}
	if err := applied(m, "count;exact", ext); err != nil {
		return err
	}
	if len(m.Companies) > 0 {
		return fmt.Errorf("count_only answered %d companies", len(m.Companies))
	}
	return same("count_only total, total_is_lower_bound", [2]any{m.Total, m.TotalIsLowerBound}, [2]any{g.Total, g.TotalIsLowerBound})
}

// caseExport exports the largest country with two fields and reads both
// files: every company of every backend page once, in the backend's order,
// with those fields and no others.
func caseExport(ctx context.Context, e *env, _ int) error {
	m, c, err := e.search(ctx, map[string]any{"country": e.fx.country.Code, "fields": []string{"name", "city"}, "export": true})
	if err != nil {
		return err
	}
	links := map[string]string{}
	for _, ct := range c.res.Content {
		switch l := ct.(type) {
		case mcp.ResourceLink:
			links[l.MIMEType] = l.URI
		case *mcp.ResourceLink:
			links[l.MIMEType] = l.URI
		}
	}
	if links["text/csv"] == "" || links["application/jsonl"] == "" {
		return fmt.Errorf("the answer links no CSV and JSON lines: %v", links)
	}
	g, err := e.d.searchAll(ctx, gSearch{Filters: []string{"countries;" + e.fx.country.Value}}, maxExportRows)
	if err != nil {
		return err
	}
	if !m.TotalIsLowerBound {
		if err := same("total", m.Total, min(len(g), maxExportRows)); err != nil {
			return err
		}
	}
	jsonl, err := e.readResource(ctx, links["application/jsonl"])
	if err != nil {
		return err
	}
	var rows []map[string]any
	for i, line := range strings.Split(strings.TrimSuffix(jsonl, "\n"), "\n") {
		var row map[string]any
		if err := json.Unmarshal([]byte(line), &row); err != nil {
			return fmt.Errorf("JSON lines, line %d: %v", i+1, err)
		}
		rows = append(rows, row)
	}
	if len(rows) != len(g) {
		return fmt.Errorf("the JSON lines hold %d companies, the backend's pages %d", len(rows), len(g))
	}
	for i, gc := range g {
		want := map[string]any{"id": gc.ID, "name": gc.Name}
		if gc.City != nil && *gc.City != "" {
			want["city"] = *gc.City
		}
		if err := same(fmt.Sprintf("JSON line %d", i+1), rows[i], want); err != nil {
			return err
		}
	}
	text, err := e.readResource(ctx, links["text/csv"])
	if err != nil {
		return err
	}
	records, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil {
		return fmt.Errorf("the CSV does not parse: %v", err)
	}
	if err := same("CSV header", records[0], []string{"id", "name", "city"}); err != nil {
		return err
	}
	if len(records)-1 != len(g) {
		return fmt.Errorf("the CSV holds %d rows, the backend's pages %d companies", len(records)-1, len(g))
	}
	for i, gc := range g {
		if records[i+1][0] != gc.ID {
			return fmt.Errorf("CSV row %d is %s, the backend's company %d is %s", i+1, records[i+1][0], i+1, gc.ID)
		}
	}
	return nil
}

// maxExportRows is the most rows an export holds (the server's
// read.MaxExportRows, restated: the suite checks the server, not itself).
const maxExportRows = 10_000

// search calls search_companies on the read-only server and decodes its
// answer.
func (e *env) search(ctx context.Context, args map[string]any) (mList, call, error) {
	c, err := e.call(ctx, e.ro, "search_companies", args)
	if err != nil {
		return mList{}, c, err
	}
	var m mList
	if err := c.decode(&m); err != nil {
		return mList{}, c, fmt.Errorf("search_companies %v: %w", args, err)
	}
	return m, c, nil
}

// readResource reads a resource's text from the read-only server.
func (e *env) readResource(ctx context.Context, uri string) (string, error) {
	res, err := e.ro.c.ReadResource(ctx, mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: uri}})
	if err != nil {
		return "", fmt.Errorf("reading %.60s…: %w", uri, err)
	}
	var b strings.Builder
	for _, c := range res.Contents {
		if t, ok := c.(mcp.TextResourceContents); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String(), nil
}
