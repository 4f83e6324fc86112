package write

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/graphql/mutation"
	"github.com/companyintel/mcp-server/graphql/mutation/mutationtest"
	"github.com/companyintel/mcp-server/ratelimit"
	"github.com/companyintel/mcp-server/tools"
	"github.com/companyintel/mcp-server/tools/tooltest"
)

func ptr[T any](v T) *T { return &v }

func allowAll(string) bool  { return true }
func allowNone(string) bool { return false }

// validArgs are arguments each write tool accepts.
var validArgs = map[string]string{
	"create_collection":       `{"name":"Prospects"}`,
	"add_to_collection":       `{"collection_id":"col_1","company_ids":["cmp_1"]}`,
	"request_email_discovery": `{"company_id":"cmp_1"}`,
	"remove_from_collection":  `{"collection_id":"col_1","company_ids":["cmp_1"]}`,
}

func TestEveryWriteToolIsRefusedWhenMutationsAreOff(t *testing.T) {
	w := &mutationtest.Writer{} // no expectations: any mutation fails the test
	for _, tool := range Tools(Deps{Writer: w, Allowed: allowNone}) {
		t.Run(tool.Name(), func(t *testing.T) {
			args, ok := validArgs[tool.Name()]
			require.True(t, ok, "add %s to validArgs", tool.Name())
			res, logs := tooltest.Call(t, tool, args)

			require.True(t, res.IsError)
			assert.Equal(t, "mutations_disabled", tooltest.ErrorCode(t, res))
			assert.Contains(t, tooltest.Text(t, res), "--allow-mutations")
			assert.Contains(t, tool.Definition().Description, "DISABLED (--allow-mutations off).")
			assert.Contains(t, logs, `"level":"WARN"`)
		})
	}
	assert.Empty(t, w.Calls, "the backend received a mutation")
}

func TestGateIsCheckedOnlyPerToolNamed(t *testing.T) {
	w := &mutationtest.Writer{}
	w.On("CreateCollection", mock.Anything, "Prospects", (*string)(nil)).
		Return(&mutation.CreateCollectionResult{Created: true}, nil).Once()
	only := func(name string) bool { return name == "create_collection" }
	ts := Tools(Deps{Writer: w, Allowed: only})

	res, _ := tooltest.Call(t, ts[0], validArgs["create_collection"])
	require.False(t, res.IsError, tooltest.Text(t, res))
	res, _ = tooltest.Call(t, ts[1], validArgs["add_to_collection"])
	assert.Equal(t, "mutations_disabled", tooltest.ErrorCode(t, res))
	w.AssertExpectations(t)
}

// Bad arguments are reported as such even when writes are off: the order of
// checks puts validation first, so the model learns both in turn.
func TestValidationComesBeforeTheGate(t *testing.T) {
	tool := NewCreateCollection(Deps{Writer: &mutationtest.Writer{}, Allowed: allowNone})
	res, _ := tooltest.Call(t, tool, `{}`)
	assert.Equal(t, "invalid_arguments", tooltest.ErrorCode(t, res))
	assert.Contains(t, tooltest.Text(t, res), "name: required")
}

func TestRefusedWriteSpendsNoToken(t *testing.T) {
	now := time.Unix(0, 0)
	lim := ratelimit.New(map[string]ratelimit.Limit{"request_email_discovery": {Count: 1, Period: time.Hour}},
		ratelimit.WithClock(func() time.Time { return now }))
	rt := &tools.Runtime{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Limiter: lim}

	off := NewRequestEmailDiscovery(Deps{Writer: &mutationtest.Writer{}, Allowed: allowNone})
	for range 3 {
		res := tooltest.CallWith(t, rt, off, validArgs["request_email_discovery"])
		require.Equal(t, "mutations_disabled", tooltest.ErrorCode(t, res))
	}
	d, err := lim.Allow(context.Background(), "request_email_discovery", tooltest.Caller.ID)
	require.NoError(t, err)
	assert.True(t, d.Allowed, "the disabled calls spent the caller's only token")
}

func TestCreateCollectionReportsExisting(t *testing.T) {
	w := &mutationtest.Writer{}
	var col mutation.Collection
	col.Id, col.Name = "col_1", "Prospects"
	w.On("CreateCollection", mock.Anything, "Prospects", ptr("Berlin fintech")).
		Return(&mutation.CreateCollectionResult{Collection: col, Created: false}, nil).Once()

	res, logs := tooltest.Call(t, NewCreateCollection(Deps{Writer: w, Allowed: allowAll}), `{"name":"Prospects","description":"Berlin fintech"}`)

	require.False(t, res.IsError, tooltest.Text(t, res))
	w.AssertExpectations(t)
	sc := tooltest.Structured(t, res)
	assert.Equal(t, false, sc["created"])
	assert.Contains(t, sc["note"], "already existed")
	assert.Contains(t, logs, `"read":{"collection_ids":["col_1"],"collection_count":1}`, "an existing collection was read, not written")
	assert.NotContains(t, logs, `"written"`)
}

func TestAddToCollectionSendsDistinctIDsInOrder(t *testing.T) {
	w := &mutationtest.Writer{}
	w.On("AddToCollection", mock.Anything, "col_1", []string{"cmp_2", "cmp_1", "cmp_9"}).
		Return(&mutation.AddToCollectionResult{Added: []string{"cmp_2"}, AlreadyPresent: []string{"cmp_1"}, NotFound: []string{"cmp_9"}}, nil).Once()

	res, _ := tooltest.Call(t, NewAddToCollection(Deps{Writer: w, Allowed: allowAll}),
		`{"collection_id":"col_1","company_ids":["cmp_2","cmp_1","cmp_2","cmp_9"]}`)

	require.False(t, res.IsError, tooltest.Text(t, res))
	w.AssertExpectations(t)
	sc := tooltest.Structured(t, res)
	assert.Equal(t, []any{"cmp_2"}, sc["added"])
	assert.Equal(t, []any{"cmp_1"}, sc["already_present"])
	assert.Equal(t, []any{"cmp_9"}, sc["not_found"])
	assert.Equal(t, []any{"cmp_2"}, sc["duplicates_dropped"])
}

