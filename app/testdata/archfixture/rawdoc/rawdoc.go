// Package rawdoc is a fixture for app's architecture test: a package that
// imports no mutation package but writes its own mutation document and posts
// it through the genqlient interface. The test must flag it too.
package rawdoc

import (
	"context"

	"github.com/Khan/genqlient/graphql"
)

// Touch sends a mutation the package wrote by hand.
func Touch(ctx context.Context, c graphql.Client) error {
	return c.MakeRequest(ctx, &graphql.Request{
		OpName: "Touch",
		Query: `
			# looks harmless
			mutation Touch { createCollection(name: "x") { created } }`,
	}, &graphql.Response{})
}
