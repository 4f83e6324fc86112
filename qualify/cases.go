package qualify

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// A case is one check, run Options.Repeat times. tools names the tools it
// exercises over MCP, for the coverage line of the report.
type caseDef struct {
	name  string
	tools []string
	run   func(ctx context.Context, e *env, rep int) error
}

// The answers' shapes as the tools give them, reduced to what is compared.
type (
	mCompany struct {
		ID            string   `json:"id"`
		Name          string   `json:"name"`
		Domain        string   `json:"domain"`
		CountryCode   string   `json:"country_code"`
		City          string   `json:"city"`
		Categories    []string `json:"categories"`
		EmployeeCount *int     `json:"employee_count"`
		FoundedYear   *int     `json:"founded_year"`
	}
	mList struct {
		Companies      []mCompany `json:"companies"`
		Total          int        `json:"total"`
		NextCursor     string     `json:"next_cursor"`
		Truncated      bool       `json:"truncated"`
		AppliedFilters []string   `json:"applied_filters"`
		NotApplied     []string   `json:"not_applied"`
		NotFound       []string   `json:"not_found"`
		Note           string     `json:"note"`
		// TotalIsLowerBound is search_companies' flag that total is
		// where counting stopped.
		TotalIsLowerBound bool `json:"total_is_lower_bound"`
	}
	// mAiSearch is ai_search's answer: a list, and what the request was
	// read as.
	mAiSearch struct {
		mList
		Interpreted struct {
			Keywords      string   `json:"keywords"`
			Countries     []string `json:"countries"`
			Categories    []string `json:"categories"`
			MinEmployees  *int     `json:"min_employees"`
			MaxEmployees  *int     `json:"max_employees"`
			FoundedAfter  *int     `json:"founded_after"`
			FoundedBefore *int     `json:"founded_before"`
		} `json:"interpreted"`
		NotApplied []string `json:"not_applied"`
	}
	mCollection struct {
		ID        string `json:"id"`
		Name      string `json:"name"`
		ItemCount int    `json:"item_count"`
	}
	mCollections struct {
		Collections []mCollection `json:"collections"`
		Total       int           `json:"total"`
		NextCursor  string        `json:"next_cursor"`
	}
	mItems struct {
		Collection mCollection `json:"collection"`
		Items      []struct {
			// A summary record either nests the company or is it.
			Company *mCompany `json:"company"`
			ID      string    `json:"id"`
		} `json:"items"`
		Total      int    `json:"total"`
		NextCursor string `json:"next_cursor"`
	}
	mWrite struct {
		Collection     mCollection `json:"collection"`
		Created        bool        `json:"created"`
		Added          []string    `json:"added"`
		AlreadyPresent []string    `json:"already_present"`
		NotFound       []string    `json:"not_found"`
		Removed        []string    `json:"removed"`
		NotPresent     []string    `json:"not_present"`
	}
	mJob struct {
		Job struct {
			ID        string   `json:"id"`
			CompanyID string   `json:"company_id"`
			Roles     []string `json:"roles"`
		} `json:"job"`
	}
)

// itemIDs are the company ids of a page of collection items.
func (m mItems) itemIDs() []string {
	ids := make([]string, len(m.Items))
	for i, it := range m.Items {
		if it.Company != nil {
			ids[i] = it.Company.ID
		} else {
			ids[i] = it.ID
		}
	}
	return ids
}

// missingID names no company, in any data set.
const missingID = "cmp_qualify_no_such_company"

// same fails when the MCP answer and the direct one differ on what.
func same(what string, viaMCP, viaGraphQL any) error {
	if reflect.DeepEqual(viaMCP, viaGraphQL) {
		return nil
	}
	return fmt.Errorf("%s differs: MCP %v, GraphQL %v", what, viaMCP, viaGraphQL)
}

// compareList compares the companies of a list answer, in order, on every
// field of a summary record.
func compareList(m []mCompany, g []gCompany) error {
	if len(m) != len(g) {
		return fmt.Errorf("MCP returned %d companies, GraphQL %d", len(m), len(g))
	}
	for i := range m {
		if err := compareFull(m[i], g[i]); err != nil {
			return fmt.Errorf("company %d (%s): %w", i, g[i].ID, err)
		}
	}
	return nil
}

