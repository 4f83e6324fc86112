package tools

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// An input struct describes a tool's arguments. Each exported field is one
// argument, named by its json tag; a field without ",omitempty" is required.
// Further tags:
//
//	desc:"…"     the argument's description (required: a catalog test checks it)
//	min:"1"      minimum for integers, minimum items for lists, minimum length for strings
//	max:"100"    the same maxima
//	itemmax:"64" the maximum length of each item of a list
//	default:"20" the value used when the argument is absent (integers only)
//	enum:"a|b"   the only values a string, or each item of a list, may take
//
// Every string and every list item has a length bound, and every list a
// length bound counted before de-duplication: without a tag, the defaults
// below apply. A caller cannot make the server hold, forward or quote back
// more than that.
//
// Supported field types are string, int, bool and []string: what a model can
// be relied on to produce. The schema and the validator are both derived from
// this one description, so they cannot drift apart.

// ContextArg is the optional argument every tool accepts: the user's goal in a
// sentence. It is logged, never sent to the backend.
const ContextArg = "context"

// maxContextLen bounds the context sentence; longer ones are trimmed, not refused.
const maxContextLen = 500

// The bounds of arguments whose struct tags set none.
const (
	defaultMaxString   = 1000 // characters of a string argument
	defaultMaxItems    = 200  // items of a list, before de-duplication
	defaultMaxItemChar = 100  // characters of one list item
)

type fieldKind int

const (
	kindString fieldKind = iota
	kindInt
	kindBool
	kindStrings
)

// field is one argument of a tool, as read from its input struct.
type field struct {
	name     string
	index    int
	kind     fieldKind
	desc     string
	required bool
	min, max *int
	itemMax  *int // list items only
	def      *int
	enum     []string // strings and list items only
	// chars is the rule for text another user will read (tag chars):
	// "plain" (untrusted.PlainProblem) or "title" (untrusted.TitleProblem).
	chars string
}

// inputFields reads the argument description from the struct type t.
// A malformed description is a programming error, reported at start-up.
func inputFields(t reflect.Type) ([]field, error) {
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("input type %s is not a struct", t)
	}
	var fields []field
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		tag := sf.Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" || name == "-" {
			return nil, fmt.Errorf("%s.%s: needs a json name", t, sf.Name)
		}
		if name == ContextArg {
			return nil, fmt.Errorf("%s.%s: %q is reserved for every tool", t, sf.Name, ContextArg)
		}
		f := field{name: name, index: i, desc: sf.Tag.Get("desc"), required: !strings.Contains(opts, "omitempty")}
		switch {
		case sf.Type.Kind() == reflect.String:
			f.kind = kindString
		case sf.Type.Kind() == reflect.Int:
			f.kind = kindInt
		case sf.Type.Kind() == reflect.Pointer && sf.Type.Elem().Kind() == reflect.Int:
			// An integer whose 0 means something: nil is an absent argument.
			f.kind = kindInt
		case sf.Type.Kind() == reflect.Bool:
			f.kind = kindBool
		case sf.Type.Kind() == reflect.Slice && sf.Type.Elem().Kind() == reflect.String:
			f.kind = kindStrings
		default:
			return nil, fmt.Errorf("%s.%s: unsupported argument type %s", t, sf.Name, sf.Type)
		}
		if f.desc == "" {
			return nil, fmt.Errorf("%s.%s: needs a desc tag", t, sf.Name)
		}
		if e, ok := sf.Tag.Lookup("enum"); ok {
			if f.kind != kindString && f.kind != kindStrings {
				return nil, fmt.Errorf("%s.%s: enum applies to strings and lists of strings", t, sf.Name)
			}
			f.enum = strings.Split(e, "|")
		}
		switch f.chars = sf.Tag.Get("chars"); f.chars {
		case "", "plain", "title":
		default:
			return nil, fmt.Errorf("%s.%s: chars is plain or title, not %q", t, sf.Name, f.chars)
		}
		var err error
		if f.min, err = intTag(sf, "min"); err != nil {
			return nil, err
		}
		if f.max, err = intTag(sf, "max"); err != nil {
			return nil, err
		}
		if f.def, err = intTag(sf, "default"); err != nil {
			return nil, err
		}
		if f.def != nil && sf.Type.Kind() == reflect.Pointer {
			return nil, fmt.Errorf("%s.%s: a default applies to plain integers, not pointers", t, sf.Name)
		}
		if f.itemMax, err = intTag(sf, "itemmax"); err != nil {
			return nil, err
		}
		switch {
		case f.kind == kindString && f.max == nil:
			f.max = ptr(defaultMaxString)
		case f.kind == kindStrings:
			if f.max == nil {
				f.max = ptr(defaultMaxItems)
			}
			if f.itemMax == nil {
				f.itemMax = ptr(defaultMaxItemChar)
			}
		}
		fields = append(fields, f)
	}
	return fields, nil
}

func intTag(sf reflect.StructField, key string) (*int, error) {
	s, ok := sf.Tag.Lookup(key)
	if !ok {
		return nil, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return nil, fmt.Errorf("field %s: tag %s=%q is not an integer", sf.Name, key, s)
	}
	return &n, nil
}

// inputSchema renders the fields as a JSON Schema object, with the shared
// context argument last.
func inputSchema(fields []field) json.RawMessage {
	props := make(map[string]any, len(fields)+1)
	var required []string
	for _, f := range fields {
		p := map[string]any{"description": f.desc}
		switch f.kind {
		case kindString:
			p["type"] = "string"
			if f.enum != nil {
				p["enum"] = f.enum // the values bound the length
			} else {
				setIf(p, "minLength", f.min)
				setIf(p, "maxLength", f.max)
			}
		case kindInt:
			p["type"] = "integer"
			setIf(p, "minimum", f.min)
			setIf(p, "maximum", f.max)
			setIf(p, "default", f.def)
		case kindBool:
			p["type"] = "boolean"
		case kindStrings:
			p["type"] = "array"
			p["items"] = map[string]any{"type": "string", "maxLength": *f.itemMax}
			if f.enum != nil {
				p["items"] = map[string]any{"type": "string", "enum": f.enum}
			}
			setIf(p, "minItems", f.min)
			setIf(p, "maxItems", f.max)
		}
		props[f.name] = p
		if f.required {
			required = append(required, f.name)
		}
	}
	// No maxLength: a longer context is trimmed to maxContextLen, not
	// refused, and the 16 bytes are spent on every tool of the catalogue.
	props[ContextArg] = map[string]any{
		"type":        "string",
		"description": "User's goal.",
	}
	schema := map[string]any{
		"type":                 "object",
		"properties":           props,
		"additionalProperties": false,
	}
	if len(required) > 0 {
		schema["required"] = required
	}
	b, err := json.Marshal(schema)
	if err != nil {
		panic(err) // maps of strings and ints always marshal
	}
	return b
}

func setIf(m map[string]any, key string, v *int) {
	if v != nil {
		m[key] = *v
	}
}

func ptr(n int) *int { return &n }
