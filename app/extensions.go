package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	gql "github.com/Khan/genqlient/graphql"
	"github.com/mark3labs/mcp-go/server"

	"github.com/companyintel/mcp-server/graphql"
	"github.com/companyintel/mcp-server/tools/write"
)

// The API's schema grew optional extensions after its first version. Most
// are used where the backend has them and left out where it does not, call
// by call (package query); a tool that cannot work without one
// (remove_from_collection needs Mutation.removeFromCollection) is served
// only where the backend has it, so that against an AppSync on the original
// schema the catalogue is the nine tools of the contract (DESIGN.md) and no
// tool is listed that can only fail.
//
// The server learns which extensions the backend has once, at start-up,
// within extensionBudget:
//   - --schema-extensions on or off says it outright (configuration wins);
//   - the embedded backend has every extension;
//   - otherwise GraphQL introspection answers it where the backend allows
//     introspection (one query naming Mutation's and Query's fields);
//   - where it does not (AppSync can turn introspection off), a probe does:
//     documents naming the extensions with @skip(if: true), which the
//     backend validates against its schema (refusing an unknown field as
//     FieldUndefined) and then executes nothing of.
// When neither answers in time (the backend is down, refuses the
// credentials, or is slow), the server cannot tell: it serves the original
// schema's tools, says so in a warning and the status resource, and names
// the setting that decides.

// extensionBudget bounds learning the extensions at start-up, the
// credential chain's wait included on stdio: start-up never hangs on it.
const extensionBudget = 2 * time.Second

// Extension names, as Type.field, with what a tool or the reader needs.
const (
	extRemove = write.ExtensionRemove
	// extSearch stands for searchCompanies' extension arguments (bounds,
	// exclusions, sort, exact counts); query.Reader falls back call by call.
	extSearch = "Query.searchCompanies(sort)"
)

// knownExtensions are every extension the server looks for, in the order
// the status resource lists them.
var knownExtensions = []string{extRemove, extSearch}

// Extensions is what the server knows of the backend's schema extensions.
type Extensions struct {
	// Known is false when the server could not tell (Detail says why).
	Known bool
	// Has holds the extensions the backend has.
	Has map[string]bool
	// From says how it was learned: "embedded backend", "configuration",
	// "introspection", "probe"; "" when it could not tell.
	From string
	// Detail says why the server could not tell, in the backend's words.
	Detail string
}

// allExtensions is a backend with every extension.
func allExtensions(from string) Extensions {
	e := Extensions{Known: true, From: from, Has: map[string]bool{}}
	for _, n := range knownExtensions {
		e.Has[n] = true
	}
	return e
}

// serves reports whether a tool that needs extension can be served.
func (e Extensions) serves(needs string) bool { return needs == "" || e.Has[needs] }

// State sums up what is known: present (every extension), absent (none),
// partial, or unknown.
func (e Extensions) State() string {
	if !e.Known {
		return "unknown"
	}
	n := 0
	for _, x := range knownExtensions {
		if e.Has[x] {
			n++
		}
	}
	switch n {
	case len(knownExtensions):
		return "present"
	case 0:
		return "absent"
	}
	return "partial"
}

// extensionView holds the extensions a server's catalogue follows. Until
// the start-up has learned them (a stdio server learns them while it
// answers the handshake, and holds tools/list until then), it is pending:
// the tools that need an extension are kept aside, and settleExtensions
// adds those the backend serves.
type extensionView struct {
	v atomic.Pointer[Extensions]
	// deferred are the tools kept aside while pending.
	deferred []deferredTool
}

type deferredTool struct {
	needs string
	tool  server.ServerTool
}

// load returns the extensions, and false while they are pending (no
// extension is served then). A nil view is a backend with every
// extension, as in tests that build a server without a backend.
func (v *extensionView) load() (Extensions, bool) {
	if v == nil {
		return allExtensions("embedded backend"), true
	}
	e := v.v.Load()
	if e == nil {
		return Extensions{Has: map[string]bool{}, Detail: "not learned yet"}, false
	}
	return *e, true
}

// ExtensionStatus is the status resource's account of the schema
// extensions: what the backend has, how the server learned it, and which
// tools it serves or leaves out for it.
type ExtensionStatus struct {
	State      string          `json:"state" jsonschema:"present, absent, partial or unknown."`
	From       string          `json:"learned_from,omitempty"`
	Extensions map[string]bool `json:"extensions"`
	// Tools are the tools served that need an extension; NotServed those
	// left out because the backend lacks theirs (or it could not tell).
	Tools     []string `json:"tools"`
	NotServed []string `json:"not_served"`
	Note      string   `json:"note,omitempty"`
}

// extensionTools splits the tools that need an extension into those e
// serves and those it does not, in catalogue order.
func extensionTools(e Extensions, withFeedback bool) (served, left []string) {
	served, left = []string{}, []string{}
	for _, f := range catalogueFacts(withFeedback) {
		switch {
		case f.Needs == "":
		case e.serves(f.Needs):
			served = append(served, f.Name)
		default:
			left = append(left, f.Name)
		}
	}
	return served, left
}

