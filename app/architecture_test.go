package app

import (
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gqlast "github.com/vektah/gqlparser/v2/ast"
	gqlparser "github.com/vektah/gqlparser/v2/parser"
	"golang.org/x/tools/go/packages"
)

const module = "github.com/companyintel/mcp-server"

// graph is the resolved package graph below one root package, loaded by
// go/packages: real import paths, not the names files import them under.
type graph map[string]*packages.Package

// loadGraphs loads patterns (relative to the module root), their tests and
// every package they depend on, in one go, and returns the graph below each
// pattern's packages.
func loadGraphs(t *testing.T, patterns ...string) map[string]graph {
	t.Helper()
	cfg := &packages.Config{
		Mode:  packages.NeedName | packages.NeedFiles | packages.NeedImports | packages.NeedDeps | packages.NeedTypes,
		Dir:   "..",
		Tests: true,
	}
	graphs := map[string]graph{}
	for _, pattern := range patterns {
		graphs[pattern] = graph{}
	}
	roots, err := packages.Load(cfg, patterns...)
	require.NoError(t, err)
	for _, root := range roots {
		pattern := matching(patterns, root.PkgPath)
		require.NotEmpty(t, pattern, "%s matches no pattern", root.PkgPath)
		packages.Visit([]*packages.Package{root}, nil, func(p *packages.Package) {
			for _, e := range p.Errors {
				t.Errorf("loading %s: %v", p.ID, e)
			}
			graphs[pattern][p.PkgPath] = p
		})
	}
	for pattern, g := range graphs {
		require.NotEmpty(t, g, "no packages match %s", pattern)
	}
	return graphs
}

// matching returns the pattern ("./dir" or "./dir/...") that names pkgPath,
// or the package whose test (pkg_test) or test binary (pkg.test) it is.
func matching(patterns []string, pkgPath string) string {
	pkgPath = strings.TrimSuffix(strings.TrimSuffix(pkgPath, ".test"), "_test")
	for _, p := range patterns {
		dir := module + "/" + strings.TrimSuffix(strings.TrimPrefix(p, "./"), "/...")
		if pkgPath == dir || (strings.HasSuffix(p, "/...") && strings.HasPrefix(pkgPath, dir+"/")) {
			return p
		}
	}
	return ""
}

// mutationReach lists why the packages in g could send a GraphQL mutation:
// a package on the write side of the split, or a string constant (in any
// package) or string literal (in this module's packages) holding a GraphQL
// document with a mutation operation in it. Empty means they cannot.
func mutationReach(t *testing.T, g graph) []string {
	t.Helper()
	var found []string
	for path, p := range g {
		if path == module+"/graphql/mutation" || strings.HasPrefix(path, module+"/graphql/mutation/") {
			found = append(found, "depends on "+path)
		}
		if p.Types != nil {
			scope := p.Types.Scope()
			for _, name := range scope.Names() {
				c, ok := scope.Lookup(name).(*types.Const)
				if ok && c.Val().Kind() == constant.String && hasMutation(constant.StringVal(c.Val())) {
					found = append(found, "constant "+path+"."+name+" is a mutation document")
				}
			}
		}
		if !strings.HasPrefix(path, module) {
			continue // other modules are scanned through their constants only
		}
		fset := token.NewFileSet()
		for _, file := range p.GoFiles {
			f, err := parser.ParseFile(fset, file, nil, 0)
			require.NoError(t, err)
			ast.Inspect(f, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				if s, err := strconv.Unquote(lit.Value); err == nil && hasMutation(s) {
					found = append(found, "a string at "+fset.Position(lit.Pos()).String()+" is a mutation document")
				}
				return true
			})
		}
	}
	sort.Strings(found)
	return found
}

// hasMutation reports whether s is a GraphQL document with a mutation
// operation in it. Text that does not parse as GraphQL is not one.
func hasMutation(s string) bool {
	if !strings.Contains(s, "mutation") {
		return false
	}
	doc, err := gqlparser.ParseQuery(&gqlast.Source{Input: s})
	if err != nil {
		return false
	}
	for _, op := range doc.Operations {
		if op.Operation == gqlast.Mutation {
			return true
		}
	}
	return false
}

