package write

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/companyintel/mcp-server/internal/untrusted"
	"github.com/companyintel/mcp-server/tools"
)

const maxAdd = 50

type addToCollectionInput struct {
	CollectionID string   `json:"collection_id" desc:"From list_collections." max:"100"`
	CompanyIDs   []string `json:"company_ids" desc:"1-50 ids; duplicates count once." min:"1"`
	DryRun       bool     `json:"dry_run,omitempty" desc:"Preview only."`
}

type addToCollectionOutput struct {
	Collection        tools.Collection `json:"collection"`
	Added             []string         `json:"added"`
	AlreadyPresent    []string         `json:"already_present"`
	NotFound          []string         `json:"not_found"`
	DuplicatesDropped []string         `json:"duplicates_dropped"`
	DryRun            bool             `json:"dry_run,omitempty"`
	Note              string           `json:"note,omitempty"`
	// names are the companies' names a dry run found, for the person who
	// confirms the write (Preview); never sent to the model.
	names map[string]string
}

// Text renders the answer for the model: what was added to which
// collection, the ids in each list, the collection, then the note.
func (o addToCollectionOutput) Text() string {
	c := o.Collection
	var p tools.Plain
	target := "the collection " + untrusted.Quoted(c.Name) + " (" + untrusted.Inline(c.ID) + ")"
	if o.DryRun {
		p.Line(fmt.Sprintf("Dry run: the call would add %s to %s, which holds %s now.", companies(len(o.Added)), target, companies(c.ItemCount)))
	} else {
		p.Line(fmt.Sprintf("Added %s to %s, which now holds %s.", companies(len(o.Added)), target, companies(c.ItemCount)))
	}
	added := "added"
	if o.DryRun {
		added = "would add"
	}
	p.Fact(added, untrusted.InlineAll(o.Added, ", "))
	p.Fact("already present", untrusted.InlineAll(o.AlreadyPresent, ", "))
	p.Fact("not found", untrusted.InlineAll(o.NotFound, ", "))
	p.Fact("duplicates dropped", untrusted.InlineAll(o.DuplicatesDropped, ", "))
	p.Fact("collection", c.Line())
	p.Line(o.Note)
	return p.String()
}

// Touched names the collection and the companies added to it, for the
// audit record. A call that added nothing (every id already there or
// unknown) and a dry run changed nothing: they name the collection as read,
// and a dry run the companies it found.
func (o addToCollectionOutput) Touched() tools.Touched {
	col := tools.NonEmpty(o.Collection.ID)
	switch {
	case o.DryRun:
		return tools.Touched{Read: tools.IDs{Collections: col, Companies: append(slices.Clone(o.Added), o.AlreadyPresent...)}}
	case len(o.Added) == 0:
		return tools.Touched{Read: tools.IDs{Collections: col}}
	}
	return tools.Touched{Written: tools.IDs{Collections: col, Companies: o.Added}}
}

// ItemCount reports the companies added, for the audit record.
func (o addToCollectionOutput) ItemCount() int { return len(o.Added) }

// addToCollectionFacts are add_to_collection's facts; the tool registers itself with them.
var addToCollectionFacts = tools.Facts{
	Name: "add_to_collection", Order: 8, Kind: tools.Write, PerUser: true,
	Bounds: map[string]string{"company_ids": "1-50 after de-duplication"},
}

var _ = registry.Add(addToCollectionFacts, func(d Deps) tools.Tool { return NewAddToCollection(d) })

// NewAddToCollection returns the add_to_collection tool: adds companies to one
// of the caller's collections. Contract: 1-50 ids after de-duplication, order
// kept; reports added, already present and not found (every id in exactly one
// list) and duplicates dropped.
func NewAddToCollection(d Deps) tools.Tool {
	return guarded(d, tools.Spec[addToCollectionInput, addToCollectionOutput]{
		Facts:       addToCollectionFacts,
		Title:       "Add companies to a collection",
		Description: "Add up to 50 companies to a user's collection. Safe to repeat: reports ids added, already present or not found.",
		Hints:       tools.Hints{Destructive: false, Idempotent: true, OpenWorld: true},
		DryRun:      func(in addToCollectionInput) bool { return in.DryRun },
		NextStep:    tools.CollectionNextStep,
		Run: func(ctx context.Context, in addToCollectionInput) (addToCollectionOutput, error) {
			return addToCollection(ctx, d, in)
		},
	})
}

func addToCollection(ctx context.Context, d Deps, in addToCollectionInput) (addToCollectionOutput, error) {
	ids, dropped := tools.Dedupe(in.CompanyIDs)
	if len(ids) > maxAdd {
		return addToCollectionOutput{}, tools.Invalid("company_ids",
			fmt.Sprintf("at most %d distinct ids per call, got %d; split them into several calls", maxAdd, len(ids)))
	}
	if in.DryRun {
		return dryAddToCollection(ctx, d, in.CollectionID, ids, dropped)
	}
	res, err := d.Writer.AddToCollection(ctx, in.CollectionID, ids)
	// An answer with data means the write was done: report it, with what
	// failed to come back, rather than an error that invites a retry.
	partial, err := tools.KeepPartial(err)
	if err != nil {
		return addToCollectionOutput{}, err
	}
	out := addToCollectionOutput{
		Collection:        tools.CollectionFrom(&res.Collection),
		Added:             nonNil(res.Added),
		AlreadyPresent:    nonNil(res.AlreadyPresent),
		NotFound:          nonNil(res.NotFound),
		DuplicatesDropped: nonNil(dropped),
	}
	notes := []string{fmt.Sprintf("Added %d, already present %d, not found %d; the collection now holds %d companies.",
		len(out.Added), len(out.AlreadyPresent), len(out.NotFound), out.Collection.ItemCount)}
	if len(dropped) > 0 {
		notes = append(notes, fmt.Sprintf("Dropped %d duplicate id(s): %s.", len(dropped), strings.Join(dropped, ", ")))
	}
	out.Note = tools.JoinNotes(strings.Join(notes, " "), partial.Note())
	return out, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
