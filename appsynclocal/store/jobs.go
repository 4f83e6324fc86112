package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Job statuses, as the EmailDiscoveryStatus enum spells them.
const (
	JobPending   = "PENDING"
	JobCompleted = "COMPLETED"
)

// Bounds on a discovery request's roles.
const (
	maxRoles   = 10
	maxRoleLen = 100
)

// Job is an email-discovery job.
type Job struct {
	ID          string
	CompanyID   string
	Roles       []string
	Status      string
	RequestedAt time.Time
	CompletedAt *time.Time
	// Contacts are what the job found; empty until it completes.
	Contacts []Contact
}

// RequestEmailDiscovery starts a job finding contacts at a company. The job
// completes JobDelay after it was requested: not by a timer, but whenever the
// store is next read after that moment, so an injected clock decides it and
// tests never sleep. An unknown company is ErrNotFound.
func (s *Store) RequestEmailDiscovery(ctx context.Context, owner, companyID string, roles []string) (*Job, error) {
	if owner == "" {
		return nil, errNoOwner
	}
	roles, err := cleanRoles(roles)
	if err != nil {
		return nil, err
	}
	if _, ok := s.gen.Num(companyID); !ok {
		return nil, ErrNotFound
	}
	rolesJSON, _ := json.Marshal(roles) // []string always marshals
	now := s.now().UnixMilli()
	due := now + max(0, s.jobDelay.Milliseconds())

	tx, err := s.state.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	id := newID("job_")
	if _, err := tx.ExecContext(ctx, `
		INSERT INTO jobs (id, owner, company, roles, status, requested_ms, due_ms) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		id, owner, companyID, string(rolesJSON), JobPending, now, due); err != nil {
		return nil, fmt.Errorf("request email discovery: %w", err)
	}
	if due <= now {
		if err := s.completeJobs(ctx, tx, now); err != nil {
			return nil, err
		}
	}
	job, err := s.readJob(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	return job, tx.Commit()
}

// cleanRoles trims roles, drops empty and repeated ones, and enforces bounds.
func cleanRoles(roles []string) ([]string, error) {
	if len(roles) > maxRoles {
		return nil, invalidf("roles has %d entries; at most %d are allowed", len(roles), maxRoles)
	}
	out := []string{}
	for _, r := range roles {
		r = strings.TrimSpace(r)
		if utf8.RuneCountInString(r) > maxRoleLen {
			return nil, invalidf("role %.20q… is longer than %d characters", r, maxRoleLen)
		}
		if r != "" && !containsFold(out, r) {
			out = append(out, r)
		}
	}
	return out, nil
}

// completeDueJobs completes every job whose time has come. The common case,
// nothing due, is one indexed read and takes no write lock.
func (s *Store) completeDueJobs(ctx context.Context) error {
	now := s.now().UnixMilli()
	var due bool
	if err := s.state.QueryRowContext(ctx,
		`SELECT EXISTS (SELECT 1 FROM jobs WHERE status = ? AND due_ms <= ?)`, JobPending, now).Scan(&due); err != nil {
		return fmt.Errorf("checking jobs: %w", err)
	}
	if !due {
		return nil
	}
	tx, err := s.state.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := s.completeJobs(ctx, tx, now); err != nil {
		return err
	}
	return tx.Commit()
}

// completeJobs marks due jobs COMPLETED and stores the contacts each found,
// discovered at the job's due time, whenever it is actually observed.
func (s *Store) completeJobs(ctx context.Context, tx *sql.Tx, now int64) error {
	rows, err := tx.QueryContext(ctx,
		`SELECT seq, company, roles, due_ms FROM jobs WHERE status = ? AND due_ms <= ?`, JobPending, now)
	if err != nil {
		return err
	}
	type due struct {
		seq     int64
		company string
		roles   []string
		at      int64
	}
	var jobs []due
	for rows.Next() {
		var (
			j     due
			roles string
		)
		if err := rows.Scan(&j.seq, &j.company, &roles, &j.at); err != nil {
			rows.Close()
			return err
		}
		if err := json.Unmarshal([]byte(roles), &j.roles); err != nil {
			rows.Close()
			return fmt.Errorf("job %d has unreadable roles: %w", j.seq, err)
		}
		jobs = append(jobs, j)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, j := range jobs {
		num, ok := s.gen.Num(j.company)
		if !ok {
			return fmt.Errorf("job %d names unknown company %q", j.seq, j.company)
		}
		for i, c := range s.gen.Contacts(s.gen.Company(num), uint64(j.seq), j.roles) {
			if _, err := tx.ExecContext(ctx, `
				INSERT INTO contacts (job, ordinal, company, email, role, confidence, discovered_ms) VALUES (?, ?, ?, ?, ?, ?, ?)`,
				j.seq, i, j.company, c.Email, c.Role, c.Confidence, j.at); err != nil {
				return fmt.Errorf("storing contacts: %w", err)
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE jobs SET status = ?, completed_ms = ? WHERE seq = ?`,
			JobCompleted, j.at, j.seq); err != nil {
			return err
		}
	}
	return nil
}

// readJob loads a job with its contacts.
func (s *Store) readJob(ctx context.Context, tx *sql.Tx, id string) (*Job, error) {
	var (
		j         Job
		seq       int64
		roles     string
		requested int64
		completed sql.NullInt64
	)
	err := tx.QueryRowContext(ctx, `SELECT seq, company, roles, status, requested_ms, completed_ms FROM jobs WHERE id = ?`, id).
		Scan(&seq, &j.CompanyID, &roles, &j.Status, &requested, &completed)
	if err != nil {
		return nil, fmt.Errorf("reading job: %w", err)
	}
	j.ID = id
	if err := json.Unmarshal([]byte(roles), &j.Roles); err != nil {
		return nil, fmt.Errorf("job %s has unreadable roles: %w", id, err)
	}
	j.RequestedAt = time.UnixMilli(requested).UTC()
	if completed.Valid {
		t := time.UnixMilli(completed.Int64).UTC()
		j.CompletedAt = &t
	}
	j.Contacts = []Contact{}
	rows, err := tx.QueryContext(ctx, `SELECT email, role, confidence, discovered_ms FROM contacts WHERE job = ? ORDER BY ordinal`, seq)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			c  Contact
			ms int64
		)
		if err := rows.Scan(&c.Email, &c.Role, &c.Confidence, &ms); err != nil {
			return nil, err
		}
		c.DiscoveredAt = time.UnixMilli(ms).UTC()
		j.Contacts = append(j.Contacts, c)
	}
	return &j, rows.Err()
}

func containsFold(s []string, v string) bool {
	for _, x := range s {
		if strings.EqualFold(x, v) {
			return true
		}
	}
	return false
}

// EmailDiscoveryJob returns one of owner's jobs, completing it first when
// its time has come (as every read does), so an injected clock decides
// what the caller sees. A job of another owner, or none, is ErrNotFound:
// the two are indistinguishable.
func (s *Store) EmailDiscoveryJob(ctx context.Context, owner, id string) (*Job, error) {
	if owner == "" {
		return nil, errNoOwner
	}
	if err := s.completeDueJobs(ctx); err != nil {
		return nil, err
	}
	tx, err := s.state.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	var mine bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM jobs WHERE id = ? AND owner = ?)`, id, owner).Scan(&mine); err != nil {
		return nil, fmt.Errorf("reading job: %w", err)
	}
	if !mine {
		return nil, ErrNotFound
	}
	return s.readJob(ctx, tx, id)
}