// The read/write split holds in the resolved package graph: nothing the read
// tools (or their tests) depend on can send a mutation, whatever name it is
// imported under. The other cases show the check can fail: the write tools
// reach the mutations, and so do two fixtures that a name-based check passes.
func TestReadToolsCannotReachMutations(t *testing.T) {
	tests := []struct {
		pattern  string
		reaches  bool
		evidence string // a substring of one finding when reaches, else a package the graph must hold
	}{
		{"./tools/read/...", false, module + "/graphql/query"},
		{"./graphql/query/...", false, module + "/graphql"},
		{"./tools/write", true, "depends on " + module + "/graphql/mutation"},
		{"./app/testdata/archfixture/renamed", true, "depends on " + module + "/graphql/mutation"},
		{"./app/testdata/archfixture/rawdoc", true, "rawdoc.go"},
	}
	patterns := make([]string, len(tests))
	for i, tt := range tests {
		patterns[i] = tt.pattern
	}
	graphs := loadGraphs(t, patterns...)
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			found := mutationReach(t, graphs[tt.pattern])
			if !tt.reaches {
				assert.Contains(t, graphs[tt.pattern], tt.evidence, "the graph was not walked")
				assert.Empty(t, found, "%s can reach a mutation", tt.pattern)
				return
			}
			assert.NotEmpty(t, found)
			assert.Condition(t, func() bool {
				for _, f := range found {
					if strings.Contains(f, tt.evidence) {
						return true
					}
				}
				return false
			}, "no finding mentions %q: %v", tt.evidence, found)
		})
	}
}

func TestHasMutation(t *testing.T) {
	for doc, want := range map[string]bool{
		"mutation M { a }":                         true,
		"\n# note\n  mutation { a }":               true,
		"query Q { a } mutation M { b }":           true,
		"query Q { a }":                            false,
		"{ mutation }":                             false, // a field named mutation
		"mutations are disabled; start the server": false,
	} {
		assert.Equal(t, want, hasMutation(doc), "%q", doc)
	}
}

// deps lists every package pkg depends on, directly or not.
func deps(t *testing.T, pkg string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", module+"/"+pkg).Output()
	require.NoError(t, err, "go list -deps %s", pkg)
	return strings.Fields(string(out))
}

// The package graph is a rule, not a habit: the read tools and the write
// tools never import each other, the layers below the tools know nothing of
// MCP, and only app assembles both kinds of tool.
func TestPackageGraph(t *testing.T) {
	tests := []struct {
		pkg       string
		forbidden []string
	}{
		{"tools/read", []string{module + "/tools/write"}},
		{"tools/write", []string{module + "/tools/read"}},
		{"graphql", []string{"github.com/mark3labs/mcp-go/mcp", module + "/tools"}},
		{"graphql/query", []string{"github.com/mark3labs/mcp-go/mcp", module + "/tools", module + "/graphql/mutation"}},
		{"graphql/mutation", []string{"github.com/mark3labs/mcp-go/mcp", module + "/tools", module + "/graphql/query"}},
		{"auth", []string{"github.com/mark3labs/mcp-go/mcp", module + "/tools"}},
		{"ratelimit", []string{"github.com/mark3labs/mcp-go/mcp", module + "/tools"}},
		{"internal/oauth/exchange", []string{"github.com/mark3labs/mcp-go/mcp", module + "/tools", module + "/appsynclocal/authn"}},
		// demo-token talks to any server over HTTP: it links nothing of
		// the server or of the embedded backend.
		{"internal/oauth/demotoken", []string{"github.com/mark3labs/mcp-go/mcp", module + "/tools", module + "/app", module + "/appsynclocal/authn"}},
		// Configuration is read in its own room: it knows the tools by
		// their facts, handed to it, and nothing of the assembly or of
		// either side of the split.
		{"internal/config", []string{module + "/app", module + "/internal/cli", module + "/tools/read", module + "/tools/write", module + "/graphql/query", module + "/graphql/mutation", module + "/internal/edge"}},
		{"tools", []string{module + "/tools/read", module + "/tools/write", module + "/tools/feedback", module + "/app", module + "/graphql/query", module + "/graphql/mutation"}},
		// The feedback tool is neither a read nor a write of the backend:
		// it links no GraphQL operation and neither side of the split (and
		// its Deps hold no client).
		{"tools/feedback", []string{module + "/graphql/query", module + "/graphql/mutation", module + "/tools/read", module + "/tools/write", module + "/app"}},
		// The edge is the way in, below the assembly: it hands messages to
		// mcp-go and knows no tool of either side and no flag (app passes
		// its options); the scope check and the metrics read its Message,
		// so it cannot know them either.
		{"internal/edge", []string{module + "/app", module + "/tools/read", module + "/tools/write", module + "/graphql/query", module + "/graphql/mutation", module + "/internal/oauth/resource", module + "/internal/ops/metrics", module + "/internal/config"}},
	}
	for _, tt := range tests {
		t.Run(tt.pkg, func(t *testing.T) {
			all := deps(t, tt.pkg)
			for _, f := range tt.forbidden {
				assert.NotContains(t, all, f, "%s must not depend on %s", tt.pkg, f)
			}
		})
	}
}

