package read

import (
	"context"

	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/tools"
	"github.com/companyintel/mcp-server/views"
)

type getCompanyInput struct {
	ID string `json:"id" desc:"E.g. \"cmp_000123\"." max:"100"`
}

type getCompanyOutput struct {
	Company profile `json:"company"`
	Note    string  `json:"note,omitempty"`
}

// profile is a company with its contacts always listed: an empty list says
// "none found yet" where an absent field would leave a model guessing.
type profile struct {
	tools.Company
	// Contacts shadows the embedded, omitted-when-empty field.
	Contacts []tools.Contact `json:"contacts"`
}

// noContactsNote says how to get contacts for a profile that has none.
const noContactsNote = "No contacts yet: request_email_discovery finds work emails (where this server allows writes); get_company then shows them."

// Touched names the company returned, for the audit record.
func (o getCompanyOutput) Touched() tools.Touched {
	return tools.Touched{Read: tools.IDs{Companies: tools.NonEmpty(o.Company.ID)}}
}

// getCompanyFacts are get_company's facts; the tool registers itself with them.
var getCompanyFacts = tools.Facts{
	Name: "get_company", Order: 2, Kind: tools.Read,
}

var _ = registry.Add(getCompanyFacts, func(d Deps) tools.Tool { return NewGetCompany(d.Reader) })

// NewGetCompany returns the get_company tool: one full profile by id; an
// unknown id is not_found. The profile always has a contacts list; when it
// is empty the note says how to get contacts (request_email_discovery).
func NewGetCompany(r query.Reader) tools.Tool {
	return tools.New(tools.Spec[getCompanyInput, getCompanyOutput]{
		Facts:       getCompanyFacts,
		Title:       "Get a company",
		Description: "One company's full profile by id, with contacts found by request_email_discovery.",
		Hints:       readHints,
		Run: func(ctx context.Context, in getCompanyInput) (getCompanyOutput, error) {
			return getCompany(ctx, r, in)
		},
	}).WithView(views.ProfileURI)
}

func getCompany(ctx context.Context, r query.Reader, in getCompanyInput) (getCompanyOutput, error) {
	c, err := r.GetCompany(ctx, in.ID)
	partial, err := tools.KeepPartial(err)
	if err != nil {
		return getCompanyOutput{}, err
	}
	if c == nil {
		return getCompanyOutput{}, tools.NotFoundf("no company has id %q; find ids with search_companies or ai_search", in.ID)
	}
	out := getCompanyOutput{Company: profile{Company: companyFrom(c), Contacts: tools.ContactsFrom(c.Contacts)}}
	if len(out.Company.Contacts) == 0 {
		out.Company.Contacts = []tools.Contact{}
		out.Note = noContactsNote
	}
	out.Note = tools.JoinNotes(out.Note, partial.Note())
	return out, nil
}
