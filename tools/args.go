package tools

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// FieldError is one argument that is missing or wrong.
type FieldError struct {
	// Field is the argument's name, as the caller spelled it.
	Field string `json:"field"`
	// Problem says what was expected and what came.
	Problem string `json:"problem"`
}

// decoded is a validated call: the typed input and the context sentence.
type decoded struct {
	in      reflect.Value
	context string
	shape   map[string]int // argument name → size, for the audit record
}

// decodeArgs checks raw arguments against the fields and fills a new value of
// type t. Numbers sent as strings are accepted, as older clients send them.
// Every problem is reported at once, so a model can fix them in one go.
func decodeArgs(t reflect.Type, fields []field, raw json.RawMessage) (decoded, []FieldError) {
	d := decoded{in: reflect.New(t).Elem(), shape: map[string]int{}}
	args := map[string]any{}
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &args); err != nil {
			return d, []FieldError{{Field: "arguments", Problem: "expected a JSON object of named arguments"}}
		}
	}

	var errs []FieldError
	known := make(map[string]bool, len(fields)+1)
	for _, f := range fields {
		known[f.name] = true
	}
	known[ContextArg] = true
	var unknown []string
	for name := range args {
		if !known[name] {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		valid := make([]string, 0, len(known))
		for name := range known {
			valid = append(valid, name)
		}
		sort.Strings(valid)
		for _, name := range unknown {
			errs = append(errs, FieldError{Field: name, Problem: "unknown argument; valid arguments are " + strings.Join(valid, ", ")})
		}
	}

	if v, ok := args[ContextArg]; ok && v != nil {
		s, isString := v.(string)
		if !isString {
			errs = append(errs, FieldError{Field: ContextArg, Problem: "expected a string, got " + describe(v)})
		}
		if r := []rune(s); len(r) > maxContextLen {
			s = string(r[:maxContextLen])
		}
		d.context = s
	}

	for _, f := range fields {
		v, present := args[f.name]
		if !present || v == nil {
			if f.required {
				errs = append(errs, FieldError{Field: f.name, Problem: "required: " + expected(f)})
			} else if f.def != nil {
				d.in.Field(f.index).SetInt(int64(*f.def))
			}
			continue
		}
		if problem := f.set(d.in.Field(f.index), v); problem != "" {
			errs = append(errs, FieldError{Field: f.name, Problem: problem})
			continue
		}
		d.shape[f.name] = size(d.in.Field(f.index))
	}
	return d, errs
}

// set stores v into dst, converting where a client's encoding differs from
// the schema in a way that loses nothing. It returns a problem or "".
func (f field) set(dst reflect.Value, v any) string {
	switch f.kind {
	case kindString:
		s, ok := v.(string)
		if !ok {
			return "expected " + expected(f) + ", got " + describe(v)
		}
		s = strings.TrimSpace(s)
		n := len([]rune(s))
		if (f.min != nil && n < *f.min) || (f.max != nil && n > *f.max) || (f.required && n == 0) {
			return "expected " + expected(f) + ", got " + strconv.Itoa(n) + " characters"
		}
		dst.SetString(s)
	case kindInt:
		n, ok := toInt(v)
		if !ok {
			return "expected " + expected(f) + ", got " + describe(v)
		}
		if (f.min != nil && n < *f.min) || (f.max != nil && n > *f.max) {
			return "expected " + expected(f) + ", got " + strconv.Itoa(n)
		}
		dst.SetInt(int64(n))
	case kindBool:
		b, ok := v.(bool)
		if s, isString := v.(string); isString {
			switch strings.ToLower(strings.TrimSpace(s)) {
			case "true":
				b, ok = true, true
			case "false":
				b, ok = false, true
			}
		}
		if !ok {
			return "expected " + expected(f) + ", got " + describe(v)
		}
		dst.SetBool(b)
	case kindStrings:
		list, ok := toStrings(v)
		if !ok {
			return "expected " + expected(f) + ", got " + describe(v)
		}
		if (f.min != nil && len(list) < *f.min) || (f.max != nil && len(list) > *f.max) {
			return "expected " + expected(f) + ", got " + strconv.Itoa(len(list)) + " items"
		}
		dst.Set(reflect.ValueOf(list))
	}
	return ""
}

// toInt accepts a JSON number without a fraction, or a string holding one.
func toInt(v any) (int, bool) {
	switch x := v.(type) {
	case float64:
		if x != math.Trunc(x) || math.Abs(x) > 1<<31 {
			return 0, false
		}
		return int(x), true
	case string:
		n, err := strconv.Atoi(strings.TrimSpace(x))
		return n, err == nil
	}
	return 0, false
}

// toStrings accepts a JSON array of strings, a string holding such an array
// (some clients encode arrays that way), or a single string as a one-item list.
// Empty and blank items are dropped.
func toStrings(v any) ([]string, bool) {
	var items []any
	switch x := v.(type) {
	case []any:
		items = x
	case string:
		t := strings.TrimSpace(x)
		if strings.HasPrefix(t, "[") {
			if err := json.Unmarshal([]byte(t), &items); err != nil {
				return nil, false
			}
		} else {
			items = []any{x}
		}
	default:
		return nil, false
	}
	out := make([]string, 0, len(items))
	for _, it := range items {
		s, ok := it.(string)
		if !ok {
			if n, isNum := it.(float64); isNum && n == math.Trunc(n) {
				s = strconv.FormatInt(int64(n), 10)
			} else {
				return nil, false
			}
		}
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out, true
}

// expected describes what a field accepts, in words a model can act on.
func expected(f field) string {
	switch f.kind {
	case kindString:
		switch {
		case f.max != nil:
			return fmt.Sprintf("a non-empty string of at most %d characters", *f.max)
		default:
			return "a non-empty string"
		}
	case kindInt:
		switch {
		case f.min != nil && f.max != nil:
			return fmt.Sprintf("an integer from %d to %d", *f.min, *f.max)
		case f.min != nil:
			return fmt.Sprintf("an integer of at least %d", *f.min)
		default:
			return "an integer"
		}
	case kindBool:
		return "true or false"
	case kindStrings:
		switch {
		case f.min != nil && f.max != nil:
			return fmt.Sprintf("a list of %d to %d strings", *f.min, *f.max)
		case f.min != nil:
			return fmt.Sprintf("a list of at least %d strings", *f.min)
		default:
			return "a list of strings"
		}
	}
	return "a value"
}

// describe names a JSON value's type, never echoing a long value back.
func describe(v any) string {
	switch x := v.(type) {
	case string:
		if len(x) > 40 {
			return "a string"
		}
		return strconv.Quote(x)
	case float64:
		return "the number " + strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		return "a boolean"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return "null"
}

// size is what the audit record keeps of an argument: its length, never its value.
func size(v reflect.Value) int {
	switch v.Kind() {
	case reflect.String, reflect.Slice:
		return v.Len()
	}
	return 1
}