// cmd/server stays thin: it hands the process to the command line
// (internal/cli), which holds the subcommands and reads the configuration
// through internal/config.
func TestCommandImportsOnlyTheCommandLine(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, module+"/cmd/server").Output()
	require.NoError(t, err)
	for _, imp := range strings.Fields(string(out)) {
		if strings.Contains(imp, ".") { // not the standard library
			assert.Equal(t, module+"/internal/cli", imp, "cmd/server imports %s", imp)
		}
	}
}

// Configuration and the command line are rooms of their own, above and
// below the assembly: the command line imports app and config; app imports
// config; neither app nor config knows the command line, and config knows
// nothing of the assembly, so the way in (internal/edge) can read a Config
// without a cycle.
func TestConfigurationAndCommandLineAreRoomsOfTheirOwn(t *testing.T) {
	imports := func(pkg string) []string {
		out, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, module+"/"+pkg).Output()
		require.NoError(t, err, "go list %s", pkg)
		return strings.Fields(string(out))
	}
	assert.Contains(t, imports("internal/cli"), module+"/app")
	assert.Contains(t, imports("internal/cli"), module+"/internal/config")
	assert.Contains(t, imports("app"), module+"/internal/config")
	for _, pkg := range []string{"app", "internal/config", "internal/edge"} {
		assert.NotContains(t, deps(t, pkg), module+"/internal/cli", "%s must not depend on the command line", pkg)
	}
}

// embeddedOnly are the packages only the embedded backend needs: the
// backend itself, the GraphQL server library and the SQLite driver.
var embeddedOnly = []string{module + "/appsynclocal", "github.com/99designs/gqlgen", "modernc.org/sqlite", "modernc.org/libc"}

// linked lists the packages of embeddedOnly (or below them) that a build of
// cmd/server with tags links.
func linked(t *testing.T, tags string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", "-tags", tags, module+"/cmd/server").Output()
	require.NoError(t, err, "go list -deps -tags %q ./cmd/server", tags)
	var found []string
	for _, p := range strings.Fields(string(out)) {
		for _, e := range embeddedOnly {
			if p == e || strings.HasPrefix(p, e+"/") {
				found = append(found, p)
			}
		}
	}
	return found
}

// The production build (-tags noembedded) links none of the embedded
// backend; the default build, the demo, links all of it, which shows the
// check looks in the right place.
func TestNoEmbeddedBuildLinksNoBackend(t *testing.T) {
	assert.Empty(t, linked(t, "noembedded"), "go build -tags noembedded ./cmd/server links these")
	demo := strings.Join(linked(t, ""), " ")
	for _, e := range embeddedOnly {
		assert.Contains(t, demo, e, "the default build should link %s", e)
	}
}

// protobufRuntime are the OTLP protobuf types, the SDK's exporters that
// turn spans into them, and the protobuf runtime: the generated packages
// register descriptors in protobuf's global registry at init, and
// protowire's internal/detrand reads the executable at init, a cost of
// every start, tracing on or off. The server writes OTLP itself
// (internal/ops/telemetry/otlpproto.go) and its Prometheus text (package metrics).
var protobufRuntime = []string{"go.opentelemetry.io/proto/otlp", "go.opentelemetry.io/otel/exporters/otlp", "google.golang.org/protobuf"}

