package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/companyintel/mcp-server/internal/untrusted"
)

// FieldError is one argument that is missing or wrong.
type FieldError struct {
	// Field is the argument's name, as the caller spelled it.
	Field string `json:"field"`
	// Problem says what was expected and what came.
	Problem string `json:"problem"`
	// DidYouMean are the accepted values closest to a value not accepted,
	// for a program to offer or retry with.
	DidYouMean []string `json:"did_you_mean,omitempty"`
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
		// Numbers stay as written, so an id or a limit beyond what a
		// float64 holds exactly is refused rather than rounded.
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if err := dec.Decode(&args); err != nil || dec.More() {
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
		// A caller's own names are quoted back cut short, and only the
		// first few: the answer stays small whatever was sent.
		for i, name := range unknown {
			if i == maxUnknownReported {
				errs = append(errs, FieldError{Field: "arguments", Problem: fmt.Sprintf("and %d more unknown arguments", len(unknown)-i)})
				break
			}
			errs = append(errs, FieldError{Field: Excerpt(name), Problem: "unknown argument; valid arguments are " + strings.Join(valid, ", ")})
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
		if num, isNum := v.(json.Number); isNum {
			// An id sent as a number: only a whole one that every JSON
			// reader holds exactly.
			n, err := strconv.ParseInt(string(num), 10, 64)
			if err != nil || n < 0 || n > maxExactInt {
				return fmt.Sprintf("expected %s, got the number %s, which is not a whole number from 0 to %d", expected(f), Excerpt(string(num)), maxExactInt)
			}
			s, ok = strconv.FormatInt(n, 10), true
		}
		if !ok {
			return "expected " + expected(f) + ", got " + describe(v)
		}
		s = strings.TrimSpace(s)
		n := utf8.RuneCountInString(s)
		if (f.min != nil && n < *f.min) || (f.max != nil && n > *f.max) || (f.required && n == 0) {
			return "expected " + expected(f) + ", got " + strconv.Itoa(n) + " characters"
		}
		if f.enum != nil && s != "" && !slices.Contains(f.enum, s) {
			return "expected " + expected(f) + ", got " + describe(s)
		}
		if p := f.charsProblem(s); p != "" {
			return p
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
		if dst.Kind() == reflect.Pointer {
			dst.Set(reflect.ValueOf(&n))
			break
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
		list, n, problem := toStrings(v, *f.max, *f.itemMax)
		if n > *f.max {
			// The limit in the caller's terms: "at most 10 roles".
			return fmt.Sprintf("at most %d %s per call, got %d", *f.max, strings.ReplaceAll(f.name, "_", " "), n)
		}
		if problem != "" {
			return "expected " + expected(f) + ", got " + problem
		}
		if f.min != nil && len(list) < *f.min {
			return "expected " + expected(f) + ", got " + strconv.Itoa(len(list)) + " items"
		}
		for i, item := range list {
			if f.enum != nil && !slices.Contains(f.enum, item) {
				return "expected " + expected(f) + ", got " + describe(item)
			}
			if p := f.charsProblem(item); p != "" {
				return fmt.Sprintf("item %d %s", i, p)
			}
		}
		dst.Set(reflect.ValueOf(list))
	}
	return ""
}

// charsProblem checks s against the field's rule for text another user
// will read (untrusted): "" or what is wrong, naming the rule.
func (f field) charsProblem(s string) string {
	switch f.chars {
	case "plain":
		return untrusted.PlainProblem(s)
	case "title":
		return untrusted.TitleProblem(s)
	}
	return ""
}

// maxUnknownReported bounds how many unknown argument names one answer lists.
const maxUnknownReported = 5

// maxExactInt is the largest integer every JSON reader holds exactly (2^53-1);
// an id given as a larger number may already have been rounded on its way.
const maxExactInt = 1<<53 - 1

// toInt accepts a JSON number without a fraction, or a string holding one,
// within ±2^31.
func toInt(v any) (int, bool) {
	var s string
	switch x := v.(type) {
	case json.Number:
		s = string(x)
	case string:
		s = strings.TrimSpace(x)
	default:
		return 0, false
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return int(n), n >= -1<<31 && n <= 1<<31
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<31 {
		return 0, false
	}
	return int(f), true
}

// toStrings accepts a JSON array of strings, a string holding such an array
// (some clients encode arrays that way), or a single string as a one-item
// list. Numbers are accepted as items only when they are whole and within
// 0..2^53-1 (ids sent as numbers). The list is bounded to maxItems before
// anything else, de-duplication included, and each item to maxLen
// characters. Empty and blank items are dropped. n is how many items came;
// problem is "" or says what came instead.
func toStrings(v any, maxItems, maxLen int) (out []string, n int, problem string) {
	var items []any
	switch x := v.(type) {
	case []any:
		items = x
	case string:
		t := strings.TrimSpace(x)
		if strings.HasPrefix(t, "[") {
			dec := json.NewDecoder(strings.NewReader(t))
			dec.UseNumber()
			if err := dec.Decode(&items); err != nil {
				return nil, 0, "a string that is not a JSON list"
			}
		} else {
			items = []any{x}
		}
	default:
		return nil, 0, describe(v)
	}
	if len(items) > maxItems {
		return nil, len(items), strconv.Itoa(len(items)) + " items"
	}
	out = make([]string, 0, len(items))
	for i, it := range items {
		var s string
		switch x := it.(type) {
		case string:
			s = strings.TrimSpace(x)
		case json.Number:
			n, err := strconv.ParseInt(string(x), 10, 64)
			if err != nil || n < 0 || n > maxExactInt {
				return nil, len(items), fmt.Sprintf("item %d: the number %s, which is not a whole number from 0 to %d", i, Excerpt(string(x)), maxExactInt)
			}
			s = strconv.FormatInt(n, 10)
		default:
			return nil, len(items), fmt.Sprintf("item %d: %s", i, describe(it))
		}
		if n := utf8.RuneCountInString(s); n > maxLen {
			return nil, len(items), fmt.Sprintf("item %d: %d characters", i, n)
		}
		if s != "" {
			out = append(out, s)
		}
	}
	return out, len(items), ""
}

// expected describes what a field accepts, in words a model can act on.
func expected(f field) string {
	switch f.kind {
	case kindString:
		switch {
		case f.enum != nil:
			return "one of " + strings.Join(f.enum, ", ")
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
		each := fmt.Sprintf(" of at most %d characters each", *f.itemMax)
		if f.enum != nil {
			each = ", each one of " + strings.Join(f.enum, ", ")
		}
		switch {
		case f.min != nil && f.max != nil:
			return fmt.Sprintf("a list of %d to %d strings", *f.min, *f.max) + each
		case f.max != nil:
			return fmt.Sprintf("a list of at most %d strings", *f.max) + each
		default:
			return "a list of strings" + each
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
	case json.Number:
		return "the number " + Excerpt(string(x))
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

// excerptLen is how many characters of a caller's input a message quotes.
const excerptLen = 40

// Excerpt cuts a caller's input to a short prefix for quoting in a message,
// so that no answer grows with the size of what was sent.
func Excerpt(s string) string {
	if utf8.RuneCountInString(s) <= excerptLen {
		return s
	}
	r := []rune(s)
	return string(r[:excerptLen]) + fmt.Sprintf("… (%d characters)", len(r))
}

type sentenceKey struct{}

// withSentence returns ctx carrying the call's context sentence.
func withSentence(ctx context.Context, s string) context.Context {
	if s == "" {
		return ctx
	}
	return context.WithValue(ctx, sentenceKey{}, s)
}

// ContextSentence is the call's context argument (the user's goal, trimmed
// to its bound), or "". The pipeline takes it out of the arguments for the
// audit record; a tool that records it too (the feedback tool) reads it here.
func ContextSentence(ctx context.Context) string {
	s, _ := ctx.Value(sentenceKey{}).(string)
	return s
}
