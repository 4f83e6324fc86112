package app

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/graphql/mutation/mutationtest"
	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/graphql/query/querytest"
	"github.com/companyintel/mcp-server/internal/sealed"
	"github.com/companyintel/mcp-server/tools"
)

// An expired requestState is refused, and nothing is written: the clock is
// injected, so the test waits for nothing. (The other refusals run against
// real replicas in confirm_http_test.go.)
func TestExpiredConfirmationIsRefusedAndNothingWritten(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	r, w := &querytest.Reader{}, &mutationtest.Writer{}
	r.On("ListCollections", mock.Anything, mock.Anything, mock.Anything).Return(&query.CollectionPage{}, nil)
	s, _ := NewMCPServer(Parts{
		Reader: r, Writer: w, Mutations: mustMutations(t, "create_collection"),
		Runtime: tools.Runtime{Logger: discardLogger(), Confirm: &tools.Confirmation{
			Mode: tools.ConfirmRequired, Key: sealed.RandomKey(), Once: &sealed.Memory{},
			Now: func() time.Time { return now },
		}},
		Version: "test",
	})
	send := func(extra string) map[string]any {
		msg := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_collection","arguments":{"name":"Late"},"_meta":%s%s}}`, elicitingMeta, extra)
		ctx := tools.WithCaller(context.Background(), tools.Caller{ID: "alice"})
		b, err := json.Marshal(s.HandleMessage(ctx, json.RawMessage(msg)))
		require.NoError(t, err)
		var resp struct {
			Result map[string]any `json:"result"`
		}
		require.NoError(t, json.Unmarshal(b, &resp), "%s", b)
		return resp.Result
	}
	_, state := question(t, send(""))
	now = now.Add(tools.DefaultConfirmWindow)
	res := send(fmt.Sprintf(`,"requestState":%q,"inputResponses":{"confirm":{"action":"accept"}}`, state))
	assert.Contains(t, refusedState(t, res), "the confirmation expired (a question is good for 5m0s); nothing was written")
	assert.Empty(t, w.Calls, "no mutation")
}
