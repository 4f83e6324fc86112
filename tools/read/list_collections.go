package read

import (
	"context"

	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/tools"
)

type listCollectionsInput struct {
	Limit  int    `json:"limit,omitempty" desc:"Page size." min:"1" max:"100" default:"20"`
	Cursor string `json:"cursor,omitempty" desc:"Previous next_cursor." max:"4096"`
}

type listCollectionsOutput struct {
	Collections []tools.Collection `json:"collections"`
	Total       int                `json:"total"`
	NextCursor  string             `json:"next_cursor,omitempty"`
	Note        string             `json:"note,omitempty"`
}

// ItemCount reports the collections returned, for the audit record.
func (o listCollectionsOutput) ItemCount() int { return len(o.Collections) }

// Touched names the collections listed, for the audit record.
func (o listCollectionsOutput) Touched() tools.Touched {
	return tools.Touched{Read: tools.IDs{Collections: tools.CollectionIDs(o.Collections)}}
}

// NewListCollections returns the list_collections tool: the caller's
// collections, newest first, paginated. Collections belong to a user: an
// API-key identity has none and gets an unauthorized explanation from the
// pipeline.
func NewListCollections(r query.Reader) tools.Tool {
	return tools.New(tools.Spec[listCollectionsInput, listCollectionsOutput]{
		Name:        "list_collections",
		Title:       "List my collections",
		Description: "List the user's collections, newest first, with item counts; get_collection_items opens one.",
		Hints:       readHints,
		Run: func(ctx context.Context, in listCollectionsInput) (listCollectionsOutput, error) {
			return listCollections(ctx, r, in)
		},
	})
}

func listCollections(ctx context.Context, r query.Reader, in listCollectionsInput) (listCollectionsOutput, error) {
	page, err := r.ListCollections(ctx, &in.Limit, tools.Token(in.Cursor))
	partial, err := tools.KeepPartial(err)
	if err != nil {
		return listCollectionsOutput{}, err
	}
	out := listCollectionsOutput{Collections: make([]tools.Collection, len(page.Items)), Total: page.Total, NextCursor: tools.Cursor(page.NextToken)}
	for i := range page.Items {
		out.Collections[i] = tools.CollectionFrom(&page.Items[i])
	}
	out.Note = tools.JoinNotes(tools.PageNote(len(out.Collections), out.Total, out.NextCursor, "collections"), partial.Note())
	return out, nil
}
