package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// declaredClasses reads every constant of type Class declared in this
// package's source, so that a class added later is seen by the tests below.
func declaredClasses(t *testing.T) []Class {
	t.Helper()
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	var out []Class
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		require.NoError(t, err)
		f, err := parser.ParseFile(fset, name, src, 0)
		require.NoError(t, err)
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Class" {
					continue
				}
				for _, v := range vs.Values {
					lit, ok := v.(*ast.BasicLit)
					require.True(t, ok, "a Class constant that is not a literal at %s", fset.Position(v.Pos()))
					s, err := strconv.Unquote(lit.Value)
					require.NoError(t, err)
					out = append(out, Class(s))
				}
			}
		}
	}
	require.GreaterOrEqual(t, len(out), 10, "the scan found too few classes to be reading errors.go: %v", out)
	return out
}

// The rule for a failed call's level, class by class: a refusal the caller
// caused is a warning, a failure it cannot cause is an error. Every class
// the package declares must be placed here, so a new one is decided on
// purpose (the test fails until it is).
func TestRecordLevelIsWarningForRefusalsAndErrorForFaults(t *testing.T) {
	want := map[Class]slog.Level{
		InvalidArguments:      slog.LevelWarn,
		MutationsDisabled:     slog.LevelWarn,
		RateLimited:           slog.LevelWarn,
		NotFound:              slog.LevelWarn,
		Forbidden:             slog.LevelWarn,
		Unauthorized:          slog.LevelError, // the server's credentials: the operator's to fix
		BackendTimeout:        slog.LevelError,
		BackendUnreachable:    slog.LevelError,
		BackendError:          slog.LevelError, // also every internal fault
		LimitStoreUnavailable: slog.LevelError,
		DeclinedClass:         slog.LevelWarn, // the person said no: nothing was written
		ConfirmationRequired:  slog.LevelWarn, // the client cannot ask, or no answer came
		ConfirmationInvalid:   slog.LevelWarn, // the client sent back a state we refuse
	}
	for _, c := range declaredClasses(t) {
		level, ok := want[c]
		if !assert.True(t, ok, "class %s has no decided level: is it a refusal the caller causes (warn) or a fault (error)?", c) {
			continue
		}
		assert.Equal(t, level, levelFor(c), "class %s", c)
	}
	assert.Equal(t, slog.LevelError, levelFor("some_future_class"), "an undecided class is an error, never a quiet warning")
}

// The record's level follows the rule in the log itself, for a refusal and
// for a fault, and a failed call names no ids.
func TestFailedCallRecordLevel(t *testing.T) {
	for class, level := range map[Class]string{NotFound: "WARN", Forbidden: "WARN", BackendUnreachable: "ERROR", Unauthorized: "ERROR"} {
		var buf bytes.Buffer
		rt := &Runtime{Logger: slog.New(slog.NewJSONHandler(&buf, nil))}
		rt.audit(context.Background(), &record{tool: "t", err: &Error{Class: class, Message: "m"},
			touched: Touched{Read: IDs{Companies: []string{"cmp_1"}}}}, nil)
		var rec map[string]any
		require.NoError(t, json.Unmarshal(buf.Bytes(), &rec))
		assert.Equal(t, level, rec["level"], "class %s", class)
		assert.Equal(t, string(class), rec["outcome"])
	}
}

// A record names at most MaxAuditIDs ids per kind, in the answer's order,
// and counts them all; in text the ids are one comma-separated value.
func TestRecordKeepsTheFirstIDsAndTheirCount(t *testing.T) {
	ids := make([]string, 150)
	for i := range ids {
		ids[i] = fmt.Sprintf("cmp_%03d", i)
	}
	touched := Touched{Read: IDs{Collections: []string{"col_1"}, Companies: ids}, Written: IDs{Jobs: []string{"job_1"}}}

	var js bytes.Buffer
	rt := &Runtime{Logger: slog.New(slog.NewJSONHandler(&js, nil))}
	rt.audit(context.Background(), &record{tool: "t", touched: touched}, nil)
	var rec struct {
		Read    map[string]any `json:"read"`
		Written map[string]any `json:"written"`
	}
	require.NoError(t, json.Unmarshal(js.Bytes(), &rec), js.String())
	require.Len(t, rec.Read["company_ids"], MaxAuditIDs)
	assert.Equal(t, "cmp_000", rec.Read["company_ids"].([]any)[0])
	assert.Equal(t, "cmp_099", rec.Read["company_ids"].([]any)[99])
	assert.EqualValues(t, 150, rec.Read["company_count"])
	assert.Equal(t, []any{"col_1"}, rec.Read["collection_ids"])
	assert.Equal(t, []any{"job_1"}, rec.Written["job_ids"])
	assert.NotContains(t, rec.Written, "company_ids")

	var text bytes.Buffer
	rt = &Runtime{Logger: slog.New(slog.NewTextHandler(&text, nil))}
	rt.audit(context.Background(), &record{tool: "t", touched: Touched{Written: IDs{Companies: []string{"cmp_1", "cmp_2"}}}}, nil)
	assert.Contains(t, text.String(), " written.company_ids=cmp_1,cmp_2 written.company_count=2")
	assert.NotContains(t, text.String(), "read.")
}

// An id longer than the bound is cut, so a record stays bounded whatever
// the backend returned.
func TestRecordBoundsEachID(t *testing.T) {
	long := strings.Repeat("x", 5000)
	b, err := json.Marshal(idList{long})
	require.NoError(t, err)
	assert.Less(t, len(b), 200)
	assert.Equal(t, `a,"b c"`, idList{"a", "b c"}.String())
}

func TestArgShapeTextIsNameSizePairsInNameOrder(t *testing.T) {
	assert.Equal(t, "{}", argShape(nil).String())
	assert.Equal(t, "id=10", argShape{"id": 10}.String())
	assert.Equal(t, "ids=1 limit=2 query=8", argShape{"query": 8, "limit": 2, "ids": 1}.String())
	text, err := argShape{"id": 10}.MarshalText()
	require.NoError(t, err)
	assert.Equal(t, "id=10", string(text))
}
