// Package read holds the six read tools. It imports the GraphQL Reader and
// nothing that can mutate: a test checks its imports and its calls.
package read

import (
	"github.com/companyintel/mcp-server/graphql"
	"github.com/companyintel/mcp-server/tools"
)

// readHints are the annotations every read tool carries: it changes nothing,
// so calling it twice is harmless, and it reaches an external service.
var readHints = tools.Hints{ReadOnly: true, Destructive: false, Idempotent: true, OpenWorld: true}

// Tools returns the six read tools over r, in catalogue order.
func Tools(r graphql.Reader) []tools.Tool {
	return []tools.Tool{
		NewSearchCompanies(r),
		NewGetCompany(r),
		NewGetCompaniesBatch(r),
		NewAiSearch(r),
		NewListCollections(r),
		NewGetCollectionItems(r),
	}
}
