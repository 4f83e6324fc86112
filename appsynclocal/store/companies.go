package store

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"github.com/companyintel/mcp-server/appsynclocal/dataset"
)

// MaxBatchIDs is how many ids one Companies call accepts.
const MaxBatchIDs = 50

// Company is a company profile as the API returns it.
type Company struct {
	ID          string
	Name        string
	Domain      string
	Website     string
	Description string
	Country     string // English name
	CountryCode string // ISO alpha-2
	City        string
	Categories  []string
	Employees   int
	Founded     int
	UpdatedAt   time.Time
	// Contacts are the people email discovery found, oldest first.
	Contacts []Contact
}

// Contact is a person email discovery found at a company.
type Contact struct {
	Email        string
	Role         string
	Confidence   float64
	DiscoveredAt time.Time
}

// companyColumnsSQL are the columns scanCompany reads, in its order.
const companyColumnsSQL = `c.num, c.name, c.domain, c.description, c.country, c.city, c.categories, c.employees, c.founded, c.updated_ms`

// Company returns one company by id, or nil when there is none.
func (s *Store) Company(ctx context.Context, id string) (*Company, error) {
	cs, err := s.Companies(ctx, []string{id})
	if err != nil {
		return nil, err
	}
	return cs[0], nil
}

// Companies returns the companies with the given ids, in the order asked, with
// nil where an id does not exist. At most MaxBatchIDs ids are accepted.
func (s *Store) Companies(ctx context.Context, ids []string) ([]*Company, error) {
	if len(ids) > MaxBatchIDs {
		return nil, invalidf("ids has %d entries; at most %d are allowed", len(ids), MaxBatchIDs)
	}
	var nums []int
	for _, id := range ids {
		if n, ok := s.gen.Num(id); ok {
			nums = append(nums, n)
		}
	}
	byNum, err := s.companiesByNum(ctx, nums)
	if err != nil {
		return nil, err
	}
	out := make([]*Company, len(ids))
	for i, id := range ids {
		if n, ok := s.gen.Num(id); ok {
			out[i] = byNum[n]
		}
	}
	return out, nil
}

// companiesByNum loads the given companies with their contacts.
func (s *Store) companiesByNum(ctx context.Context, nums []int) (map[int]*Company, error) {
	out := make(map[int]*Company, len(nums))
	if len(nums) == 0 {
		return out, nil
	}
	args := make([]any, len(nums))
	for i, n := range nums {
		args[i] = n
	}
	rows, err := s.companies.QueryContext(ctx,
		`SELECT `+companyColumnsSQL+` FROM companies c WHERE c.num IN (`+placeholders(len(nums))+`)`, args...)
	if err != nil {
		return nil, err
	}
	list, numsFound, err := s.scanCompanies(rows)
	if err != nil {
		return nil, err
	}
	if err := s.attachContacts(ctx, list); err != nil {
		return nil, err
	}
	for i, n := range numsFound {
		out[n] = &list[i]
	}
	return out, nil
}

// scanCompanies reads rows of companyColumnsSQL and closes them. It returns
// the companies and their numbers, in row order.
func (s *Store) scanCompanies(rows *sql.Rows) ([]Company, []int, error) {
	defer rows.Close()
	var (
		out  []Company
		nums []int
	)
	for rows.Next() {
		var (
			c          Company
			num        int
			categories string
			updated    int64
		)
		if err := rows.Scan(&num, &c.Name, &c.Domain, &c.Description, &c.CountryCode, &c.City,
			&categories, &c.Employees, &c.Founded, &updated); err != nil {
			return nil, nil, err
		}
		c.ID = s.gen.ID(num)
		c.Website = "https://www." + c.Domain
		if co, ok := dataset.CountryByCode(c.CountryCode); ok {
			c.Country = co.Name
		}
		c.Categories = strings.Split(categories, "|")
		c.UpdatedAt = time.UnixMilli(updated).UTC()
		c.Contacts = []Contact{}
		out = append(out, c)
		nums = append(nums, num)
	}
	return out, nums, rows.Err()
}

// attachContacts fills each company's Contacts from the state database, after
// completing any email-discovery job that has become due.
func (s *Store) attachContacts(ctx context.Context, cs []Company) error {
	if len(cs) == 0 {
		return nil
	}
	if err := s.completeDueJobs(ctx); err != nil {
		return err
	}
	index := make(map[string]int, len(cs))
	args := make([]any, len(cs))
	for i, c := range cs {
		index[c.ID] = i
		args[i] = c.ID
	}
	// A person found by two jobs is listed once, as first found; contacts
	// are in the order jobs found them.
	rows, err := s.state.QueryContext(ctx, `
		SELECT company, email, role, confidence, discovered_ms FROM contacts c
		WHERE company IN (`+placeholders(len(cs))+`) AND NOT EXISTS (
			SELECT 1 FROM contacts e WHERE e.company = c.company AND e.email = c.email AND e.job < c.job)
		ORDER BY company, job, ordinal`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			company string
			c       Contact
			ms      int64
		)
		if err := rows.Scan(&company, &c.Email, &c.Role, &c.Confidence, &ms); err != nil {
			return err
		}
		c.DiscoveredAt = time.UnixMilli(ms).UTC()
		i := index[company]
		cs[i].Contacts = append(cs[i].Contacts, c)
	}
	return rows.Err()
}

// placeholders returns "?,?,…" with n marks.
func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?,", n), ",")
}