// compareFull compares one company on the fields of a summary record, which
// a full profile carries too: id, name, domain, country code, city,
// categories, employee count, founding year.
func compareFull(m mCompany, g gCompany) error {
	if err := same("id, name, country_code", [3]string{m.ID, m.Name, m.CountryCode}, [3]string{g.ID, g.Name, g.CountryCode}); err != nil {
		return err
	}
	city := ""
	if g.City != nil {
		city = *g.City
	}
	if err := same("city", m.City, city); err != nil {
		return err
	}
	if err := same("domain", m.Domain, g.Domain); err != nil {
		return err
	}
	if err := same("categories", nonNil(m.Categories), nonNil(g.Categories)); err != nil {
		return err
	}
	if err := same("employee_count", deref(m.EmployeeCount), deref(g.EmployeeCount)); err != nil {
		return err
	}
	return same("founded_year", deref(m.FoundedYear), deref(g.FoundedYear))
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func derefString(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

// refused checks that a call was refused with the class given.
func refused(c call, class string) error {
	if !c.res.IsError {
		return fmt.Errorf("want a %s refusal, got a result", class)
	}
	if got := c.class(); got != class {
		return fmt.Errorf("want class %s, got %q: %s", class, got, c.text())
	}
	return nil
}

// cases lists every check of the suite: search_companies' extended
// arguments (searchCases) right after its plain search.
func cases() []caseDef {
	return slices.Insert([]caseDef{
		{"search_companies = searchCompanies", []string{"search_companies"}, caseSearch},
		{"get_company = getCompany", []string{"get_company"}, caseGetCompany},
		{"get_companies_batch = getCompanies", []string{"get_companies_batch"}, caseBatch},
		{"ai_search = aiSearch", []string{"ai_search"}, caseAiSearch},
		{"list_collections = listCollections", []string{"list_collections"}, caseListCollections},
		{"get_collection_items = getCollectionItems", []string{"get_collection_items"}, caseItems},
		{"create_collection = createCollection", []string{"create_collection"}, caseCreate},
		{"add_to_collection = addToCollection", []string{"add_to_collection"}, caseAdd},
		{"request_email_discovery = requestEmailDiscovery", []string{"request_email_discovery"}, caseEmail},
		{"remove_from_collection = removeFromCollection", []string{"remove_from_collection"}, caseRemove},
		{"refusal: writes off → mutations_disabled", []string{"create_collection", "add_to_collection", "request_email_discovery", "remove_from_collection"}, caseWritesOff},
		{"refusal: bad arguments → invalid_arguments", []string{"search_companies", "get_company", "create_collection", "ai_search"}, caseBadArguments},
		{"refusal: over the limit → rate_limited", []string{"get_company"}, caseRateLimited},
		{"paging: search_companies visits total once each", []string{"search_companies"}, casePagingSearch},
		{"paging: get_collection_items visits total once each", []string{"get_collection_items"}, casePagingItems},
		{"paging: search_companies limit=100, cut by the answer bound, visits total once each", []string{"search_companies"}, casePagingBounded},
		{"round trip: search → get_company → create (dry run, then real) → add (dry run, then real) → items", []string{"search_companies", "get_company", "create_collection", "add_to_collection", "get_collection_items"}, caseRoundTrip},
	}, 1, searchCases()...)
}

func caseSearch(ctx context.Context, e *env, _ int) error {
	c, err := e.call(ctx, e.ro, "search_companies", map[string]any{"country": e.fx.country.Code, "categories": []string{e.fx.category}, "limit": 5})
	if err != nil {
		return err
	}
	var m mList
	if err := c.decode(&m); err != nil {
		return err
	}
	g, err := e.d.search(ctx, "", []string{"countries;" + e.fx.country.Value, "categories;" + e.fx.category}, 5, "")
	if err != nil {
		return err
	}
	if err := same("total", m.Total, g.Total); err != nil {
		return err
	}
	return compareList(m.Companies, g.Items)
}

func caseGetCompany(ctx context.Context, e *env, rep int) error {
	id := e.fx.ids[rep%len(e.fx.ids)]
	c, err := e.call(ctx, e.ro, "get_company", map[string]any{"id": id})
	if err != nil {
		return err
	}
	var m struct {
		Company mCompany `json:"company"`
	}
	if err := c.decode(&m); err != nil {
		return err
	}
	g, err := e.d.company(ctx, id)
	if err != nil {
		return err
	}
	if g == nil {
		return fmt.Errorf("getCompany(%s) found nothing", id)
	}
	return compareFull(m.Company, *g)
}

func caseBatch(ctx context.Context, e *env, _ int) error {
	ids := append(slices.Clone(e.fx.ids[:3]), missingID)
	c, err := e.call(ctx, e.ro, "get_companies_batch", map[string]any{"ids": ids})
	if err != nil {
		return err
	}
	var m mList
	if err := c.decode(&m); err != nil {
		return err
	}
	g, err := e.d.companies(ctx, ids)
	if err != nil {
		return err
	}
	var found []gCompany
	var missing []string
	for i, gc := range g {
		if gc == nil {
			missing = append(missing, ids[i])
		} else {
			found = append(found, *gc)
		}
	}
	if err := same("not_found", nonNil(m.NotFound), nonNil(missing)); err != nil {
		return err
	}
	if m.Truncated && len(m.Companies) < len(found) {
		// Profiles grow with every run's contacts; past the answer bound
		// the note names the ids left out, to be asked for again.
		for _, gc := range found[len(m.Companies):] {
			if !strings.Contains(m.Note, gc.ID) {
				return fmt.Errorf("a cut batch's note does not name %s, left out: %s", gc.ID, m.Note)
			}
		}
		found = found[:len(m.Companies)]
	}
	return compareList(m.Companies, found)
}

func caseAiSearch(ctx context.Context, e *env, _ int) error {
	q := fmt.Sprintf("%s companies in %s with over 5 employees founded after 1990", e.fx.category, e.fx.country.Value)
	c, err := e.call(ctx, e.ro, "ai_search", map[string]any{"query": q, "limit": 5})
	if err != nil {
		return err
	}
	var m mAiSearch
	if err := c.decode(&m); err != nil {
		return err
	}
	g, err := e.d.aiSearch(ctx, q, 5)
	if err != nil {
		return err
	}
	if err := same("total", m.Total, g.Total); err != nil {
		return err
	}
	// The interpretation, field by field, as the backend gave it.
	in := m.Interpreted
	var filters []string
	for _, c := range in.Countries {
		filters = append(filters, "countries;"+c)
	}
	for _, c := range in.Categories {
		filters = append(filters, "categories;"+c)
	}
	for _, f := range []struct {
		name      string
		got, want any
	}{
		{"interpreted countries and categories", nonNil(filters), nonNil(g.AppliedFilters)},
		{"interpreted.keywords", in.Keywords, derefString(g.Keywords)},
		{"interpreted.min_employees", deref(in.MinEmployees), deref(g.MinEmployees)},
		{"interpreted.max_employees", deref(in.MaxEmployees), deref(g.MaxEmployees)},
		{"interpreted.founded_after", deref(in.FoundedAfter), deref(g.FoundedAfter)},
		{"interpreted.founded_before", deref(in.FoundedBefore), deref(g.FoundedBefore)},
		{"not_applied", nonNil(m.NotApplied), nonNil(g.NotApplied)},
	} {
		if err := same(f.name, f.got, f.want); err != nil {
			return err
		}
	}
	return compareList(m.Companies, g.Items)
}

// caseListCollections compares the first hundred collections. A page of a
// hundred may be cut by the answer bound (each run adds collections), so it
// follows next_cursor until it has as many as the direct answer.
func caseListCollections(ctx context.Context, e *env, _ int) error {
	g, err := e.d.collections(ctx, 100)
	if err != nil {
		return err
	}
	args := map[string]any{"limit": 100}
	var got []mCollection
	for page := 0; len(got) < len(g.Items); page++ {
		if page > 100 {
			return fmt.Errorf("more than 100 pages for %d collections", len(g.Items))
		}
		c, err := e.call(ctx, e.ro, "list_collections", args)
		if err != nil {
			return err
		}
		var m mCollections
		if err := c.decode(&m); err != nil {
			return err
		}
		if err := same("total", m.Total, g.Total); err != nil {
			return err
		}
		got = append(got, m.Collections...)
		if m.NextCursor == "" {
			break
		}
		args["cursor"] = m.NextCursor
	}
	gc := make([]mCollection, len(g.Items))
	for i, it := range g.Items {
		gc[i] = mCollection(it)
	}
	return same("collections", got[:min(len(got), len(gc))], gc)
}

func caseItems(ctx context.Context, e *env, _ int) error {
	c, err := e.call(ctx, e.ro, "get_collection_items", map[string]any{"collection_id": e.fx.collection, "limit": 100})
	if err != nil {
		return err
	}
	var m mItems
	if err := c.decode(&m); err != nil {
		return err
	}
	g, err := e.d.items(ctx, e.fx.collection, 100)
	if err != nil {
		return err
	}
	if err := same("collection", m.Collection, mCollection(g.Collection)); err != nil {
		return err
	}
	if err := same("total", m.Total, g.Total); err != nil {
		return err
	}
	gids := make([]string, len(g.Items))
	for i, it := range g.Items {
		gids[i] = it.Company.ID
	}
	if err := same("item ids", m.itemIDs(), gids); err != nil {
		return err
	}
	for i, it := range m.Items {
		if it.Company == nil {
			return fmt.Errorf("item %d carries no company summary", i)
		}
		if err := compareFull(*it.Company, g.Items[i].Company); err != nil {
			return fmt.Errorf("item %d: %w", i, err)
		}
	}
	return nil
}

// caseCreate creates a collection over MCP, then asks the backend to create
// the same name: it must answer with that collection, already existing.
func caseCreate(ctx context.Context, e *env, rep int) error {
	name := fmt.Sprintf("qualify %s create %d", e.runID, rep)
	c, err := e.call(ctx, e.rw, "create_collection", map[string]any{"name": name})
	if err != nil {
		return err
	}
	var m mWrite
	if err := c.decode(&m); err != nil {
		return err
	}
	if !m.Created {
		return fmt.Errorf("create_collection %q: created false for a new name", name)
	}
	g, err := e.d.createCollection(ctx, name)
	if err != nil {
		return err
	}
	if g.Created {
		return fmt.Errorf("createCollection %q created a second collection after create_collection", name)
	}
	return same("collection", m.Collection, mCollection(g.Collection))
}

// caseAdd adds over MCP, then the same ids directly: what MCP added is
// already present, what it did not find is still not found.
func caseAdd(ctx context.Context, e *env, rep int) error {
	g0, err := e.d.createCollection(ctx, fmt.Sprintf("qualify %s add %d", e.runID, rep))
	if err != nil {
		return err
	}
	ids := append(slices.Clone(e.fx.ids[:2]), missingID)
	c, err := e.call(ctx, e.rw, "add_to_collection", map[string]any{"collection_id": g0.Collection.ID, "company_ids": ids})
	if err != nil {
		return err
	}
	var m mWrite
	if err := c.decode(&m); err != nil {
		return err
	}
	g, err := e.d.add(ctx, g0.Collection.ID, ids)
	if err != nil {
		return err
	}
	if err := same("added (MCP) = already present (GraphQL after)", sorted(m.Added), sorted(g.AlreadyPresent)); err != nil {
		return err
	}
	if err := same("not_found", sorted(m.NotFound), sorted(g.NotFound)); err != nil {
		return err
	}
	return same("collection", m.Collection, mCollection(g.Collection))
}

// caseRemove removes over MCP, then the same ids directly: what MCP removed
// is no longer present, what was never there is not present either, and the
// collection is the same on both sides. A backend on the API's original
// schema has no removeFromCollection: the tool must then refuse the call as
// backend_error, and the collection must keep its companies.
func caseRemove(ctx context.Context, e *env, rep int) error {
	g0, err := e.d.createCollection(ctx, fmt.Sprintf("qualify %s remove %d", e.runID, rep))
	if err != nil {
		return err
	}
	if _, err := e.d.add(ctx, g0.Collection.ID, e.fx.ids[:2]); err != nil {
		return err
	}
	ids := []string{e.fx.ids[0], missingID}
	if !e.listed["remove_from_collection"] {
		// Not served: the backend must be one without removeFromCollection
		// (the original schema), where the tool could only fail.
		if _, err := e.d.remove(ctx, g0.Collection.ID, ids); !unknownToSchema(err) {
			return fmt.Errorf("remove_from_collection is not listed, yet the backend has removeFromCollection (%v)", err)
		}
		after, err := e.d.items(ctx, g0.Collection.ID, 1)
		if err != nil {
			return err
		}
		return same("collection size after a removal the backend cannot do", after.Total, 2)
	}
	c, err := e.call(ctx, e.rw, "remove_from_collection", map[string]any{"collection_id": g0.Collection.ID, "company_ids": ids})
	if err != nil {
		return err
	}
	g, err := e.d.remove(ctx, g0.Collection.ID, ids)
	if err != nil {
		return err
	}
	var m mWrite
	if err := c.decode(&m); err != nil {
		return err
	}
	if err := same("removed", m.Removed, []string{e.fx.ids[0]}); err != nil {
		return err
	}
	if err := same("removed and not present (MCP) = not present (GraphQL after)", sorted(append(slices.Clone(m.Removed), m.NotPresent...)), sorted(g.NotPresent)); err != nil {
		return err
	}
	return same("collection", m.Collection, mCollection(g.Collection))
}

func caseEmail(ctx context.Context, e *env, rep int) error {
	id := e.fx.ids[rep%len(e.fx.ids)]
	roles := []string{"CEO"}
	c, err := e.call(ctx, e.rw, "request_email_discovery", map[string]any{"company_id": id, "roles": roles})
	if err != nil {
		return err
	}
	var m mJob
	if err := c.decode(&m); err != nil {
		return err
	}
	g, err := e.d.emailDiscovery(ctx, id, roles)
	if err != nil {
		return err
	}
	if m.Job.ID == "" || m.Job.ID == g.ID {
		return fmt.Errorf("job ids: MCP %q, GraphQL %q; want two distinct jobs", m.Job.ID, g.ID)
	}
	return same("company and roles", [2]any{m.Job.CompanyID, m.Job.Roles}, [2]any{g.CompanyID, g.Roles})
}

func caseWritesOff(ctx context.Context, e *env, _ int) error {
	calls := map[string]map[string]any{
		"create_collection":       {"name": "qualify never written"},
		"add_to_collection":       {"collection_id": e.fx.collection, "company_ids": []string{e.fx.ids[0]}},
		"request_email_discovery": {"company_id": e.fx.ids[0]},
		"remove_from_collection":  {"collection_id": e.fx.collection, "company_ids": []string{e.fx.itemIDs[0]}},
	}
	before, err := e.d.items(ctx, e.fx.collection, 1)
	if err != nil {
		return err
	}
	for _, tool := range []string{"create_collection", "add_to_collection", "request_email_discovery", "remove_from_collection"} {
		if !e.listed[tool] {
			continue // not served by this backend (caseRemove)
		}
		c, err := e.call(ctx, e.ro, tool, calls[tool])
		if err != nil {
			return err
		}
		if err := refused(c, "mutations_disabled"); err != nil {
			return fmt.Errorf("%s: %w", tool, err)
		}
	}
	after, err := e.d.items(ctx, e.fx.collection, 1)
	if err != nil {
		return err
	}
	return same("collection size after refused writes", after.Total, before.Total)
}

func caseBadArguments(ctx context.Context, e *env, _ int) error {
	bad := []struct {
		srv  *mcpServer
		tool string
		args map[string]any
	}{
		{e.ro, "search_companies", map[string]any{"query": "software", "limit": 1000}},
		{e.ro, "search_companies", map[string]any{"country": "Atlantis"}},
		{e.ro, "search_companies", map[string]any{"categories": []string{"Fintec"}}},
		{e.ro, "get_company", map[string]any{}},
		{e.ro, "ai_search", map[string]any{"query": strings.Repeat("x", 5000)}},
		{e.rw, "create_collection", map[string]any{"name": ""}},
	}
	for _, b := range bad {
		c, err := e.call(ctx, b.srv, b.tool, b.args)
		if err != nil {
			return err
		}
		if err := refused(c, "invalid_arguments"); err != nil {
			return fmt.Errorf("%s %v: %w", b.tool, b.args, err)
		}
	}
	return nil
}

// caseRateLimited runs a server allowing one get_company an hour: the
// first call answers, the second is refused.
func caseRateLimited(ctx context.Context, e *env, _ int) error {
	s, err := e.start(ctx, "limited", "--rate-limit", "get_company=1/h")
	if err != nil {
		return err
	}
	defer s.Close()
	args := map[string]any{"id": e.fx.ids[0]}
	c, err := e.call(ctx, s, "get_company", args)
	if err != nil {
		return err
	}
	if c.res.IsError {
		return fmt.Errorf("first call refused: %s", c.text())
	}
	c, err = e.call(ctx, s, "get_company", args)
	if err != nil {
		return err
	}
	return refused(c, "rate_limited")
}

// casePagingSearch follows next_cursor over a query with a modest total.
func casePagingSearch(ctx context.Context, e *env, _ int) error {
	_, err := pageSearch(ctx, e, 7)
	return err
}

// casePagingBounded pages the same query a hundred at a time: a hundred
// summaries are past the answer bound, so pages are cut at a whole company
// and their cursors must continue exactly there.
func casePagingBounded(ctx context.Context, e *env, _ int) error {
	cut, err := pageSearch(ctx, e, 100)
	if err != nil {
		return err
	}
	if cut == 0 {
		return fmt.Errorf("no page was cut by the answer bound, so the case checked nothing it names (paging country %s)", e.fx.paging.Code)
	}
	return nil
}

// pageSearch follows next_cursor over the paging country at limit, checks
// that it visits total companies once each, and returns how many pages the
// answer bound cut.
func pageSearch(ctx context.Context, e *env, limit int) (cut int, err error) {
	args := map[string]any{"country": e.fx.paging.Code, "limit": limit}
	seen := map[string]bool{}
	total := -1
	for page := 0; ; page++ {
		if page > 100 {
			return cut, fmt.Errorf("more than 100 pages for a total of %d", total)
		}
		c, err := e.call(ctx, e.ro, "search_companies", args)
		if err != nil {
			return cut, err
		}
		var m mList
		if err := c.decode(&m); err != nil {
			return cut, fmt.Errorf("page %d: %w", page, err)
		}
		if total >= 0 && m.Total != total {
			return cut, fmt.Errorf("page %d: total changed from %d to %d", page, total, m.Total)
		}
		total = m.Total
		for _, co := range m.Companies {
			if seen[co.ID] {
				return cut, fmt.Errorf("page %d: %s seen twice", page, co.ID)
			}
			seen[co.ID] = true
		}
		if m.Truncated {
			cut++
		}
		if m.NextCursor == "" {
			break
		}
		args["cursor"] = m.NextCursor
	}
	if len(seen) != total {
		return cut, fmt.Errorf("visited %d companies, total says %d", len(seen), total)
	}
	g, err := e.d.search(ctx, "", []string{"countries;" + e.fx.paging.Value}, 1, "")
	if err != nil {
		return cut, err
	}
	return cut, same("total", total, g.Total)
}

// casePagingItems pages through the fixture collection three at a time.
func casePagingItems(ctx context.Context, e *env, _ int) error {
	args := map[string]any{"collection_id": e.fx.collection, "limit": 3}
	var ids []string
	total := -1
	for page := 0; page < 100; page++ {
		c, err := e.call(ctx, e.ro, "get_collection_items", args)
		if err != nil {
			return err
		}
		var m mItems
		if err := c.decode(&m); err != nil {
			return fmt.Errorf("page %d: %w", page, err)
		}
		total = m.Total
		ids = append(ids, m.itemIDs()...)
		if m.NextCursor == "" {
			break
		}
		args["cursor"] = m.NextCursor
	}
	if err := same("items visited", len(ids), total); err != nil {
		return err
	}
	if len(slices.Compact(sorted(ids))) != len(ids) {
		return fmt.Errorf("an item was visited twice: %v", ids)
	}
	return same("items visited", sorted(ids), sorted(e.fx.itemIDs))
}

// caseRoundTrip is an agent's path through the tools, each answer feeding
// the next request.
func caseRoundTrip(ctx context.Context, e *env, rep int) error {
	c, err := e.call(ctx, e.rw, "search_companies", map[string]any{"country": e.fx.country.Code, "limit": 3})
	if err != nil {
		return err
	}
	var found mList
	if err := c.decode(&found); err != nil {
		return err
	}
	if len(found.Companies) == 0 {
		return fmt.Errorf("search found nothing in %s", e.fx.country.Value)
	}
	id := found.Companies[0].ID
	if c, err = e.call(ctx, e.rw, "get_company", map[string]any{"id": id}); err != nil {
		return err
	}
	var profile struct {
		Company mCompany `json:"company"`
	}
	if err := c.decode(&profile); err != nil {
		return err
	}
	if profile.Company.ID != id {
		return fmt.Errorf("get_company(%s) answered %s", id, profile.Company.ID)
	}
	name := fmt.Sprintf("qualify %s round trip %d", e.runID, rep)
	// A dry run first: it says the name is free and writes nothing.
	if c, err = e.call(ctx, e.rw, "create_collection", map[string]any{"name": name, "dry_run": true}); err != nil {
		return err
	}
	var dry mWrite
	if err := c.decode(&dry); err != nil {
		return err
	}
	if !dry.Created {
		return fmt.Errorf("dry run of create_collection %q: created false for a new name", name)
	}
	if cols, err := e.d.collections(ctx, 100); err != nil {
		return err
	} else if slices.ContainsFunc(cols.Items, func(c gCollection) bool { return c.Name == name }) {
		return fmt.Errorf("dry run of create_collection %q created it", name)
	}
	if c, err = e.call(ctx, e.rw, "create_collection", map[string]any{"name": name}); err != nil {
		return err
	}
	var created mWrite
	if err := c.decode(&created); err != nil {
		return err
	}
	if c, err = e.call(ctx, e.rw, "add_to_collection", map[string]any{"collection_id": created.Collection.ID, "company_ids": []string{id, missingID}, "dry_run": true}); err != nil {
		return err
	}
	if err := c.decode(&dry); err != nil {
		return err
	}
	if err := same("dry run: would add, not found", [2][]string{dry.Added, dry.NotFound}, [2][]string{{id}, {missingID}}); err != nil {
		return err
	}
	if g, err := e.d.items(ctx, created.Collection.ID, 1); err != nil {
		return err
	} else if g.Total != 0 {
		return fmt.Errorf("dry run of add_to_collection added %d companies", g.Total)
	}
	if c, err = e.call(ctx, e.rw, "add_to_collection", map[string]any{"collection_id": created.Collection.ID, "company_ids": []string{id}}); err != nil {
		return err
	}
	var added mWrite
	if err := c.decode(&added); err != nil {
		return err
	}
	if err := same("added", added.Added, []string{id}); err != nil {
		return err
	}
	if c, err = e.call(ctx, e.rw, "get_collection_items", map[string]any{"collection_id": created.Collection.ID}); err != nil {
		return err
	}
	var items mItems
	if err := c.decode(&items); err != nil {
		return err
	}
	if err := same("items", items.itemIDs(), []string{id}); err != nil {
		return err
	}
	return same("total", items.Total, 1)
}

func sorted(s []string) []string {
	s = slices.Clone(nonNil(s))
	slices.Sort(s)
	return s
}
