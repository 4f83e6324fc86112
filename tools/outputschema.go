package tools

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// The outputSchema is kept small on purpose: the whole catalogue must stay
// under 10 KB (DESIGN.md, "Agent contract"), and a model reads the field
// names of a result better than a nested schema. So it lists the result's
// top-level fields with their types and the few descriptions that say more
// than the name; arrays say nothing of their items, which the answer itself
// shows. A reflected schema of every nested field was two thirds of a 30 KB
// catalogue.
//
// It no longer says which fields are always present ("required"): those
// lists repeated every field name a second time, 521 bytes across the ten
// tools, which the tenth tool (remove_from_collection, issue 22) needed.
// Nothing a client checks is lost to a strict validator: a field without
// omitempty is always encoded, and a list is typed "array", so a nil list
// (null) still fails validation, as the tests' server-side validation
// relies on.
//
// The note, the truncated flag, the dry_run flag and duplicates_dropped are
// left out of it: every answer's text opens with its note (which also says
// when and where a list was cut, that nothing was written, or which
// duplicate ids were dropped), dry_run restates the caller's own argument,
// they are the same fields in every tool that has them, and their ~570
// bytes across the catalogue paid for issue 26's search arguments and
// issue 22's tenth tool. They are still in structuredContent; an
// outputSchema lists what a program reads, not every field.
//
// A failed call carries no structuredContent (isError results are not
// validated against the outputSchema when they have none: the official
// TypeScript SDK checks structuredContent only when present), so the schema
// describes successes alone. The error details sit in the result's _meta
// under ErrorMetaKey.

// compactOutputSchema describes the JSON encoding of struct type t.
func compactOutputSchema(t reflect.Type) (json.RawMessage, error) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("output type %s is not a struct", t)
	}
	props := map[string]any{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if unlisted[name] {
			continue
		}
		p := map[string]any{"type": jsonType(f.Type)}
		if d := f.Tag.Get("jsonschema"); d != "" {
			p["description"] = d
		}
		props[name] = p
	}
	if len(props) == 0 {
		return nil, fmt.Errorf("output type %s has no fields", t)
	}
	return json.Marshal(map[string]any{"type": "object", "properties": props})
}

// unlisted are the fields every answer may carry that the outputSchema
// does not list.
var unlisted = map[string]bool{"note": true, "truncated": true, "dry_run": true, "duplicates_dropped": true}

// jsonType is the JSON Schema type of a Go type's encoding. A nil pointer
// encodes as null, so pointers admit null too.
func jsonType(t reflect.Type) any {
	switch t.Kind() {
	case reflect.Pointer:
		return []any{jsonType(t.Elem()), "null"}
	case reflect.Slice:
		// Tools return empty lists, never nil, where a list is required;
		// server-side output validation in the tests holds them to it.
		return "array"
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	}
	return "object"
}
