package read

import (
	"context"
	"fmt"

	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/tools"
)

type listCollectionsInput struct {
	Limit  int    `json:"limit,omitempty" desc:"Page size." min:"1" max:"100" default:"20"`
	Cursor string `json:"cursor,omitempty" desc:"Previous next_cursor." max:"4096"`
}

type listCollectionsOutput struct {
	Collections []tools.Collection `json:"collections" text:"-"`
	Total       int                `json:"total"`
	NextCursor  string             `json:"next_cursor,omitempty"`
	Truncated   bool               `json:"truncated,omitempty"`
	Note        string             `json:"note,omitempty"`

	at    tools.Position // where this page was fetched
	after string         // the note after the paging note
}

// Len, Lines and Cut make the answer a tools.List.
func (o listCollectionsOutput) Len() int { return len(o.Collections) }
func (o listCollectionsOutput) Lines() []string {
	out := make([]string, len(o.Collections))
	for i, c := range o.Collections {
		out[i] = c.Line()
	}
	return out
}
func (o listCollectionsOutput) Cut(n, bound int) tools.List {
	o.Collections, o.Truncated, o.NextCursor = o.Collections[:n], true, o.at.After(n)
	o.Note = tools.JoinNotes(fmt.Sprintf("Showing %d of %d collections, %s; for the rest, call again with the same arguments "+
		"and cursor set to next_cursor.", n, o.Total, cutAt("collection", bound)), o.after)
	return o
}

// Touched names the collections listed, for the audit record.
func (o listCollectionsOutput) Touched() tools.Touched {
	return tools.Touched{Read: tools.IDs{Collections: tools.CollectionIDs(o.Collections)}}
}

// listCollectionsFacts are list_collections's facts; the tool registers itself with them.
var listCollectionsFacts = tools.Facts{
	Name: "list_collections", Order: 5, Kind: tools.Read, PerUser: true,
	Bounds: map[string]string{"limit": "1-100, default 20"},
}

var _ = registry.Add(listCollectionsFacts, func(d Deps) tools.Tool { return NewListCollections(d.Reader) })

// NewListCollections returns the list_collections tool: the caller's
// collections, newest first, paginated. Collections belong to a user: an
// API-key identity has none and gets an unauthorized explanation from the
// pipeline.
func NewListCollections(r query.Reader) tools.Tool {
	return tools.New(tools.Spec[listCollectionsInput, listCollectionsOutput]{
		Facts:       listCollectionsFacts,
		Title:       "List my collections",
		Description: "The user's collections, newest first, with counts; get_collection_items opens one.",
		Hints:       readHints,
		Run: func(ctx context.Context, in listCollectionsInput) (listCollectionsOutput, error) {
			return listCollections(ctx, r, in)
		},
	})
}

func listCollections(ctx context.Context, r query.Reader, in listCollectionsInput) (listCollectionsOutput, error) {
	at, err := tools.ParseCursor(in.Cursor)
	if err == nil {
		err = at.Fits(in.Limit)
	}
	if err != nil {
		return listCollectionsOutput{}, err
	}
	page, err := r.ListCollections(ctx, &in.Limit, at.Token)
	partial, err := tools.KeepPartial(err)
	if err != nil {
		return listCollectionsOutput{}, err
	}
	items := page.Items[min(at.Skip, len(page.Items)):]
	out := listCollectionsOutput{Collections: make([]tools.Collection, len(items)), Total: page.Total,
		NextCursor: at.Next(page.NextToken), at: at, after: partial.Note()}
	for i := range items {
		out.Collections[i] = tools.CollectionFrom(&items[i])
	}
	out.Note = tools.JoinNotes(tools.PageNote(len(out.Collections), out.Total, out.NextCursor, "collections"), out.after)
	return out, nil
}
