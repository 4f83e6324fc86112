// Package read holds the six read tools. It depends on graphql/query, never on
// graphql/mutation: app's architecture test checks that nothing this package
// (or its tests) depends on contains a GraphQL mutation.
package read

import (
	"context"
	"time"

	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/internal/untrusted"
	"github.com/companyintel/mcp-server/tools"
)

// readHints are the annotations every read tool carries besides
// readOnlyHint (its Kind): calling it twice is harmless, and it reaches an
// external service.
var readHints = tools.Hints{Destructive: false, Idempotent: true, OpenWorld: true}

// Deps is what the read tools need.
type Deps struct {
	// Reader runs the queries.
	Reader query.Reader
	// Vocabulary is the filter vocabulary search_companies checks against.
	Vocabulary Vocabulary
	// Exports seals search_companies' export links; nil offers no export.
	Exports Sealer
	// Delivery makes an export into a file the person opens (a download
	// URL, a file in the operator's directory); nil delivers none.
	Delivery Delivery
	// Now reads the clock exports expire by; nil is time.Now.
	Now func() time.Time
}

// registry holds the read tools; each tool's file adds itself.
var registry tools.Registry[Deps]

// Facts returns the read tools' facts in catalogue order, without building
// any tool.
func Facts() []tools.Facts { return registry.Facts() }

// Register adds a read tool beside the package's own, as a tool file of
// this package does; the returned function removes it. Tests use it to show
// that a new tool's facts reach everything that reads them.
func Register(f tools.Facts, build func(Deps) tools.Tool) (remove func()) {
	return registry.Add(f, build)
}

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
	return registry.Build(Deps{Reader: r, Vocabulary: v})
}

// Build returns the read tools over d, in catalogue order.
func Build(d Deps) []tools.Tool { return registry.Build(d) }

// companyFrom shapes a company from the GraphQL client. Every string the
// backend wrote goes through the rule for untrusted text.
func companyFrom(c *query.Company) tools.Company {
	out := tools.Company{
		ID:            untrusted.Clean(c.Id),
		Name:          untrusted.Clean(c.Name),
		Domain:        untrusted.Clean(c.Domain),
		Website:       untrusted.Clean(tools.String(c.Website)),
		Description:   untrusted.Clean(tools.String(c.Description)),
		Country:       untrusted.Clean(c.Country),
		CountryCode:   untrusted.Clean(c.CountryCode),
		City:          untrusted.Clean(tools.String(c.City)),
		Categories:    untrusted.CleanAll(c.Categories),
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
