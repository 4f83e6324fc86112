package tools

import (
	"time"

	"github.com/companyintel/mcp-server/graphql"
)

// The shapes below are what tools return: snake_case, flat, and without the
// backend's type names, so a model reads them easily and the output schema
// stays stable when the GraphQL client is regenerated.

// Company is a company profile as tools return it.
type Company struct {
	ID            string    `json:"id" jsonschema:"Company id; pass it to get_company, get_companies_batch, add_to_collection or request_email_discovery."`
	Name          string    `json:"name"`
	Domain        string    `json:"domain"`
	Website       string    `json:"website,omitempty"`
	Description   string    `json:"description,omitempty"`
	Country       string    `json:"country" jsonschema:"English short name, e.g. United States."`
	CountryCode   string    `json:"country_code" jsonschema:"ISO 3166-1 alpha-2."`
	City          string    `json:"city,omitempty"`
	Categories    []string  `json:"categories"`
	EmployeeCount *int      `json:"employee_count,omitempty"`
	FoundedYear   *int      `json:"founded_year,omitempty"`
	UpdatedAt     string    `json:"updated_at"`
	Contacts      []Contact `json:"contacts,omitempty" jsonschema:"Email contacts found by request_email_discovery."`
}

// Contact is a person's work email at a company.
type Contact struct {
	Email        string  `json:"email"`
	Role         string  `json:"role"`
	Confidence   float64 `json:"confidence" jsonschema:"0 to 1."`
	DiscoveredAt string  `json:"discovered_at"`
}

// Collection is a user's named set of companies.
type Collection struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	ItemCount   int    `json:"item_count"`
	CreatedAt   string `json:"created_at"`
	UpdatedAt   string `json:"updated_at"`
}

// CompanyFrom shapes a company from the GraphQL client.
func CompanyFrom(c *graphql.Company) Company {
	out := Company{
		ID:            c.Id,
		Name:          c.Name,
		Domain:        c.Domain,
		Website:       deref(c.Website),
		Description:   deref(c.Description),
		Country:       c.Country,
		CountryCode:   c.CountryCode,
		City:          deref(c.City),
		Categories:    c.Categories,
		EmployeeCount: c.EmployeeCount,
		FoundedYear:   c.FoundedYear,
		UpdatedAt:     Timestamp(c.UpdatedAt),
		Contacts:      ContactsFrom(c.Contacts),
	}
	if out.Categories == nil {
		out.Categories = []string{}
	}
	return out
}

// CompaniesFrom shapes a list of companies.
func CompaniesFrom(cs []graphql.Company) []Company {
	out := make([]Company, len(cs))
	for i := range cs {
		out[i] = CompanyFrom(&cs[i])
	}
	return out
}

// ContactsFrom shapes contacts.
func ContactsFrom(cs []graphql.Contact) []Contact {
	if len(cs) == 0 {
		return nil
	}
	out := make([]Contact, len(cs))
	for i, c := range cs {
		out[i] = Contact{Email: c.Email, Role: c.Role, Confidence: c.Confidence, DiscoveredAt: Timestamp(c.DiscoveredAt)}
	}
	return out
}

// CollectionFrom shapes a collection.
func CollectionFrom(c *graphql.Collection) Collection {
	return Collection{
		ID:          c.Id,
		Name:        c.Name,
		Description: deref(c.Description),
		ItemCount:   c.ItemCount,
		CreatedAt:   Timestamp(c.CreatedAt),
		UpdatedAt:   Timestamp(c.UpdatedAt),
	}
}

// Timestamp renders a time as RFC 3339 in UTC, or "" for the zero time.
func Timestamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
