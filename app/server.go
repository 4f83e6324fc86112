package app

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/companyintel/mcp-server/auth"
	"github.com/companyintel/mcp-server/graphql/mutation"
	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/internal/config"
	"github.com/companyintel/mcp-server/internal/sealed"
	"github.com/companyintel/mcp-server/ratelimit"
	"github.com/companyintel/mcp-server/tools"
	"github.com/companyintel/mcp-server/tools/feedback"
	"github.com/companyintel/mcp-server/tools/read"
	"github.com/companyintel/mcp-server/tools/write"
)

// Parts are what the MCP server is assembled from.
type Parts struct {
	// Reader and Writer reach the backend. Read tools get only the Reader.
	Reader query.Reader
	Writer mutation.Writer
	// Mutations says which write tools are enabled.
	Mutations config.Mutations
	// HideDisabled leaves disabled write tools out of the catalogue, so that
	// calling one is an unknown tool.
	HideDisabled bool
	// FeedbackTool adds report_missing_capability to the catalogue; its
	// reports go to the Runtime's logger and then to FeedbackObservers.
	FeedbackTool      bool
	FeedbackObservers []func(context.Context, feedback.Report)
	// WriteScope is the scope an OAuth caller's token needs for write tools.
	WriteScope string
	// Gate, when set, returns an extra gate for a tool (nil for none); it
	// runs after the tool's own gate, so a disabled write tool still says
	// mutations_disabled first.
	Gate func(tool string) func(context.Context) error
	// Hooks, when set, are mcp-go's request hooks.
	Hooks *server.Hooks
	// Limiter holds the per-tool rate limits.
	Limiter Limiter
	// Runtime is the tool pipeline's runtime (logger, hint, timeout); its
	// Limiter is set from Limiter.
	Runtime tools.Runtime
	// Transport names the transport for the status resource.
	Transport string
	// Auth reports the credentials in use, read at each status request so
	// that a refreshed token's expiry shows.
	Auth func() auth.Status
	// Version is the server's version.
	Version string
	// ExportKey seals export and download links; nil is the confirmation
	// key when there is one, else a key of this process's own.
	ExportKey read.Sealer
	// Delivery makes an export into a file for the person (a download
	// URL over HTTP, a file in --export-dir on stdio); nil makes none.
	Delivery read.Delivery
	// ConcurrentExports caps the export reads served at once
	// (DefaultConcurrentExports if 0).
	ConcurrentExports int
	// exports, when set, is the export reads' runner the HTTP downloads
	// share (assemble makes it); else NewMCPServer makes one.
	exports *exportReads
	// Jobs asks after email-discovery jobs, for request_email_discovery's
	// tasks; nil leaves it synchronous.
	Jobs query.Jobs
	// TasksStore names where task records live, for the status resource:
	// "redis" or "memory" (the default).
	TasksStore string
	// Extensions are the backend's schema extensions, which decide whether
	// a tool that needs one is served (extensions.go); nil serves every
	// tool, as against the embedded backend. While it is pending every tool
	// is registered, and settleExtensions removes those it does not serve.
	Extensions *extensionView
	// ExtensionsSetting names the setting that decides the extensions, for
	// the status resource's note ("--schema-extensions").
	ExtensionsSetting string
	// ValidateOutput checks every result against its tool's outputSchema.
	// It costs a little per call; tests turn it on.
	ValidateOutput bool
}

// Limiter is a rate limiter whose limits the catalogue and the status
// resource describe: *ratelimit.Limiter or *ratelimit.Redis.
type Limiter interface {
	tools.Limiter
	Limit(tool string) ratelimit.Limit
	Describe(tool string) string
}

// Counts are what was registered, for the start-up line.
type Counts struct {
	Tools, Resources, Prompts int
	// Followers are the served tools whose calls may become tasks (the
	// tasks extension), by name, bound to the runtime.
	Followers map[string]*tools.Follower
}

// instructions tell a model how the tools fit together, once per session.
// The write tools are named from their facts, so a new one is listed here too.
func instructions() string {
	return "Company intelligence over a catalogue of company profiles. " +
		"Find companies with search_companies (keywords and filters) or ai_search (plain English, rate limited); " +
		"read profiles with get_company or get_companies_batch; keep lists in collections (list_collections, get_collection_items). " +
		"Write tools (" + strings.Join(writeTools(), ", ") + ") may be disabled here: the companies://server/status resource says. " +
		"A failed call is isError with its class in the text: \"<tool> failed [<class>]: <what to do>\"."
}

// listTTL is how long a client may cache tools/list and prompts/list.
const listTTL = 5 * time.Minute

