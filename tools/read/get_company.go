package read

import (
	"context"

	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/tools"
)

type getCompanyInput struct {
	ID string `json:"id" desc:"From a search, e.g. \"cmp_000123\"." max:"100"`
}

type getCompanyOutput struct {
	Company tools.Company `json:"company"`
	Note    string        `json:"note,omitempty"`
}

// Touched names the company returned, for the audit record.
func (o getCompanyOutput) Touched() tools.Touched {
	return tools.Touched{Read: tools.IDs{Companies: tools.NonEmpty(o.Company.ID)}}
}

// NewGetCompany returns the get_company tool: one full profile by id; an
// unknown id is not_found.
func NewGetCompany(r query.Reader) tools.Tool {
	return tools.New(tools.Spec[getCompanyInput, getCompanyOutput]{
		Name:        "get_company",
		Title:       "Get a company",
		Description: "Fetch one company's full profile by id, with contacts found by request_email_discovery. Several ids: get_companies_batch.",
		Hints:       readHints,
		Run: func(ctx context.Context, in getCompanyInput) (getCompanyOutput, error) {
			return getCompany(ctx, r, in)
		},
	})
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
	return getCompanyOutput{Company: companyFrom(c), Note: partial.Note()}, nil
}
