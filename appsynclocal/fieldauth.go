package appsynclocal

import (
	"context"
	"fmt"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/companyintel/mcp-server/appsynclocal/graph"
)

// modeDirectives map AppSync's auth directives to the Identity.Method they
// admit.
var modeDirectives = map[string]string{
	"aws_api_key": MethodAPIKey,
	"aws_oidc":    MethodOIDC,
	"aws_iam":     MethodIAM,
}

// defaultModes is what a field without auth directives admits: AppSync's
// default authorization mode, here the API key, as the API is configured.
var defaultModes = []string{MethodAPIKey}

// fieldAuth says which auth modes may resolve each field, as the schema's
// directives declare it: a field's own directives if it has any, otherwise
// its type's, otherwise the default mode, which is AppSync's rule.
type fieldAuth map[string]map[string][]string // type → field → modes

// newFieldAuth reads the directives from the parsed schema, so the rules
// cannot drift from schema.graphql.
func newFieldAuth(schema *ast.Schema) fieldAuth {
	fa := fieldAuth{}
	for name, def := range schema.Types {
		if def.Kind != ast.Object || strings.HasPrefix(name, "__") {
			continue
		}
		typeModes := modesOf(def.Directives)
		fields := map[string][]string{}
		for _, f := range def.Fields {
			if strings.HasPrefix(f.Name, "__") {
				continue
			}
			modes := modesOf(f.Directives)
			if len(modes) == 0 {
				modes = typeModes
			}
			if len(modes) == 0 {
				modes = defaultModes
			}
			fields[f.Name] = modes
		}
		fa[name] = fields
	}
	return fa
}

// modesOf lists the auth modes named by directives.
func modesOf(dirs ast.DirectiveList) []string {
	var modes []string
	for _, d := range dirs {
		if m, ok := modeDirectives[d.Name]; ok {
			modes = append(modes, m)
		}
	}
	return modes
}

// allows reports whether method may resolve typeName.field. Introspection
// and anything the schema does not list are left to the executor.
func (fa fieldAuth) allows(typeName, field, method string) bool {
	modes, ok := fa[typeName][field]
	if !ok {
		return true
	}
	for _, m := range modes {
		if m == method {
			return true
		}
	}
	return false
}

// middleware refuses a field the caller's auth mode may not reach, before its
// resolver runs, with AppSync's error for it. The field is then null, and the
// error carries its path.
func (fa fieldAuth) middleware(ctx context.Context, next graphql.Resolver) (any, error) {
	fc := graphql.GetFieldContext(ctx)
	id, _ := IdentityFrom(ctx)
	if fc != nil && !fa.allows(fc.Object, fc.Field.Name, id.Method) {
		return nil, &graph.Error{
			Type:    graph.TypeUnauthorized,
			Message: fmt.Sprintf("Not Authorized to access %s on type %s", fc.Field.Name, fc.Object),
		}
	}
	return next(ctx)
}
