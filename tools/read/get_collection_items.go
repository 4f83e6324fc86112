package read

import (
	"context"
	"fmt"

	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/internal/untrusted"
	"github.com/companyintel/mcp-server/tools"
	"github.com/companyintel/mcp-server/views"
)

type getCollectionItemsInput struct {
	CollectionID string   `json:"collection_id" desc:"From list_collections." max:"100"`
	Limit        int      `json:"limit,omitempty" desc:"Page size." min:"1" max:"100" default:"20"`
	Cursor       string   `json:"cursor,omitempty" desc:"Previous next_cursor." max:"4096"`
	IDsOnly      bool     `json:"ids_only,omitempty" desc:"Id and name only."`
	Fields       []string `json:"fields,omitempty" desc:"Only these beside id." enum:"name|domain|country_code|city|categories|employee_count|founded_year|description" max:"8"`
}

type collectionItem struct {
	Company tools.Summary `json:"company"`
	AddedAt string        `json:"added_at"`
}

type getCollectionItemsOutput struct {
	Collection tools.Collection `json:"collection"`
	Items      []collectionItem `json:"items" text:"-"`
	Total      int              `json:"total"`
	NextCursor string           `json:"next_cursor,omitempty"`
	Truncated  bool             `json:"truncated,omitempty"`
	Note       string           `json:"note,omitempty"`

	at    tools.Position // where this page was fetched
	after string         // the note after the paging note
}

// Len, Lines and Cut make the answer a tools.List.
func (o getCollectionItemsOutput) Len() int { return len(o.Items) }
func (o getCollectionItemsOutput) Lines() []string {
	out := make([]string, len(o.Items))
	for i, it := range o.Items {
		out[i] = it.Company.Line() + " | added " + untrusted.Inline(it.AddedAt)
	}
	return out
}
func (o getCollectionItemsOutput) Cut(n, bound int) tools.List {
	o.Items, o.Truncated, o.NextCursor = o.Items[:n], true, o.at.After(n)
	o.Note = tools.JoinNotes(fmt.Sprintf("Showing %d of %d companies, %s; for the rest, call again with the same arguments "+
		"and cursor set to next_cursor.", n, o.Total, cutNote(bound)), o.after)
	return o
}

// Touched names the collection and the companies returned from it, for the
// audit record.
func (o getCollectionItemsOutput) Touched() tools.Touched {
	ids := make([]string, len(o.Items))
	for i := range o.Items {
		ids[i] = o.Items[i].Company.ID
	}
	return tools.Touched{Read: tools.IDs{Collections: tools.NonEmpty(o.Collection.ID), Companies: ids}}
}

// getCollectionItemsFacts are get_collection_items's facts; the tool registers itself with them.
var getCollectionItemsFacts = tools.Facts{
	Name: "get_collection_items", Order: 6, Kind: tools.Read, PerUser: true,
	Bounds: map[string]string{"limit": "1-100, default 20"},
}

var _ = registry.Add(getCollectionItemsFacts, func(d Deps) tools.Tool { return NewGetCollectionItems(d.Reader) })

// NewGetCollectionItems returns the get_collection_items tool: the companies in
// one of the caller's collections, in the order they were added, paginated.
// Another user's collection is not_found.
func NewGetCollectionItems(r query.Reader) tools.Tool {
	return tools.New(tools.Spec[getCollectionItemsInput, getCollectionItemsOutput]{
		Facts:       getCollectionItemsFacts,
		Title:       "Show the companies in a collection",
		Description: "The companies in one of the user's collections, in the order added, page by page.",
		Hints:       readHints,
		NextStep:    tools.CollectionNextStep,
		Run: func(ctx context.Context, in getCollectionItemsInput) (getCollectionItemsOutput, error) {
			return getCollectionItems(ctx, r, in)
		},
	}).WithView(views.CollectionURI)
}

func getCollectionItems(ctx context.Context, r query.Reader, in getCollectionItemsInput) (getCollectionItemsOutput, error) {
	if in.IDsOnly && len(in.Fields) > 0 {
		return getCollectionItemsOutput{}, tools.Invalid("fields", "give fields or ids_only, not both: ids_only is fields left empty")
	}
	at, err := tools.ParseCursor(in.Cursor)
	if err == nil {
		err = at.Fits(in.Limit)
	}
	if err != nil {
		return getCollectionItemsOutput{}, err
	}
	page, err := r.GetCollectionItems(ctx, in.CollectionID, &in.Limit, at.Token)
	partial, err := tools.KeepPartial(err)
	if err != nil {
		return getCollectionItemsOutput{}, err
	}
	items := page.Items[min(at.Skip, len(page.Items)):]
	out := getCollectionItemsOutput{
		Collection: tools.CollectionFrom(&page.Collection),
		Items:      make([]collectionItem, len(items)),
		Total:      page.Total,
		NextCursor: at.Next(page.NextToken),
		at:         at,
		after:      partial.Note(),
	}
	// The same projection as search_companies: ids_only or fields.
	for i, it := range items {
		out.Items[i] = collectionItem{Company: project([]tools.Summary{summaryFrom(&it.Company, detail(in.IDsOnly))}, in.Fields)[0], AddedAt: tools.Timestamp(it.AddedAt)}
	}
	out.Note = tools.JoinNotes(tools.PageNote(len(out.Items), out.Total, out.NextCursor, "companies"), out.after)
	return out, nil
}
