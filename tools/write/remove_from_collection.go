package write

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/companyintel/mcp-server/graphql/mutation"
	"github.com/companyintel/mcp-server/internal/untrusted"
	"github.com/companyintel/mcp-server/tools"
)

const maxRemove = 50

type removeFromCollectionInput struct {
	CollectionID string   `json:"collection_id" desc:"From list_collections." max:"100"`
	CompanyIDs   []string `json:"company_ids" desc:"1-50 ids; duplicates count once." min:"1"`
	DryRun       bool     `json:"dry_run,omitempty" desc:"Preview only."`
}

type removeFromCollectionOutput struct {
	Collection        tools.Collection `json:"collection"`
	Removed           []string         `json:"removed"`
	NotPresent        []string         `json:"not_present"`
	DuplicatesDropped []string         `json:"duplicates_dropped"`
	DryRun            bool             `json:"dry_run,omitempty"`
	Note              string           `json:"note,omitempty"`
	// names are the companies' names a dry run found in the collection, for
	// the person who confirms the removal (Preview); never sent to the model.
	names map[string]string
}

// Text renders the answer for the model: what was removed from which
// collection, the ids in each list, the collection, then the note.
func (o removeFromCollectionOutput) Text() string {
	c := o.Collection
	var p tools.Plain
	target := "the collection " + untrusted.Quoted(c.Name) + " (" + untrusted.Inline(c.ID) + ")"
	removed := "removed"
	if o.DryRun {
		removed = "would remove"
		p.Line(fmt.Sprintf("Dry run: the call would remove %s from %s, which holds %s now.", companies(len(o.Removed)), target, companies(c.ItemCount)))
	} else {
		p.Line(fmt.Sprintf("Removed %s from %s, which now holds %s.", companies(len(o.Removed)), target, companies(c.ItemCount)))
	}
	p.Fact(removed, untrusted.InlineAll(o.Removed, ", "))
	p.Fact("not present", untrusted.InlineAll(o.NotPresent, ", "))
	p.Fact("duplicates dropped", untrusted.InlineAll(o.DuplicatesDropped, ", "))
	p.Fact("collection", c.Line())
	p.Line(o.Note)
	return p.String()
}

// Touched names the collection and the companies removed from it, for the
// audit record. A call that removed nothing (no id was in the collection)
// and a dry run changed nothing: they name the collection as read, and a dry
// run the companies it would remove.
func (o removeFromCollectionOutput) Touched() tools.Touched {
	col := tools.NonEmpty(o.Collection.ID)
	switch {
	case o.DryRun:
		return tools.Touched{Read: tools.IDs{Collections: col, Companies: o.Removed}}
	case len(o.Removed) == 0:
		return tools.Touched{Read: tools.IDs{Collections: col}}
	}
	return tools.Touched{Written: tools.IDs{Collections: col, Companies: o.Removed}}
}

// ItemCount reports the companies removed, for the audit record.
func (o removeFromCollectionOutput) ItemCount() int { return len(o.Removed) }

// removeFromCollectionFacts are remove_from_collection's facts; the tool
// registers itself with them.
var removeFromCollectionFacts = tools.Facts{
	Name: "remove_from_collection", Order: 10, Kind: tools.Write, PerUser: true,
	Bounds: map[string]string{"company_ids": "1-50 after de-duplication"},
	Needs:  ExtensionRemove,
}

// ExtensionRemove is the schema extension remove_from_collection needs:
// the original schema has no way to take a company out of a collection.
const ExtensionRemove = "Mutation.removeFromCollection"

var _ = registry.Add(removeFromCollectionFacts, func(d Deps) tools.Tool { return NewRemoveFromCollection(d) })

// NewRemoveFromCollection returns the remove_from_collection tool: removes
// companies from one of the caller's collections. Contract: 1-50 ids after
// de-duplication, order kept; reports removed and not present (every id in
// exactly one list; an id that is no company's is not present too) and
// duplicates dropped. Idempotent: removing a company that is not there is
// reported, never refused, so a repeated call changes nothing and fails
// nothing. It is the one destructive write (a removed company loses its
// place and its added date; adding it again puts it last), so it says so in
// destructiveHint, and a client that confirms destructive calls asks first.
// A backend on the API's original schema has no removeFromCollection: the
// call is then refused as backend_error, saying so, and nothing is removed.
func NewRemoveFromCollection(d Deps) tools.Tool {
	return guarded(d, tools.Spec[removeFromCollectionInput, removeFromCollectionOutput]{
		Facts:       removeFromCollectionFacts,
		Title:       "Remove companies from a collection",
		Description: "Remove up to 50 companies from a user's collection. Safe to repeat: reports ids removed or not present.",
		Hints:       tools.Hints{Destructive: true, Idempotent: true, OpenWorld: true},
		DryRun:      func(in removeFromCollectionInput) bool { return in.DryRun },
		NextStep:    tools.CollectionNextStep,
		Run: func(ctx context.Context, in removeFromCollectionInput) (removeFromCollectionOutput, error) {
			return removeFromCollection(ctx, d, in)
		},
	})
}

func removeFromCollection(ctx context.Context, d Deps, in removeFromCollectionInput) (removeFromCollectionOutput, error) {
	ids, dropped := tools.Dedupe(in.CompanyIDs)
	if len(ids) > maxRemove {
		return removeFromCollectionOutput{}, tools.Invalid("company_ids",
			fmt.Sprintf("at most %d distinct ids per call, got %d; split them into several calls", maxRemove, len(ids)))
	}
	if in.DryRun {
		return dryRemoveFromCollection(ctx, d, in.CollectionID, ids, dropped)
	}
	res, err := d.Writer.RemoveFromCollection(ctx, in.CollectionID, ids)
	if errors.Is(err, mutation.ErrRemoveUnsupported) {
		return removeFromCollectionOutput{}, removeUnsupported(err)
	}
	// An answer with data means the write was done: report it, with what
	// failed to come back, rather than an error that invites a retry.
	partial, err := tools.KeepPartial(err)
	if err != nil {
		return removeFromCollectionOutput{}, err
	}
	out := removeFromCollectionOutput{
		Collection:        tools.CollectionFrom(&res.Collection),
		Removed:           nonNil(res.Removed),
		NotPresent:        nonNil(res.NotPresent),
		DuplicatesDropped: nonNil(dropped),
	}
	notes := []string{fmt.Sprintf("Removed %d, not present %d; the collection now holds %d companies.",
		len(out.Removed), len(out.NotPresent), out.Collection.ItemCount)}
	if len(dropped) > 0 {
		notes = append(notes, fmt.Sprintf("Dropped %d duplicate id(s): %s.", len(dropped), strings.Join(dropped, ", ")))
	}
	out.Note = tools.JoinNotes(strings.Join(notes, " "), partial.Note())
	return out, nil
}

// removeUnsupported is the refusal from a backend without removeFromCollection,
// in its words: no argument and no retry can help, only whoever runs the
// data API.
func removeUnsupported(err error) *tools.Error {
	e := tools.Classify(err, "", "")
	words := ""
	if e.Backend != nil && len(e.Backend.Errors) > 0 {
		words = " (it said: " + e.Backend.Errors[0].Message + ")"
	}
	e.Class, e.Retryable, e.RetryAfter = tools.BackendError, false, 0
	e.Message = "this data API cannot remove companies from a collection: it serves the API's original schema, without removeFromCollection" +
		words + ". Nothing was removed; tell the user, who can remove them in the product itself. Retrying will not help"
	return e
}
