package app

import (
	"context"
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/graphql/mutation/mutationtest"
	"github.com/companyintel/mcp-server/graphql/query/querytest"
	"github.com/companyintel/mcp-server/internal/config"
	"github.com/companyintel/mcp-server/ratelimit"
	"github.com/companyintel/mcp-server/tools"
	"github.com/companyintel/mcp-server/tools/read"
)

type countIn struct {
	Limit int `json:"limit,omitempty" desc:"How many." min:"1" max:"5" default:"1"`
}

type countOut struct {
	Count int `json:"count"`
}

// A new read tool is one file: its facts and its constructor, registered.
// Everything that knows tools by name (the catalogue, --allow-mutations,
// --rate-limit, the default limits, the status resource, the per-user gate
// and the scope a call needs) follows from that alone.
func TestANewReadToolFileIsTheWholeChange(t *testing.T) {
	facts := tools.Facts{Name: "count_employees", Order: 50, Kind: tools.Read, PerUser: true,
		Limit: ratelimit.Limit{Count: 3, Period: time.Minute}, Bounds: map[string]string{"limit": "1-5, default 1"}}
	t.Cleanup(read.Register(facts, func(read.Deps) tools.Tool {
		return tools.New(tools.Spec[countIn, countOut]{Facts: facts, Title: "Count employees", Description: "Counts.",
			Run: func(context.Context, countIn) (countOut, error) { return countOut{Count: 1}, nil }})
	}))

	names := ToolNames()
	assert.Equal(t, "count_employees", names[len(names)-2], "after the ten, before the opt-in feedback tool")
	assert.NotContains(t, writeTools(), "count_employees")
	_, err := parseMutations("count_employees")
	assert.ErrorContains(t, err, `unknown write tool "count_employees"`)

	assert.Equal(t, facts.Limit, defaultLimits()["count_employees"])
	limits, err := rateLimits([]string{"count_employees=1/m"})
	require.NoError(t, err, "--rate-limit knows the tool")
	assert.Equal(t, 1, limits["count_employees"].Count)

	assert.NotNil(t, serviceGate("count_employees"), "per user: refused under the service identity")
	assert.Nil(t, serviceGate("get_company"))
	assert.False(t, isWrite("count_employees"))
	assert.Equal(t, "companies:read", facts.Scope("companies:read", "companies:write"))

	reader := &querytest.Reader{}
	reader.On("FilterVocabulary", mock.Anything).Return(nil, errors.New("no backend here"))
	s, counts := NewMCPServer(Parts{Reader: reader, Writer: &mutationtest.Writer{}, Limiter: ratelimit.New(defaultLimits()),
		Runtime: tools.Runtime{Logger: discardLogger()}, Version: "test"})
	assert.Equal(t, 11, counts.Tools)
	var listed map[string]any
	for _, tool := range listTools(t, s) {
		if tool["name"] == "count_employees" {
			listed = tool
		}
	}
	require.NotNil(t, listed, "tools/list shows the tool")
	assert.Equal(t, true, listed["annotations"].(map[string]any)["readOnlyHint"])
	assert.Contains(t, listed["description"], "Rate limit: 3 calls per minute per caller.")

	resp := s.HandleMessage(context.Background(), json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"`+StatusURI+`","_meta":`+modernMeta+`}}`))
	b, err := json.Marshal(resp)
	require.NoError(t, err)
	var out struct {
		Result struct {
			Contents []struct{ Text string } `json:"contents"`
		} `json:"result"`
	}
	require.NoError(t, json.Unmarshal(b, &out))
	require.Len(t, out.Result.Contents, 1, "%s", b)
	var st Status
	require.NoError(t, json.Unmarshal([]byte(out.Result.Contents[0].Text), &st))
	assert.Contains(t, st.Tools, "count_employees")
	assert.Equal(t, "3 per minute", st.RateLimits["count_employees"])
	assert.Equal(t, "1-5, default 1", st.Limits["count_employees.limit"])
}

// The built tools carry the facts they registered, in catalogue order.
func TestBuiltToolsCarryTheirFacts(t *testing.T) {
	s, _ := testServer(t, config.Mutations{}, false)
	var listed []string
	for _, tool := range listTools(t, s) {
		listed = append(listed, tool["name"].(string))
	}
	assert.ElementsMatch(t, ToolNames()[:10], listed)
	for _, f := range catalogueFacts(false) {
		assert.Equal(t, f.Kind == tools.Write, isWrite(f.Name), f.Name)
	}
	assert.Equal(t, []string{"create_collection", "add_to_collection", "request_email_discovery", "remove_from_collection"}, writeTools())
}

// toolListsAllowedIn are the trees where a literal list of tool names may
// stand: the tools themselves, and the tests, fixtures and qualification
// that check them from outside.
var toolListsAllowedIn = []string{"tools", "appsynclocal", "qualify", "bench", "e2e", "cmd/qualify", "graphql", "deploy"}

// No list of tool names stands outside the tools: a composite literal (a
// slice or a map) naming two or more tools is a second source of what the
// tools' facts say, and the two would drift apart.
func TestNoToolNameListOutsideTheTools(t *testing.T) {
	known := map[string]bool{}
	for _, n := range ToolNames() {
		known[n] = true
	}
	fset := token.NewFileSet()
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("..", path)
		if d.IsDir() {
			for _, skip := range toolListsAllowedIn {
				if rel == skip || strings.HasPrefix(d.Name(), ".") && rel != "." || d.Name() == "testdata" || d.Name() == "node_modules" {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			var named []string
			for _, e := range lit.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					e = kv.Key
				}
				if bl, ok := e.(*ast.BasicLit); ok && bl.Kind == token.STRING {
					if s, err := strconv.Unquote(bl.Value); err == nil && known[s] {
						named = append(named, s)
					}
				}
			}
			assert.Less(t, len(named), 2, "%s: a list of tool names %v; read them from the tools' Facts", fset.Position(lit.Pos()), named)
			return true
		})
		return nil
	})
	require.NoError(t, err)
}
