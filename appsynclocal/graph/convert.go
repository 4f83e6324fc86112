package graph

import (
	"strings"

	"github.com/companyintel/mcp-server/appsynclocal/graph/model"
	"github.com/companyintel/mcp-server/appsynclocal/store"
)

// The schema's nullable fields are pointers in the model; synthetic profiles
// always have them, so they are always set.

func toCompany(c *store.Company) *model.Company {
	if c == nil {
		return nil
	}
	contacts := make([]*model.Contact, len(c.Contacts))
	for i, ct := range c.Contacts {
		contacts[i] = &model.Contact{Email: ct.Email, Role: ct.Role, Confidence: ct.Confidence, DiscoveredAt: ct.DiscoveredAt}
	}
	return &model.Company{
		ID:            c.ID,
		Name:          c.Name,
		Domain:        c.Domain,
		Website:       ptr(c.Website),
		Description:   ptr(c.Description),
		Country:       c.Country,
		CountryCode:   c.CountryCode,
		City:          ptr(c.City),
		Categories:    c.Categories,
		EmployeeCount: ptr(c.Employees),
		FoundedYear:   ptr(c.Founded),
		UpdatedAt:     c.UpdatedAt,
		Contacts:      contacts,
	}
}

func toCompanies(cs []store.Company) []*model.Company {
	out := make([]*model.Company, len(cs))
	for i := range cs {
		out[i] = toCompany(&cs[i])
	}
	return out
}

func toCollection(c *store.Collection) *model.Collection {
	return &model.Collection{
		ID:          c.ID,
		Name:        c.Name,
		Description: c.Description,
		ItemCount:   c.ItemCount,
		CreatedAt:   c.CreatedAt,
		UpdatedAt:   c.UpdatedAt,
	}
}

func toJob(j *store.Job) *model.EmailDiscoveryJob {
	contacts := make([]*model.Contact, len(j.Contacts))
	for i, ct := range j.Contacts {
		contacts[i] = &model.Contact{Email: ct.Email, Role: ct.Role, Confidence: ct.Confidence, DiscoveredAt: ct.DiscoveredAt}
	}
	return &model.EmailDiscoveryJob{
		ID:          j.ID,
		CompanyID:   j.CompanyID,
		Roles:       j.Roles,
		Status:      model.EmailDiscoveryStatus(j.Status),
		RequestedAt: j.RequestedAt,
		CompletedAt: j.CompletedAt,
		Contacts:    contacts,
	}
}

// token returns nil for "", the schema's null on the last page.
func token(t string) *string {
	if t == "" {
		return nil
	}
	return &t
}

// deref returns the string *p, or "" for nil.
func deref(p *string) string {
	if p == nil {
		return ""
	}
	return strings.TrimSpace(*p)
}

func ptr[T any](v T) *T { return &v }

// derefInt is *p, or 0 (the store's "no bound") for nil.
func derefInt(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}
