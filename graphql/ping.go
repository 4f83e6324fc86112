package graphql

import (
	"context"
	"errors"
	"net/http"

	"github.com/Khan/genqlient/graphql"
)

// Ping asks the backend the cheapest question GraphQL has, `{ __typename }`,
// for a readiness probe. It returns nil when the backend answers as a
// GraphQL service: with data, or by refusing the credentials (401 or 403),
// since whether one identity may read is not whether the service is up. A
// network failure, a timeout, a 5xx or a body that is not GraphQL is an
// error.
func (c *Client) Ping(ctx context.Context) error {
	var data struct {
		Typename string `json:"__typename"`
	}
	err := c.MakeRequest(ctx, &graphql.Request{OpName: "Ping", Query: "query Ping { __typename }"}, &graphql.Response{Data: &data})
	if e, ok := errors.AsType[*Error](err); ok && e.Kind == KindHTTP &&
		(e.StatusCode == http.StatusUnauthorized || e.StatusCode == http.StatusForbidden) {
		return nil
	}
	return err
}
