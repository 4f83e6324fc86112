// Package renamed is a fixture for app's architecture test: a "read" package
// that imports the mutations under the name query. A test that looks at
// import names would pass it; the test on resolved packages must flag it.
package renamed

import (
	"github.com/companyintel/mcp-server/graphql"
	query "github.com/companyintel/mcp-server/graphql/mutation"
)

// Reader looks like a reader and is not one.
func Reader(c *graphql.Client) query.Writer { return query.NewWriter(c) }
