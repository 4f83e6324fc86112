package tools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/tools"
	"github.com/companyintel/mcp-server/tools/tooltest"
)

type boundedIn struct {
	Name  string   `json:"name" desc:"a name"`
	IDs   []string `json:"ids,omitempty" desc:"ids"`
	Roles []string `json:"roles,omitempty" desc:"roles" max:"3" itemmax:"10"`
}

// boundedTool fails the test if it runs: every case below must be refused
// before a tool's work (and so before any backend call or token spend).
func boundedTool(t *testing.T) tools.Tool {
	return tools.New(tools.Spec[boundedIn, echoOut]{Facts: tools.Facts{Name: "bounded", Kind: tools.Read}, Description: "bounded",
		Run: func(context.Context, boundedIn) (echoOut, error) {
			t.Error("the tool ran on arguments that should have been refused")
			return echoOut{}, nil
		}})
}

func TestEveryStringAndListIsBoundedBeforeTheToolRuns(t *testing.T) {
	mb := strings.Repeat("x", 1<<20)
	ids := make([]string, 201)
	for i := range ids {
		ids[i] = `"cmp_1"` // all duplicates: the bound counts before de-duplication
	}
	tests := []struct {
		name, args, want string
	}{
		{"a string without a max tag", fmt.Sprintf(`{"name":%q}`, mb), "name: expected a non-empty string of at most 1000 characters, got 1048576 characters"},
		{"a list item without an itemmax tag", fmt.Sprintf(`{"name":"a","ids":[%q]}`, mb), "ids: expected a list of at most 200 strings of at most 100 characters each, got item 0: 1048576 characters"},
		{"a list over its default length, duplicates counted", `{"name":"a","ids":[` + strings.Join(ids, ",") + `]}`, "ids: at most 200 ids per call, got 201"},
		{"a list item over its itemmax", `{"name":"a","roles":["Head of Everything"]}`, "roles: expected a list of at most 3 strings of at most 10 characters each, got item 0: 18 characters"},
		{"a list over its max", `{"name":"a","roles":["a","b","c","d"]}`, "roles: at most 3 roles per call, got 4"},
		{"an id as a fraction", `{"name":"a","ids":[12.5]}`, "item 0: the number 12.5, which is not a whole number"},
		{"an id beyond 2^53", `{"name":"a","ids":[12345678901234567890]}`, "the number 12345678901234567890, which is not a whole number from 0 to 9007199254740991"},
		{"a negative id", `{"name":"a","ids":[-4]}`, "the number -4"},
		{"an id as a huge exponent", `{"name":"a","ids":[1e300]}`, "the number 1e300"},
		{"a string given a fraction", `{"name":3.5}`, "name: expected a non-empty string of at most 1000 characters, got the number 3.5"},
		{"a list item that is an object", `{"name":"a","ids":[{"id":"x"}]}`, "item 0: an object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, _ := tooltest.Call(t, boundedTool(t), tt.args)
			require.True(t, res.IsError)
			assert.Equal(t, "invalid_arguments", tooltest.ErrorCode(t, res))
			assert.Contains(t, tooltest.Text(t, res), tt.want)
		})
	}
}

func TestIDsAsWholeNumbersAreAccepted(t *testing.T) {
	var got boundedIn
	tool := tools.New(tools.Spec[boundedIn, echoOut]{Facts: tools.Facts{Name: "bounded", Kind: tools.Read}, Description: "bounded",
		Run: func(_ context.Context, in boundedIn) (echoOut, error) { got = in; return echoOut{}, nil }})
	res, _ := tooltest.Call(t, tool, `{"name":9007199254740991,"ids":[17, "18", 0]}`)
	require.False(t, res.IsError, tooltest.Text(t, res))
	assert.Equal(t, "9007199254740991", got.Name, "exactly as written, not rounded through a float")
	assert.Equal(t, []string{"17", "18", "0"}, got.IDs)
}

// TestAnswersDoNotGrowWithTheInput: a megabyte sent in any position comes
// back as a short excerpt, so the refusal stays a few kilobytes.
func TestAnswersDoNotGrowWithTheInput(t *testing.T) {
	mb := strings.Repeat("é", 1<<19) // 1 MiB of UTF-8
	for _, args := range []string{
		fmt.Sprintf(`{"name":%q}`, mb),
		fmt.Sprintf(`{%q:1}`, mb),
		fmt.Sprintf(`{"name":"a","ids":[%q]}`, mb),
		fmt.Sprintf(`{"name":"a","roles":%q}`, mb),
		fmt.Sprintf(`{"name":"a","context":%q,"ids":[{}]}`, mb),
		manyKeys(1000, 1000),
	} {
		res, _ := tooltest.Call(t, boundedTool(t), args)
		require.True(t, res.IsError)
		b, err := json.Marshal(res)
		require.NoError(t, err)
		assert.Less(t, len(b), 8<<10, "a %d-byte argument came back as a %d-byte answer", len(args), len(b))
	}
}

// manyKeys is an arguments object with n distinct unknown names of size bytes.
func manyKeys(n, size int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf(`"%d%s":1`, i, strings.Repeat("y", size))
	}
	return "{" + strings.Join(parts, ",") + "}"
}