// NewMCPServer assembles the tools, resources and prompts into an MCP server.
func NewMCPServer(p Parts) (*server.MCPServer, Counts) {
	opts := []server.ServerOption{
		// The list is settled before any client sees it (a stdio server
		// holds tools/list until start-up has learned the backend's schema
		// extensions), so it never changes.
		server.WithToolCapabilities(false),
		server.WithResourceCapabilities(false, false),
		server.WithPromptCapabilities(false),
		server.WithInstructions(instructions()),
		// Under 2026-07-28 the lists tell clients how long they may reuse
		// them: the catalogue changes only with a restart, and is the same
		// for every caller of this server.
		server.WithMethodCacheHints(mcp.MethodToolsList, listTTL.Milliseconds(), mcp.CacheScopePublic),
		server.WithMethodCacheHints(mcp.MethodPromptsList, listTTL.Milliseconds(), mcp.CacheScopePublic),
	}
	if p.ValidateOutput {
		opts = append(opts, server.WithOutputSchemaValidation())
	}
	if p.Hooks != nil {
		opts = append(opts, server.WithHooks(p.Hooks))
	}
	rt := p.Runtime
	if p.Limiter != nil {
		rt.Limiter = p.Limiter
	}
	vocab := newVocabularyCache(p.Reader)
	x := p.exports
	if x == nil {
		x = newExportReads(p.Reader, exportKeyOf(p), rt.Limiter, p.ConcurrentExports, time.Now, rt.Logger)
		x.hint = rt.UnauthorizedHint
	}
	catalogue := append(read.Build(read.Deps{Reader: p.Reader, Vocabulary: vocab, Exports: x.key, Delivery: p.Delivery}), write.Tools(write.Deps{Writer: p.Writer, Lookup: p.Reader, Jobs: p.Jobs, Allowed: p.Mutations.Allowed, Scope: p.WriteScope})...)
	if p.FeedbackTool {
		catalogue = append(catalogue, feedback.New(feedback.Deps{Logger: rt.Logger, Observers: p.FeedbackObservers}))
	}
	catalogue = inCatalogueOrder(catalogue)
	ext, settled := p.Extensions.load()
	var served []server.ServerTool
	var followers map[string]*tools.Follower
	for _, t := range catalogue {
		needs := t.Facts().Needs
		if settled && !ext.serves(needs) {
			continue
		}
		if p.HideDisabled && t.Facts().Writes() && !p.Mutations.Allowed(t.Name()) {
			continue
		}
		if p.Gate != nil {
			if g := p.Gate(t.Name()); g != nil {
				t = t.Gated(g)
			}
		}
		if p.Limiter != nil {
			if d := p.Limiter.Describe(t.Name()); d != "" {
				t = t.WithNote("Rate limit: " + strings.TrimPrefix(d, "limited to ") + ".")
			}
		}
		if !settled && needs != "" {
			p.Extensions.deferred = append(p.Extensions.deferred, deferredTool{needs: needs, tool: rt.ServerTool(t)})
			continue
		}
		served = append(served, rt.ServerTool(t))
		if f := rt.Follower(t); f != nil {
			if followers == nil {
				followers = map[string]*tools.Follower{}
			}
			followers[t.Name()] = f
		}
	}
	if addFixtures != nil { // a test build's fixture tools (fixtures.go)
		extra, follow := addFixtures()
		served = append(served, extra...)
		for name, f := range follow {
			if followers == nil {
				followers = map[string]*tools.Follower{}
			}
			followers[name] = f
		}
	}
	if len(followers) > 0 {
		// The tasks extension (internal/tasks): its calls may become tasks
		// for the clients that negotiate it. A 2025-11-25 client is told
		// in initialize of that revision's experimental tasks, which the
		// same records serve (cancel, tool calls; no list): set here
		// rather than by mcp-go's WithTaskCapabilities, which would also
		// name them in a 2026-07-28 server/discover, where the extension
		// replaces them.
		opts = append(opts, server.WithExtensions(map[string]any{TasksExtension: map[string]any{}}))
		hooks := p.Hooks
		if hooks == nil {
			hooks = &server.Hooks{}
			opts = append(opts, server.WithHooks(hooks))
		}
		hooks.AddAfterInitialize(func(_ context.Context, _ any, _ *mcp.InitializeRequest, res *mcp.InitializeResult) {
			if res != nil {
				res.Capabilities.Tasks = legacyTasksCapability()
			}
		})
	}
	s := server.NewMCPServer("company-intel-mcp", p.Version, opts...)
	s.AddTools(served...)

	status := Status{Version: p.Version, Transport: p.Transport, Views: viewsStatus(catalogue)}
	if len(followers) > 0 {
		status.Tasks = &TasksStatus{Extension: TasksExtension, Store: cmp.Or(p.TasksStore, "memory"), Tools: slices.Sorted(maps.Keys(followers))}
	}
	for _, t := range served {
		status.Tools = append(status.Tools, t.Tool.Name)
	}
	status.Mutations = MutationStatus{Enabled: p.Mutations.Any(), EnabledTools: p.Mutations.Enabled()}
	if status.Mutations.EnabledTools == nil {
		status.Mutations.EnabledTools = []string{}
	}
	status.Mutations.Confirmed = confirmStatus(p.Mutations.Any(), rt.Confirm)
	if len(status.Mutations.EnabledTools) < len(writeTools()) {
		status.Mutations.HowToEnable = "start the server with --allow-mutations (all) or --allow-mutations=create_collection,add_to_collection"
	}
	status.RateLimits = map[string]string{}
	if p.Limiter != nil {
		for _, t := range catalogue {
			if l := p.Limiter.Limit(t.Name()); !l.Unlimited() {
				status.RateLimits[t.Name()] = l.String()
			}
		}
	}
	status.Limits = argumentBounds(p.FeedbackTool)
	status.Limits["answer_bytes"] = answerLimit(rt.AnswerBound)
	setting := p.ExtensionsSetting
	if setting == "" {
		setting = "--schema-extensions on or off"
	}
	res := resources(vocab, func() Status {
		st := status
		e, _ := p.Extensions.load()
		st.Tools = servedNames(s)
		st.Catalog = catalogueID(p.FeedbackTool, e.Has[extRemove])
		st.SchemaExtensions = e.status(p.FeedbackTool, setting)
		if p.Auth != nil {
			st.Auth = p.Auth()
		}
		return st
	})
	s.AddResources(res...)
	s.AddResourceTemplates(x.resource())
	pr := prompts(p.Mutations.Allowed)
	s.AddPrompts(pr...)

	return s, Counts{Tools: len(s.ListTools()), Resources: len(s.ListResources()), Prompts: len(s.ListPrompts()), Followers: followers}
}

