// Package v1backend is a GraphQL endpoint on the API's original schema, for
// tests: the schema before its optional extensions (testdata/schema.v1.graphql,
// the first schema.graphql unchanged). It validates every incoming document
// against that schema, as an AppSync deployed with it would, answers an
// invalid one with AppSync's validation error, and forwards a valid one to a
// backend that serves more (the embedded backend), so the answers are real.
//
// It exists to show that the server works against an AppSync that is not
// ours. Only tests import it: the release build links no GraphQL validator
// (app's architecture test checks that).
package v1backend

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sync"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// SchemaV1 is the API's original schema, as an AppSync on it serves it.
//
//go:embed testdata/schema.v1.graphql
var SchemaV1 string

// appsyncDecls are AppSync's built-in scalars and directives, which it
// declares itself (a copy of graphql/appsync.graphql; a test keeps them equal).
//
//go:embed testdata/appsync.graphql
var appsyncDecls string

// schema is SchemaV1 loaded once.
var schema = sync.OnceValues(func() (*ast.Schema, error) {
	return gqlparser.LoadSchema(
		&ast.Source{Name: "appsync.graphql", Input: appsyncDecls, BuiltIn: true},
		&ast.Source{Name: "schema.v1.graphql", Input: SchemaV1})
})

// maxBody bounds a request body, as a real endpoint would.
const maxBody = 1 << 20

// Server is the endpoint, on a free loopback port.
type Server struct {
	srv    *httptest.Server
	target string
	// noIntrospection refuses introspection, as an AppSync API with
	// introspection turned off does.
	noIntrospection bool

	mu  sync.Mutex
	ops []string
}

// Start serves the original schema in front of target, a GraphQL URL that
// answers whatever SchemaV1 accepts. Close it when done.
func Start(target string) (*Server, error) { return start(target, false) }

// StartWithoutIntrospection is Start for an API with introspection turned
// off: __schema and __type are refused.
func StartWithoutIntrospection(target string) (*Server, error) { return start(target, true) }

func start(target string, noIntrospection bool) (*Server, error) {
	if _, err := schema(); err != nil {
		return nil, fmt.Errorf("loading the v1 schema: %w", err)
	}
	s := &Server{target: target, noIntrospection: noIntrospection}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	return s, nil
}

// URL returns the GraphQL endpoint.
func (s *Server) URL() string { return s.srv.URL + "/graphql" }

// Close stops serving.
func (s *Server) Close() { s.srv.Close() }

// Operations returns the operation names received, in order, valid or not.
func (s *Server) Operations() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.ops...)
}

// Count returns how many requests named op.
func (s *Server) Count(op string) int {
	n := 0
	for _, o := range s.Operations() {
		if o == op {
			n++
		}
	}
	return n
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
		return
	}
	var req struct {
		Query         string         `json:"query"`
		OperationName string         `json:"operationName"`
		Variables     map[string]any `json:"variables"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, "body is not JSON", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.ops = append(s.ops, req.OperationName)
	s.mu.Unlock()

	sch, _ := schema()
	doc, errs := gqlparser.LoadQueryWithRules(sch, req.Query, nil)
	if len(errs) > 0 {
		writeValidationErrors(w, errs)
		return
	}
	if op, ok := introspectionOnly(doc, req.OperationName); ok {
		if s.noIntrospection {
			writeIntrospectionDisabled(w)
		} else {
			writeIntrospection(w, sch, op, req.Variables)
		}
		return
	}
	s.forward(w, r, body)
}

// forward sends the request, headers and all, to the target and copies the
// answer back.
func (s *Server) forward(w http.ResponseWriter, r *http.Request, body []byte) {
	out, err := http.NewRequestWithContext(r.Context(), http.MethodPost, s.target, bytes.NewReader(body))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	for k, v := range r.Header {
		out.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(out)
	if err != nil {
		http.Error(w, "upstream: "+err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(resp.StatusCode)
	io.Copy(w, resp.Body)
}

// appsyncError is one error of AppSync's validation answer.
type appsyncError struct {
	Path      any               `json:"path"`
	Locations []appsyncLocation `json:"locations"`
	Message   string            `json:"message"`
}

type appsyncLocation struct {
	Line       int `json:"line"`
	Column     int `json:"column"`
	SourceName any `json:"sourceName"`
}

// writeValidationErrors answers as AppSync does a document its schema
// refuses: status 200, data null, one error per problem in graphql-java's
// words, with locations and a null path.
func writeValidationErrors(w http.ResponseWriter, errs gqlerror.List) {
	out := make([]appsyncError, len(errs))
	for i, e := range errs {
		out[i] = appsyncError{Message: AppSyncMessage(e), Locations: []appsyncLocation{}}
		for _, l := range e.Locations {
			out[i].Locations = append(out[i].Locations, appsyncLocation{Line: l.Line, Column: l.Column})
		}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"data": nil, "errors": out})
}

var (
	unknownField = regexp.MustCompile(`^Cannot query field "(\w+)" on type "(\w+)"`)
	unknownArg   = regexp.MustCompile(`^Unknown argument "(\w+)" on field "\w+\.(\w+)"`)
)

// AppSyncMessage renders a gqlparser validation error in AppSync's
// (graphql-java's) words: "Validation error of type FieldUndefined: Field
// 'x' in type 'Y' is undefined @ 'x'", "Validation error of type
// UnknownArgument: Unknown field argument x @ 'y'", and otherwise the rule's
// name before gqlparser's message.
func AppSyncMessage(e *gqlerror.Error) string {
	if m := unknownField.FindStringSubmatch(e.Message); m != nil {
		return fmt.Sprintf("Validation error of type FieldUndefined: Field '%s' in type '%s' is undefined @ '%s'", m[1], m[2], m[1])
	}
	if m := unknownArg.FindStringSubmatch(e.Message); m != nil {
		return fmt.Sprintf("Validation error of type UnknownArgument: Unknown field argument %s @ '%s'", m[1], m[2])
	}
	return fmt.Sprintf("Validation error of type %s: %s", e.Rule, e.Message)
}
