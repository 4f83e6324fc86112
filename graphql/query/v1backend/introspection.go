package v1backend

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// Introspection: an AppSync answers __schema and __type from its own
// schema (unless introspection is turned off for the API), so a document
// that asks only for those is answered here, from SchemaV1, and never
// forwarded to the backend behind, which serves more. With introspection
// off it is refused as AppSync refuses it.

// introspectionOnly reports whether every top-level field of the
// document's operation is an introspection field, __schema or __type among
// them.
func introspectionOnly(doc *ast.QueryDocument, opName string) (*ast.OperationDefinition, bool) {
	op := doc.Operations.ForName(opName)
	if op == nil && len(doc.Operations) == 1 {
		op = doc.Operations[0]
	}
	if op == nil || op.Operation != ast.Query || len(op.SelectionSet) == 0 {
		return nil, false
	}
	schemaField := false
	for _, s := range op.SelectionSet {
		f, ok := s.(*ast.Field)
		if !ok || !strings.HasPrefix(f.Name, "__") {
			return nil, false
		}
		schemaField = schemaField || f.Name != "__typename"
	}
	// A document of __typename alone (a readiness ping) goes on to the
	// backend, which checks the credentials.
	return op, schemaField
}

// writeIntrospection answers an introspection-only operation.
func writeIntrospection(w http.ResponseWriter, sch *ast.Schema, op *ast.OperationDefinition, vars map[string]any) {
	root := func(name string, args map[string]any) any {
		switch name {
		case "__schema":
			return schemaObj(sch)
		case "__type":
			n, _ := args["name"].(string)
			if d := sch.Types[n]; d != nil {
				return typeDef(sch, d)
			}
			return nil
		case "__typename":
			return "Query"
		}
		return nil
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"data": project(root, op.SelectionSet, vars)})
}

// writeIntrospectionDisabled refuses introspection as an API with it
// turned off does.
func writeIntrospectionDisabled(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"data": nil, "errors": []appsyncError{{
		Message: "Validation error of type IntrospectionDisabled: GraphQL introspection is not allowed for this API", Locations: []appsyncLocation{},
	}}})
}

// obj resolves a field of an introspection object.
type obj func(field string, args map[string]any) any

func project(o obj, set ast.SelectionSet, vars map[string]any) map[string]any {
	out := map[string]any{}
	for _, s := range set {
		switch s := s.(type) {
		case *ast.Field:
			key := s.Alias
			if key == "" {
				key = s.Name
			}
			out[key] = render(o(s.Name, s.ArgumentMap(vars)), s.SelectionSet, vars)
		case *ast.InlineFragment:
			for k, v := range project(o, s.SelectionSet, vars) {
				out[k] = v
			}
		case *ast.FragmentSpread:
			if s.Definition != nil {
				for k, v := range project(o, s.Definition.SelectionSet, vars) {
					out[k] = v
				}
			}
		}
	}
	return out
}

func render(v any, set ast.SelectionSet, vars map[string]any) any {
	switch v := v.(type) {
	case obj:
		return project(v, set, vars)
	case []obj:
		out := make([]any, len(v))
		for i, o := range v {
			out[i] = project(o, set, vars)
		}
		return out
	}
	return v
}

func schemaObj(sch *ast.Schema) obj {
	return func(f string, _ map[string]any) any {
		named := func(d *ast.Definition) any {
			if d == nil {
				return nil
			}
			return typeDef(sch, d)
		}
		switch f {
		case "types":
			var out []obj
			for _, d := range sch.Types {
				out = append(out, typeDef(sch, d))
			}
			return out
		case "queryType":
			return named(sch.Query)
		case "mutationType":
			return named(sch.Mutation)
		case "subscriptionType":
			return named(sch.Subscription)
		case "directives":
			return []obj{}
		case "__typename":
			return "__Schema"
		}
		return nil
	}
}

var kinds = map[ast.DefinitionKind]string{
	ast.Scalar: "SCALAR", ast.Object: "OBJECT", ast.Interface: "INTERFACE", ast.Union: "UNION",
	ast.Enum: "ENUM", ast.InputObject: "INPUT_OBJECT",
}

func typeDef(sch *ast.Schema, d *ast.Definition) obj {
	return func(f string, args map[string]any) any {
		switch f {
		case "kind":
			return kinds[d.Kind]
		case "name":
			return d.Name
		case "description":
			return d.Description
		case "fields":
			if d.Kind != ast.Object && d.Kind != ast.Interface {
				return nil
			}
			out := []obj{}
			for _, fd := range d.Fields {
				if !strings.HasPrefix(fd.Name, "__") {
					out = append(out, fieldObj(sch, fd))
				}
			}
			return out
		case "inputFields":
			if d.Kind != ast.InputObject {
				return nil
			}
			out := []obj{}
			for _, fd := range d.Fields {
				out = append(out, valueObj(sch, fd.Name, fd.Description, fd.Type))
			}
			return out
		case "enumValues":
			if d.Kind != ast.Enum {
				return nil
			}
			out := []obj{}
			for _, ev := range d.EnumValues {
				out = append(out, func(f string, _ map[string]any) any {
					switch f {
					case "name":
						return ev.Name
					case "description":
						return ev.Description
					case "isDeprecated":
						return false
					}
					return nil
				})
			}
			return out
		case "interfaces":
			if d.Kind != ast.Object {
				return nil
			}
			out := []obj{}
			for _, n := range d.Interfaces {
				out = append(out, typeDef(sch, sch.Types[n]))
			}
			return out
		case "possibleTypes":
			if d.Kind != ast.Union && d.Kind != ast.Interface {
				return nil
			}
			out := []obj{}
			for _, p := range sch.GetPossibleTypes(d) {
				out = append(out, typeDef(sch, p))
			}
			return out
		case "__typename":
			return "__Type"
		}
		return nil
	}
}

func fieldObj(sch *ast.Schema, fd *ast.FieldDefinition) obj {
	return func(f string, _ map[string]any) any {
		switch f {
		case "name":
			return fd.Name
		case "description":
			return fd.Description
		case "args":
			out := []obj{}
			for _, a := range fd.Arguments {
				out = append(out, valueObj(sch, a.Name, a.Description, a.Type))
			}
			return out
		case "type":
			return typeRef(sch, fd.Type)
		case "isDeprecated":
			return false
		case "__typename":
			return "__Field"
		}
		return nil
	}
}

func valueObj(sch *ast.Schema, name, desc string, t *ast.Type) obj {
	return func(f string, _ map[string]any) any {
		switch f {
		case "name":
			return name
		case "description":
			return desc
		case "type":
			return typeRef(sch, t)
		case "__typename":
			return "__InputValue"
		}
		return nil
	}
}

func typeRef(sch *ast.Schema, t *ast.Type) obj {
	if t.NonNull {
		inner := *t
		inner.NonNull = false
		return wrapper("NON_NULL", typeRef(sch, &inner))
	}
	if t.Elem != nil {
		return wrapper("LIST", typeRef(sch, t.Elem))
	}
	return typeDef(sch, sch.Types[t.NamedType])
}

func wrapper(kind string, of obj) obj {
	return func(f string, _ map[string]any) any {
		switch f {
		case "kind":
			return kind
		case "ofType":
			return of
		case "__typename":
			return "__Type"
		}
		return nil
	}
}
