package tools

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/companyintel/mcp-server/graphql"
)

func TestKeepPartialOnlyWhenDataArrived(t *testing.T) {
	errs := []graphql.GraphQLError{{ErrorType: "Lambda:Unhandled", Message: "boom", Path: []any{"getCompanies", 2.0, "name"}}}
	p, err := KeepPartial(&graphql.Error{Kind: graphql.KindGraphQL, Errors: errs, PartialData: true})
	assert.NoError(t, err)
	assert.Equal(t, map[int]bool{2: true}, p.FailedItems("getCompanies"))
	assert.Empty(t, p.FailedItems("searchCompanies", "items"))
	assert.Equal(t, "Incomplete answer: the data API failed on getCompanies.2.name (Lambda:Unhandled: boom). "+
		"Everything else is as the data API returned it; fields it could not resolve are empty. Retrying may fill them in.", p.Note())

	for _, e := range []error{
		&graphql.Error{Kind: graphql.KindGraphQL, Errors: errs}, // no data
		&graphql.Error{Kind: graphql.KindHTTP, StatusCode: 502},
		fmt.Errorf("plain"),
	} {
		p, err := KeepPartial(e)
		assert.Equal(t, e, err)
		assert.False(t, p.Any())
		assert.Empty(t, p.Note())
	}
}

func TestPartialNoteIsBounded(t *testing.T) {
	var errs []graphql.GraphQLError
	for i := range 1000 {
		errs = append(errs, graphql.GraphQLError{ErrorType: "Lambda:Unhandled", Message: strings.Repeat("w", 10_000), Path: []any{"searchCompanies", "items", float64(i), "description"}})
	}
	p, _ := KeepPartial(&graphql.Error{Kind: graphql.KindGraphQL, Errors: errs, PartialData: true})
	note := p.Note()
	assert.Less(t, len(note), 2000)
	assert.Contains(t, note, "and 995 more")
	assert.Len(t, p.FailedItems("searchCompanies", "items"), 1000)
}
