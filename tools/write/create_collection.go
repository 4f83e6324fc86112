package write

import (
	"context"
	"strconv"

	"github.com/companyintel/mcp-server/internal/untrusted"
	"github.com/companyintel/mcp-server/tools"
)

type createCollectionInput struct {
	Name        string `json:"name" desc:"E.g. \"Berlin fintech prospects\"." max:"100" chars:"plain"`
	Description string `json:"description,omitempty" desc:"Its purpose." max:"500" chars:"plain"`
	DryRun      bool   `json:"dry_run,omitempty" desc:"Preview only."`
}

type createCollectionOutput struct {
	Collection tools.Collection `json:"collection"`
	Created    bool             `json:"created"`
	DryRun     bool             `json:"dry_run,omitempty"`
	Note       string           `json:"note,omitempty"`
}

// Text renders the answer for the model: what happened to which collection
// (name and id), its facts, then the note, which says what to do next.
func (o createCollectionOutput) Text() string {
	c := o.Collection
	name := untrusted.Quoted(c.Name)
	var p tools.Plain
	switch {
	case o.DryRun && o.Created:
		p.Line("Dry run: no collection is named " + name + "; the call would create it, with 0 companies.")
	case o.DryRun:
		p.Line("Dry run: the collection " + name + " (" + untrusted.Inline(c.ID) + ") already exists; the call would return it unchanged.")
	case o.Created:
		p.Line("Created the collection " + name + " (" + untrusted.Inline(c.ID) + ").")
	default:
		p.Line("The collection " + name + " (" + untrusted.Inline(c.ID) + ") already existed; nothing was created.")
	}
	if c.Description != "" {
		p.Fact("description", untrusted.Quoted(c.Description))
	}
	if c.ID != "" {
		p.Fact("companies", strconv.Itoa(c.ItemCount))
		p.Fact("created", c.CreatedAt)
		p.Fact("updated", c.UpdatedAt)
	}
	p.Line(o.Note)
	return p.String()
}

// Touched names the collection, for the audit record: as written when the
// call created it, as read when it already existed or in a dry run.
func (o createCollectionOutput) Touched() tools.Touched {
	col := tools.NonEmpty(o.Collection.ID)
	if o.Created && !o.DryRun {
		return tools.Touched{Written: tools.IDs{Collections: col}}
	}
	return tools.Touched{Read: tools.IDs{Collections: col}}
}

// createCollectionFacts are create_collection's facts; the tool registers itself with them.
var createCollectionFacts = tools.Facts{
	Name: "create_collection", Order: 7, Kind: tools.Write, PerUser: true,
}

var _ = registry.Add(createCollectionFacts, func(d Deps) tools.Tool { return NewCreateCollection(d) })

// NewCreateCollection returns the create_collection tool: a named collection
// for the signed-in user. Contract: idempotent by name — the same name twice
// leaves one collection, and the second answer says it already existed
// (created=false).
func NewCreateCollection(d Deps) tools.Tool {
	return guarded(d, tools.Spec[createCollectionInput, createCollectionOutput]{
		Facts:       createCollectionFacts,
		Title:       "Create a collection",
		Description: "Create a user's named collection; if the name exists, that one is returned (created=false). Fill it with add_to_collection.",
		Hints:       tools.Hints{Destructive: false, Idempotent: true, OpenWorld: true},
		DryRun:      func(in createCollectionInput) bool { return in.DryRun },
		Run: func(ctx context.Context, in createCollectionInput) (createCollectionOutput, error) {
			return createCollection(ctx, d, in)
		},
	})
}

func createCollection(ctx context.Context, d Deps, in createCollectionInput) (createCollectionOutput, error) {
	if in.DryRun {
		return dryCreateCollection(ctx, d, in)
	}
	res, err := d.Writer.CreateCollection(ctx, in.Name, tools.OptionalString(in.Description))
	// An answer with data means the write was done: report it, with what
	// failed to come back, rather than an error that invites a retry.
	partial, err := tools.KeepPartial(err)
	if err != nil {
		return createCollectionOutput{}, err
	}
	out := createCollectionOutput{Collection: tools.CollectionFrom(&res.Collection), Created: res.Created}
	if res.Created {
		out.Note = "Created. Add companies with add_to_collection using collection.id."
	} else {
		out.Note = "A collection with this name already existed; it is returned unchanged and nothing was created."
	}
	out.Note = tools.JoinNotes(out.Note, partial.Note())
	return out, nil
}
