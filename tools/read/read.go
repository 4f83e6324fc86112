// Package read holds the six read tools. It depends on graphql/query, never on
// graphql/mutation: app's architecture test checks that nothing this package
// (or its tests) depends on contains a GraphQL mutation.
package read

import (
	"context"

	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/tools"
)

// readHints are the annotations every read tool carries: it changes nothing,
// so calling it twice is harmless, and it reaches an external service.
var readHints = tools.Hints{ReadOnly: true, Destructive: false, Idempotent: true, OpenWorld: true}

// Vocabulary is the filter vocabulary the backend serves (the
// companies://filters resource), read through a cache: search_companies
// checks categories and countries against it before it searches. nil, or a
// vocabulary that cannot be read, checks nothing: the backend judges.
type Vocabulary interface {
	FilterVocabulary(ctx context.Context) (*query.Vocabulary, error)
}

// Tools returns the six read tools over r, in catalogue order; v is the
// filter vocabulary search_companies checks against.
func Tools(r query.Reader, v Vocabulary) []tools.Tool {
	return []tools.Tool{
		NewSearchCompanies(r, v),
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
