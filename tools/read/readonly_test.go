package read

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The read tools import package graphql for its Reader, and that package also
// holds the generated mutations. The type system keeps a Reader from
// mutating; this test keeps the code in this package from reaching around it.
func TestReadToolsReferenceNoMutation(t *testing.T) {
	forbidden := map[string]bool{
		"Writer": true, "NewWriter": true, "Client": true, "NewClient": true,
		"CreateCollection": true, "AddToCollection": true, "RequestEmailDiscovery": true,
	}
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		require.NoError(t, err)
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "graphql" && forbidden[sel.Sel.Name] {
				assert.Failf(t, "read tool reaches a mutation", "%s uses graphql.%s", fset.Position(sel.Pos()), sel.Sel.Name)
			}
			return true
		})
	}
}
