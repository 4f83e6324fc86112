// Package read holds the six read tools. It depends on graphql/query, never on
// graphql/mutation: app's architecture test checks that nothing this package
// (or its tests) depends on contains a GraphQL mutation.
package read

import (
	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/tools"
)

// readHints are the annotations every read tool carries: it changes nothing,
// so calling it twice is harmless, and it reaches an external service.
var readHints = tools.Hints{ReadOnly: true, Destructive: false, Idempotent: true, OpenWorld: true}

// Tools returns the six read tools over r, in catalogue order.
func Tools(r query.Reader) []tools.Tool {
	return []tools.Tool{
		NewSearchCompanies(r),
		NewGetCompany(r),
		NewGetCompaniesBatch(r),
		NewAiSearch(r),
		NewListCollections(r),
		NewGetCollectionItems(r),
	}
}

// companyFrom shapes a company from the GraphQL client.
func companyFrom(c *query.Company) tools.Company {
	out := tools.Company{
		ID:            c.Id,
		Name:          c.Name,
		Domain:        c.Domain,
		Website:       tools.String(c.Website),
		Description:   tools.String(c.Description),
		Country:       c.Country,
		CountryCode:   c.CountryCode,
		City:          tools.String(c.City),
		Categories:    c.Categories,
		EmployeeCount: c.EmployeeCount,
		FoundedYear:   c.FoundedYear,
		UpdatedAt:     tools.Timestamp(c.UpdatedAt),
		Contacts:      tools.ContactsFrom(c.Contacts),
	}
	if out.Categories == nil {
		out.Categories = []string{}
	}
	return out
}

// companiesFrom shapes a list of companies.
func companiesFrom(cs []query.Company) []tools.Company {
	out := make([]tools.Company, len(cs))
	for i := range cs {
		out[i] = companyFrom(&cs[i])
	}
	return out
}
