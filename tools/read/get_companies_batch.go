package read

import (
	"context"
	"fmt"
	"strings"

	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/tools"
)

// maxBatch is the backend's limit on getCompanies.
const maxBatch = 50

type getCompaniesBatchInput struct {
	IDs []string `json:"ids" desc:"1-50 ids; duplicates count once." min:"1"`
}

type getCompaniesBatchOutput struct {
	Companies         []tools.Company `json:"companies" text:"-"`
	NotFound          []string        `json:"not_found"`
	Failed            []string        `json:"failed,omitempty"`
	DuplicatesDropped []string        `json:"duplicates_dropped"`
	Truncated         bool            `json:"truncated,omitempty"`
	Note              string          `json:"note,omitempty"`
}

// Len, Lines and Cut make the answer a tools.List. A batch has no cursor:
// a cut answer's note names the ids left out, to be asked for again.
func (o getCompaniesBatchOutput) Len() int { return len(o.Companies) }
func (o getCompaniesBatchOutput) Lines() []string {
	out := make([]string, len(o.Companies))
	for i := range o.Companies {
		out[i] = o.Companies[i].Line()
	}
	return out
}
func (o getCompaniesBatchOutput) Cut(n, bound int) tools.List {
	left := make([]string, 0, len(o.Companies)-n)
	for _, c := range o.Companies[n:] {
		left = append(left, c.ID)
	}
	o.Companies, o.Truncated = o.Companies[:n], true
	o.Note = tools.JoinNotes(fmt.Sprintf("Returned %d of the %d companies found, %s; call again with the ids left out: %s.",
		n, n+len(left), cutNote(bound), strings.Join(left, ", ")), o.Note)
	return o
}

// Touched names the companies returned (not the ids asked for), for the
// audit record.
func (o getCompaniesBatchOutput) Touched() tools.Touched {
	return tools.Touched{Read: tools.IDs{Companies: tools.CompanyIDs(o.Companies)}}
}

// getCompaniesBatchFacts are get_companies_batch's facts; the tool registers itself with them.
var getCompaniesBatchFacts = tools.Facts{
	Name: "get_companies_batch", Order: 3, Kind: tools.Read,
	Bounds: map[string]string{"ids": "1-50 after de-duplication"},
}

var _ = registry.Add(getCompaniesBatchFacts, func(d Deps) tools.Tool { return NewGetCompaniesBatch(d.Reader) })

// NewGetCompaniesBatch returns the get_companies_batch tool: up to 50 profiles
// in one call. Contract: 1-50 ids after de-duplication, order kept; reports the
// duplicates dropped and the ids not found, and returns the companies found in
// the order asked.
func NewGetCompaniesBatch(r query.Reader) tools.Tool {
	return tools.New(tools.Spec[getCompaniesBatchInput, getCompaniesBatchOutput]{
		Facts:       getCompaniesBatchFacts,
		Title:       "Look up several company profiles",
		Description: "Up to 50 full company profiles by id, in order given; unknown ids go to not_found.",
		Hints:       readHints,
		Run: func(ctx context.Context, in getCompaniesBatchInput) (getCompaniesBatchOutput, error) {
			return getCompaniesBatch(ctx, r, in)
		},
	})
}

func getCompaniesBatch(ctx context.Context, r query.Reader, in getCompaniesBatchInput) (getCompaniesBatchOutput, error) {
	ids, dropped := tools.Dedupe(in.IDs)
	if len(ids) > maxBatch {
		return getCompaniesBatchOutput{}, tools.Invalid("ids",
			fmt.Sprintf("at most %d distinct ids per call, got %d; split them into several calls", maxBatch, len(ids)))
	}
	found, err := r.GetCompanies(ctx, ids)
	failedErr := err
	partial, err := tools.KeepPartial(err)
	if err != nil {
		return getCompaniesBatchOutput{}, err
	}
	out := getCompaniesBatchOutput{Companies: []tools.Company{}, NotFound: []string{}, DuplicatesDropped: []string{}}
	if dropped != nil {
		out.DuplicatesDropped = dropped
	}
	// A null item with an error at its path failed; one without was not
	// found. An item that arrived with an error below it is kept, and the
	// note names what is missing from it.
	failedAt := partial.FailedItems("getCompanies")
	for i, id := range ids {
		switch {
		case (i >= len(found) || found[i] == nil) && failedAt[i]:
			out.Failed = append(out.Failed, id)
		case i >= len(found) || found[i] == nil:
			out.NotFound = append(out.NotFound, id)
		default:
			out.Companies = append(out.Companies, companyFrom(found[i]))
		}
	}
	if len(out.Companies) == 0 && len(out.Failed) > 0 {
		return getCompaniesBatchOutput{}, failedErr // nothing usable came back
	}
	var notes []string
	notes = append(notes, fmt.Sprintf("Found %d of %d ids.", len(out.Companies), len(ids)))
	if len(dropped) > 0 {
		notes = append(notes, fmt.Sprintf("Dropped %d duplicate id(s): %s.", len(dropped), strings.Join(dropped, ", ")))
	}
	if len(out.NotFound) > 0 {
		notes = append(notes, fmt.Sprintf("Not found: %s.", strings.Join(out.NotFound, ", ")))
	}
	if len(out.Failed) > 0 {
		notes = append(notes, fmt.Sprintf("Failed, retry them: %s.", strings.Join(out.Failed, ", ")))
	}
	for _, c := range out.Companies {
		if len(c.Contacts) > 0 {
			notes = append(notes, tools.ContactsNote)
			break
		}
	}
	out.Note = tools.JoinNotes(strings.Join(notes, " "), partial.Note())
	return out, nil
}
