package read

import (
	"context"

	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/tools"
)

type getCollectionItemsInput struct {
	CollectionID string `json:"collection_id" desc:"From list_collections or create_collection." max:"100"`
	Limit        int    `json:"limit,omitempty" desc:"Page size." min:"1" max:"100" default:"20"`
	Cursor       string `json:"cursor,omitempty" desc:"next_cursor of the previous page." max:"4096"`
}

type collectionItem struct {
	Company tools.Company `json:"company"`
	AddedAt string        `json:"added_at"`
}

type getCollectionItemsOutput struct {
	Collection tools.Collection `json:"collection"`
	Items      []collectionItem `json:"items"`
	Total      int              `json:"total"`
	NextCursor string           `json:"next_cursor,omitempty"`
	Note       string           `json:"note,omitempty"`
}

// ItemCount reports the items returned, for the audit record.
func (o getCollectionItemsOutput) ItemCount() int { return len(o.Items) }

// Touched names the collection and the companies returned from it, for the
// audit record.
func (o getCollectionItemsOutput) Touched() tools.Touched {
	ids := make([]string, len(o.Items))
	for i := range o.Items {
		ids[i] = o.Items[i].Company.ID
	}
	return tools.Touched{Read: tools.IDs{Collections: tools.NonEmpty(o.Collection.ID), Companies: ids}}
}

// NewGetCollectionItems returns the get_collection_items tool: the companies in
// one of the caller's collections, in the order they were added, paginated.
// Another user's collection is not_found.
func NewGetCollectionItems(r query.Reader) tools.Tool {
	return tools.New(tools.Spec[getCollectionItemsInput, getCollectionItemsOutput]{
		Name:        "get_collection_items",
		Title:       "Get a collection's companies",
		Description: "List the companies in one of the user's collections, in the order they were added.",
		Hints:       readHints,
		NextStep:    tools.CollectionNextStep,
		Run: func(ctx context.Context, in getCollectionItemsInput) (getCollectionItemsOutput, error) {
			return getCollectionItems(ctx, r, in)
		},
	})
}

func getCollectionItems(ctx context.Context, r query.Reader, in getCollectionItemsInput) (getCollectionItemsOutput, error) {
	page, err := r.GetCollectionItems(ctx, in.CollectionID, &in.Limit, tools.Token(in.Cursor))
	partial, err := tools.KeepPartial(err)
	if err != nil {
		return getCollectionItemsOutput{}, err
	}
	out := getCollectionItemsOutput{
		Collection: tools.CollectionFrom(&page.Collection),
		Items:      make([]collectionItem, len(page.Items)),
		Total:      page.Total,
		NextCursor: tools.Cursor(page.NextToken),
	}
	for i, it := range page.Items {
		out.Items[i] = collectionItem{Company: companyFrom(&it.Company), AddedAt: tools.Timestamp(it.AddedAt)}
	}
	out.Note = tools.JoinNotes(tools.PageNote(len(out.Items), out.Total, out.NextCursor, "companies"), partial.Note())
	return out, nil
}
