package app

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/graphql/mutation"
	"github.com/companyintel/mcp-server/graphql/mutation/mutationtest"
	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/graphql/query/querytest"
	"github.com/companyintel/mcp-server/internal/config"
	"github.com/companyintel/mcp-server/ratelimit"
	"github.com/companyintel/mcp-server/tools"
)

// dryRunServer is the server with writes on, each write tool limited to
// one call an hour, over a Reader answering the lookups and a Writer that
// records every mutation.
func dryRunServer(t *testing.T, m config.Mutations) (*server.MCPServer, *querytest.Reader, *mutationtest.Writer) {
	t.Helper()
	r, w := &querytest.Reader{}, &mutationtest.Writer{}
	hour := ratelimit.Limit{Count: 1, Period: time.Hour}
	s, _ := NewMCPServer(Parts{
		Reader: r, Writer: w, Mutations: m,
		Limiter: ratelimit.New(map[string]ratelimit.Limit{"create_collection": hour, "add_to_collection": hour, "request_email_discovery": hour}),
		Runtime: tools.Runtime{Logger: discardLogger()},
		Version: "test",
	})
	return s, r, w
}

// callJSON calls a tool as a client would and returns the result.
func callJSON(t *testing.T, s *server.MCPServer, tool string, args map[string]any) (structured map[string]any, isError bool, text string) {
	t.Helper()
	a, err := json.Marshal(args)
	require.NoError(t, err)
	msg := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":%q,"arguments":%s,"_meta":%s}}`, tool, a, modernMeta)
	ctx := tools.WithCaller(context.Background(), tools.Caller{ID: "alice"})
	b, err := json.Marshal(s.HandleMessage(ctx, json.RawMessage(msg)))
	require.NoError(t, err)
	var resp struct {
		Result struct {
			IsError           bool           `json:"isError"`
			StructuredContent map[string]any `json:"structuredContent"`
			Content           []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
	}
	require.NoError(t, json.Unmarshal(b, &resp), "%s", b)
	if len(resp.Result.Content) > 0 {
		text = resp.Result.Content[0].Text
	}
	return resp.Result.StructuredContent, resp.Result.IsError, text
}

func ptrTo[T any](v T) *T { return &v }

// A dry run reads the targets, reports what would happen and the budget
// left, sends no mutation and spends no token: after two dry runs the one
// real call the limit allows still goes through.
func TestDryRunWritesNothingAndSpendsNoToken(t *testing.T) {
	s, r, w := dryRunServer(t, mustMutations(t, "true"))
	r.On("ListCollections", mock.Anything, mock.Anything, mock.Anything).Return(&query.CollectionPage{Items: []query.Collection{{Id: "col_1", Name: "Berlin"}}}, nil)
	r.On("GetCollectionItems", mock.Anything, "col_1", mock.Anything, mock.Anything).Return(&query.CollectionItemPage{
		Collection: query.Collection{Id: "col_1", Name: "Berlin", ItemCount: 1},
		Items:      []query.CollectionItem{{Company: query.CompanySummary{Id: "cmp_1"}}}}, nil)
	r.On("GetCompanies", mock.Anything, []string{"cmp_2", "cmp_404"}).Return([]*query.Company{{Id: "cmp_2", Name: "Two"}, nil}, nil)
	r.On("GetCompanies", mock.Anything, []string{"cmp_2"}).Return([]*query.Company{{Id: "cmp_2", Name: "Two"}}, nil)
	r.On("GetCompanies", mock.Anything, []string{"cmp_404"}).Return([]*query.Company{nil}, nil)

	for range 2 {
		out, isErr, text := callJSON(t, s, "create_collection", map[string]any{"name": "Berlin", "dry_run": true})
		require.False(t, isErr, text)
		assert.Equal(t, false, out["created"])
		assert.Equal(t, true, out["dry_run"])
		assert.Contains(t, out["note"], "already exists")
		assert.Contains(t, out["note"], "1 of 1 per hour per caller left")

		out, isErr, text = callJSON(t, s, "create_collection", map[string]any{"name": "Munich", "dry_run": true})
		require.False(t, isErr, text)
		assert.Equal(t, true, out["created"])
		assert.Contains(t, out["note"], "would create")

		out, isErr, text = callJSON(t, s, "add_to_collection", map[string]any{"collection_id": "col_1", "company_ids": []string{"cmp_1", "cmp_2", "cmp_404"}, "dry_run": true})
		require.False(t, isErr, text)
		assert.Equal(t, []any{"cmp_2"}, out["added"])
		assert.Equal(t, []any{"cmp_1"}, out["already_present"])
		assert.Equal(t, []any{"cmp_404"}, out["not_found"])

		out, isErr, text = callJSON(t, s, "request_email_discovery", map[string]any{"company_id": "cmp_2", "dry_run": true})
		require.False(t, isErr, text)
		assert.Contains(t, out["note"], "would start an email-discovery job at \"Two\"")

		_, isErr, text = callJSON(t, s, "request_email_discovery", map[string]any{"company_id": "cmp_404", "dry_run": true})
		assert.True(t, isErr)
		assert.Contains(t, text, "not_found")
	}
	assert.Empty(t, w.Calls, "a dry run sent a mutation")

	// The token is still there: one real call goes through, the next is refused.
	w.On("CreateCollection", mock.Anything, "Munich", (*string)(nil)).Return(&mutation.CreateCollectionResult{Collection: mutation.Collection{Id: "col_2", Name: "Munich"}, Created: true}, nil).Once()
	_, isErr, text := callJSON(t, s, "create_collection", map[string]any{"name": "Munich"})
	require.False(t, isErr, text)
	_, isErr, text = callJSON(t, s, "create_collection", map[string]any{"name": "Munich"})
	assert.True(t, isErr)
	assert.Contains(t, text, "rate_limited")
	out, _, _ := callJSON(t, s, "create_collection", map[string]any{"name": "Munich", "dry_run": true})
	assert.Contains(t, out["note"], "0 of 1 per hour per caller left")
	w.AssertExpectations(t)
}

// The gate comes first: with writes off a dry run is refused like a write,
// and reads nothing.
func TestDryRunIsBehindTheGate(t *testing.T) {
	s, r, w := dryRunServer(t, config.Mutations{})
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"create_collection", map[string]any{"name": "x", "dry_run": true}},
		{"add_to_collection", map[string]any{"collection_id": "col_1", "company_ids": []string{"cmp_1"}, "dry_run": true}},
		{"request_email_discovery", map[string]any{"company_id": "cmp_1", "dry_run": true}},
		{"remove_from_collection", map[string]any{"collection_id": "col_1", "company_ids": []string{"cmp_1"}, "dry_run": true}},
	} {
		_, isErr, text := callJSON(t, s, tc.tool, tc.args)
		assert.True(t, isErr, tc.tool)
		assert.Contains(t, text, "mutations_disabled", tc.tool)
	}
	assert.Empty(t, r.Calls)
	assert.Empty(t, w.Calls)
}
