package write

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/internal/untrusted"
	"github.com/companyintel/mcp-server/ratelimit"
	"github.com/companyintel/mcp-server/tools"
)

type requestEmailDiscoveryInput struct {
	CompanyID string   `json:"company_id" desc:"Company id." max:"100"`
	Roles     []string `json:"roles,omitempty" desc:"E.g. [\"CEO\"]; default: leadership roles." max:"10" chars:"title"`
	DryRun    bool     `json:"dry_run,omitempty" desc:"Preview only."`
}

type emailDiscoveryJob struct {
	ID          string          `json:"id"`
	CompanyID   string          `json:"company_id"`
	Roles       []string        `json:"roles"`
	Status      string          `json:"status" jsonschema:"PENDING, RUNNING, COMPLETED or FAILED."`
	RequestedAt string          `json:"requested_at"`
	CompletedAt string          `json:"completed_at,omitempty"`
	Contacts    []tools.Contact `json:"contacts"`
}

type requestEmailDiscoveryOutput struct {
	Job    emailDiscoveryJob `json:"job"`
	DryRun bool              `json:"dry_run,omitempty"`
	Note   string            `json:"note,omitempty"`
	// company is the company's name a dry run found, for the person who
	// confirms the job (Preview).
	company string
}

// Text renders the answer for the model: the job, its company and status,
// the roles it looks for, its times, the contacts found, then the note.
func (o requestEmailDiscoveryOutput) Text() string {
	j := o.Job
	var p tools.Plain
	company := untrusted.Inline(j.CompanyID)
	if o.company != "" {
		company = untrusted.Quoted(o.company) + " (" + untrusted.Inline(j.CompanyID) + ")"
	}
	if o.DryRun {
		p.Line("Dry run: no email-discovery job was started at " + company + "; status " + j.Status + ".")
	} else {
		p.Line("Email-discovery job " + untrusted.Inline(j.ID) + " at " + company + ": " + untrusted.Inline(j.Status) + ".")
	}
	roles := quotedAll(j.Roles)
	if roles == "" {
		roles = "leadership roles (the default)"
	}
	p.Fact("roles", roles)
	p.Fact("requested", j.RequestedAt)
	p.Fact("completed", j.CompletedAt)
	contacts := make([]string, len(j.Contacts))
	for i, ct := range j.Contacts {
		contacts[i] = ct.Line()
	}
	p.Items("contacts found", "none yet", contacts)
	p.Line(o.Note)
	return p.String()
}

// Touched names the job started and the company it searches, whose
// contacts it will add to, for the audit record; a dry run started nothing
// and names the company it looked up.
func (o requestEmailDiscoveryOutput) Touched() tools.Touched {
	company := tools.NonEmpty(o.Job.CompanyID)
	if o.DryRun {
		return tools.Touched{Read: tools.IDs{Companies: company}}
	}
	return tools.Touched{Written: tools.IDs{Jobs: tools.NonEmpty(o.Job.ID), Companies: company}}
}

// requestEmailDiscoveryFacts are request_email_discovery's facts; the tool registers itself with them.
var requestEmailDiscoveryFacts = tools.Facts{
	Name: "request_email_discovery", Order: 9, Kind: tools.Write, PerUser: true,
	Limit:  ratelimit.Limit{Count: 10, Period: time.Hour},
	Bounds: map[string]string{"roles": "at most 10"},
}

var _ = registry.Add(requestEmailDiscoveryFacts, func(d Deps) tools.Tool { return NewRequestEmailDiscovery(d) })

// NewRequestEmailDiscovery returns the request_email_discovery tool: starts a
// job that finds work emails at a company. Contract: returns the job and its
// status; found contacts then appear on the company (get_company). Expensive
// upstream, so it has a per-caller token bucket (the runtime states the limit
// in the description). Not idempotent: each call starts a job.
func NewRequestEmailDiscovery(d Deps) tools.Tool {
	return guarded(d, tools.Spec[requestEmailDiscoveryInput, requestEmailDiscoveryOutput]{
		Facts: requestEmailDiscoveryFacts,
		Title: "Find work email contacts at a company",
		Description: "Start a job finding work emails at a company; get_company shows what it found. " +
			"Don't repeat while one is pending; a later job may add more people.",
		Hints:  tools.Hints{Destructive: false, Idempotent: false, OpenWorld: true},
		DryRun: func(in requestEmailDiscoveryInput) bool { return in.DryRun },
		NextStep: func(e *tools.Error) string {
			if e.Class == tools.NotFound {
				return "nothing was started; find company ids with search_companies"
			}
			return ""
		},
		Run: func(ctx context.Context, in requestEmailDiscoveryInput) (requestEmailDiscoveryOutput, error) {
			return requestEmailDiscovery(ctx, d, in)
		},
		Follow:      followEmailDiscovery(d),
		TaskSupport: mcp.TaskSupportOptional,
	})
}

