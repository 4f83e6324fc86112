package tools

import (
	"time"

	"github.com/companyintel/mcp-server/internal/untrusted"
)

// The shapes below are what tools return: snake_case, flat, and without the
// backend's type names, so a model reads them easily and the output schema
// stays stable when the GraphQL client is regenerated. Every string the
// backend wrote is cleaned where it is shaped (internal/untrusted.Clean):
// structuredContent, text and exports all start from the cleaned value.

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
	// NameKnown says whether the person's name is known. The data API's
	// contacts carry an email and a role, no name, so it is false: agents
	// took a name read off the address ("j.smith@") for a known one.
	NameKnown bool `json:"name_known" jsonschema:"False: no name is known; do not infer one from the email."`
}

// ContactsNote is said wherever contacts are listed: they carry no
// person's name.
const ContactsNote = "Contacts have no person's name (name_known false): the data API gives an email and a role only, so do not infer a name from the address."

// Collection is a user's named set of companies.
type Collection struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	ItemCount   int    `json:"item_count"`
	CreatedAt   string `json:"created_at"`
	UpdatedAt   string `json:"updated_at"`
}

// ContactFields is what a generated contact offers. Package graphql/query and
// package graphql/mutation each generate their own Contact type from one
// shared fragment; this interface takes either without importing both.
type ContactFields interface {
	GetEmail() string
	GetRole() string
	GetConfidence() float64
	GetDiscoveredAt() time.Time
}

// ContactsFrom shapes contacts.
func ContactsFrom[C any, P interface {
	*C
	ContactFields
}](cs []C) []Contact {
	if len(cs) == 0 {
		return nil
	}
	out := make([]Contact, len(cs))
	for i := range cs {
		c := P(&cs[i])
		out[i] = Contact{Email: untrusted.Clean(c.GetEmail()), Role: untrusted.Clean(c.GetRole()), Confidence: c.GetConfidence(), DiscoveredAt: Timestamp(c.GetDiscoveredAt())}
	}
	return out
}

// CollectionFields is what a generated collection offers; like
// ContactFields, it takes the type of either generated package.
type CollectionFields interface {
	GetId() string
	GetName() string
	GetDescription() *string
	GetItemCount() int
	GetCreatedAt() time.Time
	GetUpdatedAt() time.Time
}

// CollectionFrom shapes a collection.
func CollectionFrom(c CollectionFields) Collection {
	return Collection{
		ID:          untrusted.Clean(c.GetId()),
		Name:        untrusted.Clean(c.GetName()),
		Description: untrusted.Clean(deref(c.GetDescription())),
		ItemCount:   c.GetItemCount(),
		CreatedAt:   Timestamp(c.GetCreatedAt()),
		UpdatedAt:   Timestamp(c.GetUpdatedAt()),
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