// servedNames lists the tools s serves, in catalogue order.
func servedNames(s *server.MCPServer) []string {
	listed := s.ListTools()
	out := []string{}
	for _, f := range catalogueFacts(true) {
		if _, ok := listed[f.Name]; ok {
			out = append(out, f.Name)
		}
	}
	return out
}

// settleExtensions records what start-up learned of the backend's schema
// extensions and adds the tools kept aside for them that the backend
// serves, before any client has seen the list. It returns the counts now
// registered.
func settleExtensions(s *server.MCPServer, view *extensionView, e Extensions) Counts {
	view.v.Store(&e)
	var add []server.ServerTool
	for _, d := range view.deferred {
		if e.serves(d.needs) {
			add = append(add, d.tool)
		}
	}
	if len(add) > 0 {
		s.AddTools(add...)
	}
	return Counts{Tools: len(s.ListTools()), Resources: len(s.ListResources()), Prompts: len(s.ListPrompts())}
}

// answerLimit states the answer bound in the status resource: what is
// counted, and what happens past it.
func answerLimit(bound int) string {
	if bound <= 0 {
		bound = tools.DefaultAnswerBound
	}
	return fmt.Sprintf("%d: structuredContent JSON plus the text content as a JSON string; a list answer past it is cut at a whole record "+
		"with truncated: true, a note and, where the tool pages, a next_cursor to the rest", bound)
}

// exportKeyOf is the key export links are sealed with: the one given, else
// the key that seals a pending confirmation, shared by every replica when
// the operator gave one (--confirm-state-key), else this process's own,
// and then a link opens only on the replica that made it.
func exportKeyOf(p Parts) read.Sealer {
	switch {
	case p.ExportKey != nil:
		return p.ExportKey
	case p.Runtime.Confirm != nil && p.Runtime.Confirm.Key != nil:
		return p.Runtime.Confirm.Key
	}
	return sealed.RandomKey()
}

// legacyTasksCapability is what initialize says of 2025-11-25's
// experimental tasks: tool calls may become tasks, which may be cancelled.
func legacyTasksCapability() *mcp.TasksCapability {
	c := mcp.NewTasksCapabilityWithToolsOnly()
	c.Cancel = &struct{}{}
	return c
}

// confirmStatus describes how writes are confirmed, for the status resource.
func confirmStatus(writes bool, c *tools.Confirmation) ConfirmStatus {
	if !writes || c == nil || c.Mode == "" || c.Mode == tools.ConfirmOff {
		why := "writes are off"
		if writes {
			why = "--confirm-writes=off: writes go ahead without asking anyone"
		}
		return ConfirmStatus{Mode: "no", How: why}
	}
	st := ConfirmStatus{Mode: string(c.Mode), SingleUse: "process", mode: c.Mode, stateless: c.Stateless}
	if _, ok := c.Once.(*sealed.Redis); ok {
		st.SingleUse = "redis"
	}
	cannot := "made without asking (recorded as \"not asked\")"
	if c.Mode == tools.ConfirmRequired {
		cannot = "refused"
	}
	if c.Stateless {
		st.How = "the person is asked through clients on protocol 2026-07-28 that declare elicitation (the question comes back in the answer); " +
			"over this stateless HTTP service a 2025-11-25 client cannot be asked, whatever it declared: its writes are " + cannot
	} else {
		st.How = "the person is asked through clients that declare elicitation; for a client that does not, writes are " + cannot
	}
	return st
}