func TestRequestEmailDiscoverySendsRoles(t *testing.T) {
	w := &mutationtest.Writer{}
	w.On("RequestEmailDiscovery", mock.Anything, "cmp_1", []string{"CEO", "CTO"}).
		Return(&mutation.EmailDiscoveryJob{Id: "job_1", CompanyId: "cmp_1", Status: mutation.EmailDiscoveryStatusPending}, nil).Once()

	res, _ := tooltest.Call(t, NewRequestEmailDiscovery(Deps{Writer: w, Allowed: allowAll}), `{"company_id":"cmp_1","roles":["CEO","CTO"]}`)

	require.False(t, res.IsError, tooltest.Text(t, res))
	w.AssertExpectations(t)
	job := tooltest.Structured(t, res)["job"].(map[string]any)
	assert.Equal(t, "PENDING", job["status"])
}

func TestScopedCallerWithoutTheWriteScopeIsRefused(t *testing.T) {
	w := &mutationtest.Writer{} // no expectations: any mutation fails the test
	allowAll := func(string) bool { return true }
	for _, d := range []Deps{{Writer: w, Allowed: allowAll, Scope: "companies:write"}, {Writer: w, Allowed: allowAll}} {
		for _, tool := range Tools(d) {
			st := (&tools.Runtime{Logger: slog.New(slog.DiscardHandler)}).ServerTool(tool)
			req := mcp.CallToolRequest{}
			req.Params.Name = tool.Name()
			req.Params.RawArguments = json.RawMessage(validArgs[tool.Name()])
			reader := tools.Caller{ID: "iss alice", AuthMethod: "oauth", User: "alice", Scoped: true, Scopes: []string{"companies:read"}}
			res, err := st.Handler(tools.WithCaller(context.Background(), reader), req)
			require.NoError(t, err)
			require.True(t, res.IsError, tool.Name())
			assert.Equal(t, "forbidden", tooltest.ErrorCode(t, res), tool.Name())
			assert.Contains(t, tooltest.Text(t, res), "scope", tool.Name())
		}
	}
	assert.Empty(t, w.Calls, "the backend received a mutation")
}

// What a write's audit record names: what changed as written; a call that
// changed nothing, or a dry run, as read.
func TestWriteRecordsNameWhatChanged(t *testing.T) {
	col := tools.Collection{ID: "col_1"}
	tests := []struct {
		name string
		out  interface{ Touched() tools.Touched }
		want tools.Touched
	}{
		{"companies added", addToCollectionOutput{Collection: col, Added: []string{"cmp_2"}, AlreadyPresent: []string{"cmp_1"}},
			tools.Touched{Written: tools.IDs{Collections: []string{"col_1"}, Companies: []string{"cmp_2"}}}},
		{"nothing added", addToCollectionOutput{Collection: col, Added: []string{}, AlreadyPresent: []string{"cmp_1"}},
			tools.Touched{Read: tools.IDs{Collections: []string{"col_1"}}}},
		{"add, dry run", addToCollectionOutput{Collection: col, Added: []string{"cmp_2"}, AlreadyPresent: []string{"cmp_1"}, DryRun: true},
			tools.Touched{Read: tools.IDs{Collections: []string{"col_1"}, Companies: []string{"cmp_2", "cmp_1"}}}},
		{"collection created", createCollectionOutput{Collection: col, Created: true},
			tools.Touched{Written: tools.IDs{Collections: []string{"col_1"}}}},
		{"create, dry run of a new name", createCollectionOutput{Created: true, DryRun: true}, tools.Touched{}},
		{"job started", requestEmailDiscoveryOutput{Job: emailDiscoveryJob{ID: "job_1", CompanyID: "cmp_1"}},
			tools.Touched{Written: tools.IDs{Jobs: []string{"job_1"}, Companies: []string{"cmp_1"}}}},
		{"job, dry run", requestEmailDiscoveryOutput{Job: emailDiscoveryJob{CompanyID: "cmp_1"}, DryRun: true},
			tools.Touched{Read: tools.IDs{Companies: []string{"cmp_1"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.out.Touched())
		})
	}
}

func TestACompletedEmailDiscoverySaysNoPersonsNameIsKnown(t *testing.T) {
	w := &mutationtest.Writer{}
	w.On("RequestEmailDiscovery", mock.Anything, "cmp_1", []string{"CTO"}).
		Return(&mutation.EmailDiscoveryJob{Id: "job_1", CompanyId: "cmp_1", Status: mutation.EmailDiscoveryStatusCompleted,
			Contacts: []mutation.Contact{{Email: "j.smith@acme.example", Role: "CTO", Confidence: 0.8}}}, nil).Once()

	res, _ := tooltest.Call(t, NewRequestEmailDiscovery(Deps{Writer: w, Allowed: allowAll}), `{"company_id":"cmp_1","roles":["CTO"]}`)

	require.False(t, res.IsError, tooltest.Text(t, res))
	sc := tooltest.Structured(t, res)
	contact := sc["job"].(map[string]any)["contacts"].([]any)[0].(map[string]any)
	assert.Equal(t, false, contact["name_known"])
	assert.Contains(t, sc["note"], "do not infer a name from the address")
}
