package qualify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/companyintel/mcp-server/graphql"
)

// direct asks the backend the same questions the tools ask, over plain
// HTTP with the same credentials, selecting only the fields compared. It
// is written apart from graphql/query and graphql/mutation on purpose: a
// mistake shared by the server's client and the suite's would go unseen.
type direct struct {
	endpoint string
	client   *http.Client
	// lacksSearchExtensions is set once the backend refused
	// searchCompanies' extensions (searchExtended): it is on the original
	// schema, and from then on only the original search is asked.
	lacksSearchExtensions bool
}

// do posts one operation and decodes its data into out.
func (d *direct) do(ctx context.Context, doc string, vars map[string]any, out any) error {
	body, err := json.Marshal(map[string]any{"query": doc, "variables": vars})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.endpoint, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := d.client.Do(req)
	if err != nil {
		return fmt.Errorf("direct GraphQL: %w", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return fmt.Errorf("direct GraphQL: reading the answer: %w", err)
	}
	var env struct {
		Data   json.RawMessage        `json:"data"`
		Errors []graphql.GraphQLError `json:"errors"`
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		return fmt.Errorf("direct GraphQL: HTTP %d, not JSON: %.200s", resp.StatusCode, raw)
	}
	if len(env.Errors) > 0 {
		return &gqlErrors{env.Errors}
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("direct GraphQL: HTTP %d", resp.StatusCode)
	}
	return json.Unmarshal(env.Data, out)
}

// gqlErrors is the backend's refusal of a direct request, in its words.
type gqlErrors struct{ errs []graphql.GraphQLError }

func (e *gqlErrors) Error() string {
	msgs := make([]string, len(e.errs))
	for i, g := range e.errs {
		msgs[i] = g.Message
	}
	return "direct GraphQL: " + strings.Join(msgs, "; ")
}

// unknownToSchema reports whether err refuses a document for naming a field
// the backend's schema lacks (graphql.GraphQLError.IsUnknownToSchema): a
// backend on the API's original schema, without its optional extensions.
func unknownToSchema(err error) bool {
	var e *gqlErrors
	if !errors.As(err, &e) {
		return false
	}
	for _, g := range e.errs {
		if g.IsUnknownToSchema() {
			return true
		}
	}
	return false
}

// The shapes below hold what the backend says, in its own field names.
type (
	gCompany struct {
		ID            string   `json:"id"`
		Name          string   `json:"name"`
		Domain        string   `json:"domain"`
		CountryCode   string   `json:"countryCode"`
		City          *string  `json:"city"`
		Categories    []string `json:"categories"`
		EmployeeCount *int     `json:"employeeCount"`
		FoundedYear   *int     `json:"foundedYear"`
	}
	gPage struct {
		Items     []gCompany `json:"items"`
		NextToken *string    `json:"nextToken"`
		Total     int        `json:"total"`
	}
	gCollection struct {
		ID        string `json:"id"`
		Name      string `json:"name"`
		ItemCount int    `json:"itemCount"`
	}
)

const companyFields = `id name domain countryCode city categories employeeCount foundedYear`

func (d *direct) search(ctx context.Context, keyword string, filters []string, limit int, next string) (gPage, error) {
	var out struct {
		P gPage `json:"searchCompanies"`
	}
	vars := map[string]any{"filters": filters, "limit": limit}
	if keyword != "" {
		vars["keyword"] = keyword
	}
	if next != "" {
		vars["nextToken"] = next
	}
	err := d.do(ctx, `query($keyword: String, $filters: [String!], $limit: Int, $nextToken: String) {
  searchCompanies(keyword: $keyword, filters: $filters, limit: $limit, nextToken: $nextToken) { items { `+companyFields+` } nextToken total } }`, vars, &out)
	return out.P, err
}

func (d *direct) company(ctx context.Context, id string) (*gCompany, error) {
	var out struct {
		C *gCompany `json:"getCompany"`
	}
	err := d.do(ctx, `query($id: ID!) { getCompany(id: $id) { `+companyFields+` } }`, map[string]any{"id": id}, &out)
	return out.C, err
}

func (d *direct) companies(ctx context.Context, ids []string) ([]*gCompany, error) {
	var out struct {
		C []*gCompany `json:"getCompanies"`
	}
	err := d.do(ctx, `query($ids: [ID!]!) { getCompanies(ids: $ids) { `+companyFields+` } }`, map[string]any{"ids": ids}, &out)
	return out.C, err
}

type gAiResult struct {
	Items          []gCompany `json:"items"`
	Total          int        `json:"total"`
	AppliedFilters []string   `json:"appliedFilters"`
	Keywords       *string    `json:"keywords"`
	MinEmployees   *int       `json:"minEmployees"`
	MaxEmployees   *int       `json:"maxEmployees"`
	FoundedAfter   *int       `json:"foundedAfter"`
	FoundedBefore  *int       `json:"foundedBefore"`
	NotApplied     []string   `json:"notApplied"`
}

func (d *direct) aiSearch(ctx context.Context, q string, limit int) (gAiResult, error) {
	var out struct {
		R gAiResult `json:"aiSearch"`
	}
	vars := map[string]any{"q": q, "limit": limit}
	err := d.do(ctx, `query($q: String!, $limit: Int) { aiSearch(query: $q, limit: $limit) { items { `+companyFields+` } total appliedFilters keywords minEmployees maxEmployees foundedAfter foundedBefore notApplied } }`,
		vars, &out)
	if unknownToSchema(err) {
		// The original schema: no founding-year range, no notApplied.
		err = d.do(ctx, `query($q: String!, $limit: Int) { aiSearch(query: $q, limit: $limit) { items { `+companyFields+` } total appliedFilters keywords minEmployees maxEmployees } }`,
			vars, &out)
	}
	return out.R, err
}

type gVocabulary struct {
	Countries []struct {
		Value string `json:"value"`
		Code  string `json:"code"`
		Count int    `json:"count"`
	} `json:"countries"`
	Categories []struct {
		Value string `json:"value"`
		Count int    `json:"count"`
	} `json:"categories"`
}

func (d *direct) vocabulary(ctx context.Context) (gVocabulary, error) {
	var out struct {
		V gVocabulary `json:"filterVocabulary"`
	}
	err := d.do(ctx, `{ filterVocabulary { countries { value code count } categories { value count } } }`, nil, &out)
	return out.V, err
}

type gCollectionPage struct {
	Items     []gCollection `json:"items"`
	NextToken *string       `json:"nextToken"`
	Total     int           `json:"total"`
}

func (d *direct) collections(ctx context.Context, limit int) (gCollectionPage, error) {
	var out struct {
		P gCollectionPage `json:"listCollections"`
	}
	err := d.do(ctx, `query($limit: Int) { listCollections(limit: $limit) { items { id name itemCount } nextToken total } }`,
		map[string]any{"limit": limit}, &out)
	return out.P, err
}

type gItemPage struct {
	Collection gCollection `json:"collection"`
	Items      []struct {
		Company gCompany `json:"company"`
	} `json:"items"`
	NextToken *string `json:"nextToken"`
	Total     int     `json:"total"`
}

func (d *direct) items(ctx context.Context, collectionID string, limit int) (gItemPage, error) {
	var out struct {
		P gItemPage `json:"getCollectionItems"`
	}
	err := d.do(ctx, `query($id: ID!, $limit: Int) { getCollectionItems(collectionId: $id, limit: $limit) {
  collection { id name itemCount } items { company { `+companyFields+` } } nextToken total } }`,
		map[string]any{"id": collectionID, "limit": limit}, &out)
	return out.P, err
}

type gCreated struct {
	Collection gCollection `json:"collection"`
	Created    bool        `json:"created"`
}

func (d *direct) createCollection(ctx context.Context, name string) (gCreated, error) {
	var out struct {
		R gCreated `json:"createCollection"`
	}
	err := d.do(ctx, `mutation($name: String!) { createCollection(name: $name) { collection { id name itemCount } created } }`,
		map[string]any{"name": name}, &out)
	return out.R, err
}

type gAdded struct {
	Collection     gCollection `json:"collection"`
	Added          []string    `json:"added"`
	AlreadyPresent []string    `json:"alreadyPresent"`
	NotFound       []string    `json:"notFound"`
}

func (d *direct) add(ctx context.Context, collectionID string, ids []string) (gAdded, error) {
	var out struct {
		R gAdded `json:"addToCollection"`
	}
	err := d.do(ctx, `mutation($id: ID!, $ids: [ID!]!) { addToCollection(collectionId: $id, companyIds: $ids) {
  collection { id name itemCount } added alreadyPresent notFound } }`, map[string]any{"id": collectionID, "ids": ids}, &out)
	return out.R, err
}

type gRemoved struct {
	Collection gCollection `json:"collection"`
	Removed    []string    `json:"removed"`
	NotPresent []string    `json:"notPresent"`
}

// remove is removeFromCollection, an extension of the original schema: a
// backend without it refuses the document (unknownToSchema).
func (d *direct) remove(ctx context.Context, collectionID string, ids []string) (gRemoved, error) {
	var out struct {
		R gRemoved `json:"removeFromCollection"`
	}
	err := d.do(ctx, `mutation($id: ID!, $ids: [ID!]!) { removeFromCollection(collectionId: $id, companyIds: $ids) {
  collection { id name itemCount } removed notPresent } }`, map[string]any{"id": collectionID, "ids": ids}, &out)
	return out.R, err
}

type gJob struct {
	ID        string   `json:"id"`
	CompanyID string   `json:"companyId"`
	Roles     []string `json:"roles"`
	Status    string   `json:"status"`
}

func (d *direct) emailDiscovery(ctx context.Context, companyID string, roles []string) (gJob, error) {
	var out struct {
		J gJob `json:"requestEmailDiscovery"`
	}
	err := d.do(ctx, `mutation($id: ID!, $roles: [String!]) { requestEmailDiscovery(companyId: $id, roles: $roles) { id companyId roles status } }`,
		map[string]any{"id": companyID, "roles": roles}, &out)
	return out.J, err
}
