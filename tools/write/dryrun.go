package write

import (
	"context"
	"fmt"
	"slices"

	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/internal/untrusted"
	"github.com/companyintel/mcp-server/tools"
)

// Lookup is the reading a dry run does: whether a collection of a name
// exists, what a collection holds, whether companies exist. query.Reader
// satisfies it; the write tools read, the read tools never write.
type Lookup interface {
	ListCollections(ctx context.Context, limit *int, nextToken *string) (*query.CollectionPage, error)
	GetCollectionItems(ctx context.Context, collectionID string, limit *int, nextToken *string) (*query.CollectionItemPage, error)
	GetCompanies(ctx context.Context, ids []string) ([]*query.Company, error)
}

// maxDryRunPages bounds the pages a dry run reads (100 items each).
const maxDryRunPages = 50

// dryRunNote starts every dry run's note.
const dryRunNote = "Dry run: nothing was written."

func (d Deps) lookup() (Lookup, error) {
	if d.Lookup == nil {
		return nil, &tools.Error{Class: tools.BackendError, Message: "dry runs are not available on this server; call without dry_run"}
	}
	return d.Lookup, nil
}

// dryCreateCollection reports whether the name is taken.
func dryCreateCollection(ctx context.Context, d Deps, in createCollectionInput) (createCollectionOutput, error) {
	l, err := d.lookup()
	if err != nil {
		return createCollectionOutput{}, err
	}
	limit := 100
	var next *string
	for range maxDryRunPages {
		page, err := l.ListCollections(ctx, &limit, next)
		if err != nil {
			return createCollectionOutput{}, err
		}
		for i := range page.Items {
			if page.Items[i].Name == in.Name {
				return createCollectionOutput{Collection: tools.CollectionFrom(&page.Items[i]), DryRun: true, Note: tools.JoinNotes(dryRunNote,
					"A collection with this name already exists: the call would return it unchanged (created=false). "+tools.BudgetFrom(ctx).String())}, nil
			}
		}
		if page.NextToken == nil || *page.NextToken == "" {
			break
		}
		next = page.NextToken
	}
	return createCollectionOutput{Collection: tools.Collection{Name: in.Name, Description: in.Description}, Created: true, DryRun: true,
		Note: tools.JoinNotes(dryRunNote, "No collection has this name: the call would create it (created=true). "+tools.BudgetFrom(ctx).String())}, nil
}

// dryAddToCollection sorts the ids into would add, already present and not
// found, from the collection's items and a lookup of the rest.
func dryAddToCollection(ctx context.Context, d Deps, collectionID string, ids, dropped []string) (addToCollectionOutput, error) {
	l, err := d.lookup()
	if err != nil {
		return addToCollectionOutput{}, err
	}
	limit := 100
	var next *string
	present := map[string]bool{}
	names := map[string]string{}
	var col tools.Collection
	for range maxDryRunPages {
		page, err := l.GetCollectionItems(ctx, collectionID, &limit, next)
		if err != nil {
			return addToCollectionOutput{}, err
		}
		col = tools.CollectionFrom(&page.Collection)
		for _, it := range page.Items {
			present[it.Company.Id] = true
			names[it.Company.Id] = untrusted.Clean(it.Company.Name)
		}
		if page.NextToken == nil || *page.NextToken == "" {
			break
		}
		next = page.NextToken
	}
	out := addToCollectionOutput{Collection: col, Added: []string{}, AlreadyPresent: []string{}, NotFound: []string{}, DuplicatesDropped: nonNil(dropped), DryRun: true, names: names}
	var rest []string
	for _, id := range ids {
		if present[id] {
			out.AlreadyPresent = append(out.AlreadyPresent, id)
		} else {
			rest = append(rest, id)
		}
	}
	if len(rest) > 0 {
		found, err := l.GetCompanies(ctx, rest)
		if err != nil {
			return addToCollectionOutput{}, err
		}
		for i, id := range rest {
			if i < len(found) && found[i] != nil {
				out.Added = append(out.Added, id)
				names[id] = untrusted.Clean(found[i].Name)
			} else {
				out.NotFound = append(out.NotFound, id)
			}
		}
	}
	out.Note = tools.JoinNotes(dryRunNote, fmt.Sprintf("The call would add %d (listed in added), find %d already present and %d not found; the collection would then hold %d companies. %s",
		len(out.Added), len(out.AlreadyPresent), len(out.NotFound), col.ItemCount+len(out.Added), tools.BudgetFrom(ctx)))
	return out, nil
}

// dryRemoveFromCollection sorts the ids into would remove and not present,
// from the collection's items.
func dryRemoveFromCollection(ctx context.Context, d Deps, collectionID string, ids, dropped []string) (removeFromCollectionOutput, error) {
	l, err := d.lookup()
	if err != nil {
		return removeFromCollectionOutput{}, err
	}
	limit := 100
	var next *string
	names := map[string]string{}
	var col tools.Collection
	for range maxDryRunPages {
		page, err := l.GetCollectionItems(ctx, collectionID, &limit, next)
		if err != nil {
			return removeFromCollectionOutput{}, err
		}
		col = tools.CollectionFrom(&page.Collection)
		for _, it := range page.Items {
			names[it.Company.Id] = untrusted.Clean(it.Company.Name)
		}
		if page.NextToken == nil || *page.NextToken == "" {
			break
		}
		next = page.NextToken
	}
	out := removeFromCollectionOutput{Collection: col, Removed: []string{}, NotPresent: []string{}, DuplicatesDropped: nonNil(dropped), DryRun: true, names: names}
	for _, id := range ids {
		if _, ok := names[id]; ok {
			out.Removed = append(out.Removed, id)
		} else {
			out.NotPresent = append(out.NotPresent, id)
		}
	}
	out.Note = tools.JoinNotes(dryRunNote, fmt.Sprintf("The call would remove %d (listed in removed) and find %d not present; the collection would then hold %d companies. %s",
		len(out.Removed), len(out.NotPresent), col.ItemCount-len(out.Removed), tools.BudgetFrom(ctx)))
	return out, nil
}

// dryRequestEmailDiscovery checks that the company exists.
func dryRequestEmailDiscovery(ctx context.Context, d Deps, in requestEmailDiscoveryInput) (requestEmailDiscoveryOutput, error) {
	l, err := d.lookup()
	if err != nil {
		return requestEmailDiscoveryOutput{}, err
	}
	found, err := l.GetCompanies(ctx, []string{in.CompanyID})
	if err != nil {
		return requestEmailDiscoveryOutput{}, err
	}
	if len(found) == 0 || found[0] == nil {
		return requestEmailDiscoveryOutput{}, tools.NotFoundf("no company has id %q; the call would fail. Find ids with search_companies", tools.Excerpt(in.CompanyID))
	}
	roles := slices.Clone(nonNil(in.Roles))
	name := untrusted.Clean(found[0].Name)
	return requestEmailDiscoveryOutput{DryRun: true, company: name, Job: emailDiscoveryJob{CompanyID: in.CompanyID, Roles: roles, Status: "NOT_STARTED", Contacts: []tools.Contact{}},
		Note: tools.JoinNotes(dryRunNote, fmt.Sprintf("The call would start an email-discovery job at %s. %s", untrusted.Quoted(name), tools.BudgetFrom(ctx)))}, nil
}