// The release build links no OTLP generated types, no OTLP exporter
// package and no protobuf runtime, while telemetry's tests do link the
// generated types and the runtime (they decode what the server writes with
// them), which shows the check looks in the right place.
func TestReleaseBuildLinksNoProtobufRuntime(t *testing.T) {
	release, err := exec.Command("go", "list", "-deps", "-tags", "noembedded", module+"/cmd/server").Output()
	require.NoError(t, err)
	tests, err := exec.Command("go", "list", "-deps", "-test", module+"/internal/ops/telemetry").Output()
	require.NoError(t, err)
	under := func(list []byte, prefix string) (found []string) {
		for _, p := range strings.Fields(string(list)) {
			if p == prefix || strings.HasPrefix(p, prefix+"/") {
				found = append(found, p)
			}
		}
		return found
	}
	for _, prefix := range protobufRuntime {
		assert.Empty(t, under(release, prefix), "go build -tags noembedded ./cmd/server links these")
	}
	for _, prefix := range []string{protobufRuntime[0], protobufRuntime[2]} {
		assert.NotEmpty(t, under(tests, prefix), "telemetry's tests should link %s", prefix)
	}
}

// testOnly are packages only tests may link: the endpoint on the API's
// original schema (graphql/query/v1backend) and the GraphQL validator it
// checks documents with.
var testOnly = []string{module + "/graphql/query/v1backend", "github.com/vektah/gqlparser/v2/validator"}

// The release build links no test backend and no GraphQL validator, while
// app's own tests do link v1backend, which shows the check looks in the
// right place.
func TestReleaseBuildLinksNoTestBackend(t *testing.T) {
	release, err := exec.Command("go", "list", "-deps", "-tags", "noembedded", module+"/cmd/server").Output()
	require.NoError(t, err)
	tests, err := exec.Command("go", "list", "-deps", "-test", module+"/app").Output()
	require.NoError(t, err)
	for _, p := range testOnly {
		assert.NotContains(t, strings.Fields(string(release)), p, "go build -tags noembedded ./cmd/server links %s", p)
	}
	assert.Contains(t, strings.Fields(string(tests)), testOnly[0])
}

// The release build links no Prometheus client library and no expvar: their
// package initialisation ran on every start, stdio included, where /metrics
// is never served (metrics writes its page itself). metrics' own tests do
// link Prometheus's parser, which shows the check looks in the right place.
func TestReleaseBuildLinksNoPrometheusClient(t *testing.T) {
	prometheus := func(pkgs []byte) []string {
		var found []string
		for _, p := range strings.Fields(string(pkgs)) {
			if strings.HasPrefix(p, "github.com/prometheus/") || p == "expvar" {
				found = append(found, p)
			}
		}
		return found
	}
	release, err := exec.Command("go", "list", "-deps", "-tags", "noembedded", module+"/cmd/server").Output()
	require.NoError(t, err)
	tests, err := exec.Command("go", "list", "-deps", "-test", module+"/internal/ops/metrics").Output()
	require.NoError(t, err)
	assert.Empty(t, prometheus(release), "go build -tags noembedded ./cmd/server links these")
	assert.Contains(t, prometheus(tests), "github.com/prometheus/common/expfmt")
}

// mcpGoEntries are mcp-go's ways to hand it a message: the edge's
// business alone.
var mcpGoEntries = []string{"HandleMessage", "NewStreamableHTTPServer", "NewStdioServer", "ServeStdio", "NewSSEServer"}

// The way a request comes in is one package (internal/edge): app wires the
// edge to the server and hands no message to mcp-go itself, and the old
// homes of the edge are gone. The edge's own files do call mcp-go, which
// shows the check looks in the right place.
func TestTheWayInIsOnePackage(t *testing.T) {
	calls := func(dir string) []string {
		fset := token.NewFileSet()
		files, err := filepath.Glob("../" + dir + "/*.go")
		require.NoError(t, err)
		var found []string
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, file, nil, 0)
			require.NoError(t, err)
			ast.Inspect(f, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok && slices.Contains(mcpGoEntries, sel.Sel.Name) {
					if x, ok := sel.X.(*ast.Ident); !ok || x.Name != "edge" {
						found = append(found, fset.Position(sel.Pos()).String()+": "+sel.Sel.Name)
					}
				}
				return true
			})
		}
		return found
	}
	assert.Empty(t, calls("app"), "app hands messages to mcp-go itself")
	assert.NotEmpty(t, calls("internal/edge"))
	for _, gone := range []string{"jsonrpc", "mcphttp"} {
		_, err := os.Stat("../" + gone)
		assert.True(t, os.IsNotExist(err), "%s/ is back at the root: the edge lives in internal/edge", gone)
	}
}