// status describes e for the status resource.
func (e Extensions) status(withFeedback bool, setting string) ExtensionStatus {
	st := ExtensionStatus{State: e.State(), From: e.From, Extensions: map[string]bool{}}
	for _, n := range knownExtensions {
		st.Extensions[n] = e.Has[n]
	}
	st.Tools, st.NotServed = extensionTools(e, withFeedback)
	switch {
	case !e.Known:
		st.Note = "Could not tell whether the backend has the schema extensions (" + e.Detail + "); serving the original schema's tools. " +
			"The operator can say so with " + setting + "."
	case len(st.NotServed) > 0:
		st.Note = "The backend serves the original schema without " + strings.Join(missing(e), ", ") + ": " +
			strings.Join(st.NotServed, ", ") + " cannot work against it and is not served."
	}
	return st
}

// missing lists the extensions e lacks.
func missing(e Extensions) []string {
	var out []string
	for _, n := range knownExtensions {
		if !e.Has[n] {
			out = append(out, n)
		}
	}
	return out
}

// extensionMode is --schema-extensions: auto learns them from the backend.
const (
	extensionsAuto = "auto"
	extensionsOn   = "on"
	extensionsOff  = "off"
)

// learnExtensions finds which extensions the backend has, within ctx's
// deadline (extensionBudget). mode is --schema-extensions.
func learnExtensions(ctx context.Context, mode string, embedded bool, c *graphql.Client) Extensions {
	switch {
	case mode == extensionsOn:
		return allExtensions("configuration")
	case mode == extensionsOff:
		return Extensions{Known: true, From: "configuration", Has: map[string]bool{}}
	case embedded:
		return allExtensions("embedded backend")
	}
	e, err := introspect(ctx, c)
	if err == nil {
		return e
	}
	if !refusedDocument(err) {
		return Extensions{Has: map[string]bool{}, Detail: "introspection: " + err.Error()}
	}
	e, err = probe(ctx, c)
	if err != nil {
		return Extensions{Has: map[string]bool{}, Detail: "introspection is refused and the probe failed: " + err.Error()}
	}
	return e
}

// refusedDocument reports whether err is the backend refusing the document
// itself (a GraphQL error, or an HTTP 400 for it), as a backend with
// introspection off does: it answered, so a probe may be answered too. A
// timeout, an unreachable backend or refused credentials are not.
func refusedDocument(err error) bool {
	e, ok := errors.AsType[*graphql.Error](err)
	if !ok {
		return false
	}
	switch e.Kind {
	case graphql.KindGraphQL:
		for _, g := range e.Errors {
			if strings.Contains(strings.ToLower(g.ErrorType), "unauthorized") {
				return false
			}
		}
		return true
	case graphql.KindHTTP:
		return e.StatusCode == 400
	}
	return false
}

// introspectionQuery names the fields of Mutation and the arguments of
// Query's fields: the smallest answer that says which extensions exist.
const introspectionQuery = `query SchemaExtensions { m: __type(name: "Mutation") { fields { name } } q: __type(name: "Query") { fields { name args { name } } } }`

func introspect(ctx context.Context, c *graphql.Client) (Extensions, error) {
	var data struct {
		M *struct {
			Fields []struct {
				Name string `json:"name"`
			} `json:"fields"`
		} `json:"m"`
		Q *struct {
			Fields []struct {
				Name string `json:"name"`
				Args []struct {
					Name string `json:"name"`
				} `json:"args"`
			} `json:"fields"`
		} `json:"q"`
	}
	if err := c.MakeRequest(ctx, &gql.Request{OpName: "SchemaExtensions", Query: introspectionQuery}, &gql.Response{Data: &data}); err != nil {
		return Extensions{}, err
	}
	if data.Q == nil {
		return Extensions{}, errors.New("introspection answered no Query type")
	}
	e := Extensions{Known: true, From: "introspection", Has: map[string]bool{}}
	if data.M != nil {
		e.Has[extRemove] = slices.ContainsFunc(data.M.Fields, func(f struct {
			Name string `json:"name"`
		}) bool {
			return f.Name == "removeFromCollection"
		})
	}
	for _, f := range data.Q.Fields {
		if f.Name != "searchCompanies" {
			continue
		}
		for _, a := range f.Args {
			if a.Name == "sort" {
				e.Has[extSearch] = true
			}
		}
	}
	return e, nil
}

// The probes name one extension each under @skip(if: true): the backend
// validates the document against its schema, so a field or argument it
// lacks is refused as unknown, and it executes nothing of a valid one (a
// skipped field is never resolved, so the mutation changes nothing).
var probes = []struct{ ext, op, doc string }{
	{extRemove, "SchemaExtensionsRemoveProbe",
		`mutation SchemaExtensionsRemoveProbe { removeFromCollection(collectionId: "schema-probe", companyIds: []) @skip(if: true) { __typename } }`},
	{extSearch, "SchemaExtensionsSearchProbe",
		`query SchemaExtensionsSearchProbe { searchCompanies(sort: RELEVANCE, limit: 1) @skip(if: true) { __typename } }`},
}

func probe(ctx context.Context, c *graphql.Client) (Extensions, error) {
	e := Extensions{Known: true, From: "probe", Has: map[string]bool{}}
	for _, p := range probes {
		var data map[string]any
		err := c.MakeRequest(ctx, &gql.Request{OpName: p.op, Query: p.doc}, &gql.Response{Data: &data})
		switch {
		case err == nil:
			e.Has[p.ext] = true
		case graphql.UnknownToSchema(err):
		default:
			return Extensions{}, fmt.Errorf("%s: %w", p.ext, err)
		}
	}
	return e, nil
}
