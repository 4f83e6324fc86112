package read

import (
	"fmt"

	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/internal/untrusted"
	"github.com/companyintel/mcp-server/tools"
)

// List answers (search_companies, ai_search, get_collection_items) carry a
// summary per company (tools.Summary): its structured record for programs,
// one text line with the description cut short for the model. The full
// profile comes from get_company or get_companies_batch.

// summariesFrom shapes companies as list records at detail d.
func summariesFrom(cs []query.CompanySummary, d tools.Detail) []tools.Summary {
	out := make([]tools.Summary, len(cs))
	for i := range cs {
		out[i] = summaryFrom(&cs[i], d)
	}
	return out
}

// summaryFrom shapes one company of a list operation at detail d. The list
// operations select only what a summary holds (query.CompanySummary), so the
// profile fields of the tools.Company it goes through stay empty: SummaryOf
// reads none of them. Every string the backend wrote goes through the rule
// for untrusted text.
func summaryFrom(c *query.CompanySummary, d tools.Detail) tools.Summary {
	return tools.SummaryOf(tools.Company{
		ID:            untrusted.Clean(c.Id),
		Name:          untrusted.Clean(c.Name),
		Domain:        untrusted.Clean(c.Domain),
		Description:   untrusted.Clean(tools.String(c.Description)),
		CountryCode:   untrusted.Clean(c.CountryCode),
		City:          untrusted.Clean(tools.String(c.City)),
		Categories:    untrusted.CleanAll(c.Categories),
		EmployeeCount: c.EmployeeCount,
		FoundedYear:   c.FoundedYear,
	}, d)
}

// detail is the detail an ids_only argument asks for.
func detail(idsOnly bool) tools.Detail {
	if idsOnly {
		return tools.DetailIDs
	}
	return tools.DetailSummary
}

// summaryLines renders summaries for the text content.
func summaryLines(s []tools.Summary) []string {
	out := make([]string, len(s))
	for i := range s {
		out[i] = s[i].Line()
	}
	return out
}

// cutNote says why an answer holds fewer companies than asked: the answer
// bound.
func cutNote(bound int) string { return cutAt("company", bound) }

// cutAt says why an answer holds fewer records than asked.
func cutAt(record string, bound int) string {
	return "cut at a whole " + record + " to stay within the " + boundText(bound) + " answer size bound"
}

// boundText renders the answer bound for a note.
func boundText(bound int) string {
	if bound%1024 == 0 {
		return fmt.Sprintf("%d KB", bound/1024)
	}
	return fmt.Sprintf("%d-byte", bound)
}