func requestEmailDiscovery(ctx context.Context, d Deps, in requestEmailDiscoveryInput) (requestEmailDiscoveryOutput, error) {
	if in.DryRun {
		return dryRequestEmailDiscovery(ctx, d, in)
	}
	job, err := d.Writer.RequestEmailDiscovery(ctx, in.CompanyID, in.Roles)
	// An answer with data means the write was done: report it, with what
	// failed to come back, rather than an error that invites a retry.
	partial, err := tools.KeepPartial(err)
	if err != nil {
		return requestEmailDiscoveryOutput{}, err
	}
	out := requestEmailDiscoveryOutput{Job: shapeJob(job.Id, job.CompanyId, job.Roles, string(job.Status),
		job.RequestedAt, job.CompletedAt, tools.ContactsFrom(job.Contacts))}
	switch job.Status {
	case "COMPLETED":
		out.Note = "Completed; the contacts are also on the company (get_company)."
		if len(out.Job.Contacts) > 0 {
			out.Note += " " + tools.ContactsNote
		}
	case "FAILED":
		out.Note = "The job failed; the backend found no contacts."
	default:
		out.Note = "Started. Contacts appear on the company when the job completes: call get_company in a little while rather than starting another job."
	}
	out.Note = tools.JoinNotes(out.Note, partial.Note())
	return out, nil
}

// Email-discovery tasks: how long one is kept, and how often a client
// should ask. The embedded backend's jobs take about two seconds; a real
// lookup takes longer, and an hour covers it with room.
const (
	emailDiscoveryTaskTTL  = time.Hour
	emailDiscoveryTaskPoll = 2 * time.Second
)

// emailDiscoveryRef is what an email-discovery task keeps of its job.
type emailDiscoveryRef struct {
	ID        string `json:"id"`
	CompanyID string `json:"company_id"`
}

// followEmailDiscovery follows a job with getEmailDiscoveryJob when the call
// became a task: working while the job is PENDING or RUNNING, then the
// tool's answer with the contacts found; a FAILED job, or one the backend no
// longer knows, is an error result. Without Jobs the tool stays synchronous.
func followEmailDiscovery(d Deps) *tools.Follow[requestEmailDiscoveryOutput] {
	if d.Jobs == nil {
		return nil
	}
	return &tools.Follow[requestEmailDiscoveryOutput]{
		TTL: emailDiscoveryTaskTTL, PollInterval: emailDiscoveryTaskPoll,
		Job: func(out requestEmailDiscoveryOutput) (json.RawMessage, string, bool, bool) {
			// A backend that cannot report on a job (the original schema)
			// leaves the call synchronous, once it is known to.
			if out.DryRun || out.Job.ID == "" || d.Jobs.Unsupported() {
				return nil, "", false, false
			}
			ref, _ := json.Marshal(emailDiscoveryRef{ID: out.Job.ID, CompanyID: out.Job.CompanyID})
			return ref, out.Job.ID, jobSettled(out.Job.Status), true
		},
		Poll: func(ctx context.Context, raw json.RawMessage) (requestEmailDiscoveryOutput, bool, string, error) {
			var ref emailDiscoveryRef
			if err := json.Unmarshal(raw, &ref); err != nil || ref.ID == "" {
				return requestEmailDiscoveryOutput{}, false, "", fmt.Errorf("unreadable email-discovery task record: %v", err)
			}
			job, err := d.Jobs.EmailDiscoveryJob(ctx, ref.ID)
			if errors.Is(err, query.ErrJobsUnsupported) {
				return requestEmailDiscoveryOutput{}, false, "", &tools.Error{Class: tools.BackendError,
					Message: "the data API cannot report on job " + ref.ID + " (its schema has no getEmailDiscoveryJob); " +
						"the contacts it finds appear on the company: call get_company with id " + ref.CompanyID + " in a little while"}
			}
			if err != nil && job == nil {
				return requestEmailDiscoveryOutput{}, false, "", err
			}
			if job == nil {
				return requestEmailDiscoveryOutput{}, false, "", tools.NotFoundf("the backend no longer knows email-discovery job %s; "+
					"contacts it found are on the company: call get_company with id %s", ref.ID, ref.CompanyID)
			}
			if !jobSettled(string(job.Status)) {
				return requestEmailDiscoveryOutput{}, false, "email-discovery job " + ref.ID + " is " + string(job.Status), nil
			}
			if job.Status == "FAILED" {
				return requestEmailDiscoveryOutput{}, false, "", &tools.Error{Class: tools.BackendError,
					Message: "the backend's email-discovery job " + ref.ID + " failed and found no contacts; a new job may be started"}
			}
			out := requestEmailDiscoveryOutput{Job: shapeJob(job.Id, job.CompanyId, job.Roles, string(job.Status),
				job.RequestedAt, job.CompletedAt, tools.ContactsFrom(job.Contacts))}
			switch n := len(out.Job.Contacts); n {
			case 0:
				out.Note = "Completed: the job found nobody for these roles."
			default:
				out.Note = fmt.Sprintf("Completed: %d contact(s) found; they are also on the company (get_company). ", n) + tools.ContactsNote
			}
			return out, true, "", nil
		},
	}
}

// jobSettled reports whether a job's status is final.
func jobSettled(status string) bool { return status == "COMPLETED" || status == "FAILED" }

// shapeJob is the answer's job from the backend's, whether the write
// started it (package mutation's type) or a task asked after it (package
// query's): the two generated types hold the same fields.
func shapeJob(id, companyID string, roles []string, status string, requested time.Time, completed *time.Time, contacts []tools.Contact) emailDiscoveryJob {
	j := emailDiscoveryJob{
		ID:          untrusted.Clean(id),
		CompanyID:   untrusted.Clean(companyID),
		Roles:       untrusted.CleanAll(nonNil(roles)),
		Status:      untrusted.Clean(status),
		RequestedAt: tools.Timestamp(requested),
		Contacts:    contacts,
	}
	if completed != nil {
		j.CompletedAt = tools.Timestamp(*completed)
	}
	if j.Contacts == nil {
		j.Contacts = []tools.Contact{}
	}
	return j
}
