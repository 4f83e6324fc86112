package tools

import (
	"errors"
	"fmt"
	"strings"

	"github.com/companyintel/mcp-server/graphql"
	"github.com/companyintel/mcp-server/internal/untrusted"
)

// When a resolver fails on one field, AppSync still answers with everything
// else, and the GraphQL errors name the paths that failed. Dropping the whole
// answer would make a caller retry (or give up on) what already arrived, so a
// tool keeps the data and says in its note which parts failed and what the
// backend said. It is an error only when nothing usable came back.

// maxPartsNamed bounds how many failed parts one note names.
const maxPartsNamed = 5

// Partial is what failed in an answer that still carries data.
type Partial struct {
	errs []graphql.GraphQLError
}

// KeepPartial splits a tool's backend error. When err is a GraphQL answer
// whose data is worth keeping (every root field arrived), it returns the
// failures as a Partial and a nil error: the tool shapes the data it got and
// adds Partial.Note. Otherwise it returns an empty Partial and err unchanged.
func KeepPartial(err error) (Partial, error) {
	var ge *graphql.Error
	if errors.As(err, &ge) && ge.Kind == graphql.KindGraphQL && ge.PartialData {
		return Partial{errs: ge.Errors}, nil
	}
	return Partial{}, err
}

// Any reports whether some part failed.
func (p Partial) Any() bool { return len(p.errs) > 0 }

// FailedItems returns the indexes of the items of the list at path whose
// resolution failed: errors whose path is path followed by an index. A
// whole-item failure and a failure of one of its fields both count.
func (p Partial) FailedItems(path ...string) map[int]bool {
	failed := map[int]bool{}
	for _, e := range p.errs {
		if len(e.Path) <= len(path) || !hasPrefix(e.Path, path) {
			continue
		}
		switch i := e.Path[len(path)].(type) {
		case float64:
			failed[int(i)] = true
		case int:
			failed[i] = true
		}
	}
	return failed
}

func hasPrefix(p []any, prefix []string) bool {
	for i, s := range prefix {
		if fmt.Sprint(p[i]) != s {
			return false
		}
	}
	return true
}

// Note says which parts of the answer failed, in the backend's words, and
// what to make of the rest: "" when nothing failed.
func (p Partial) Note() string {
	if !p.Any() {
		return ""
	}
	parts := make([]string, 0, min(len(p.errs), maxPartsNamed))
	for _, e := range p.errs[:min(len(p.errs), maxPartsNamed)] {
		where := e.PathString()
		if where == "" {
			where = "the answer"
		}
		words := graphql.Cut(e.Message, 200)
		if e.ErrorType != "" {
			words = graphql.Cut(e.ErrorType, 100) + ": " + words
		}
		// The backend's words are untrusted text (internal/untrusted).
		parts = append(parts, untrusted.Inline(graphql.Cut(where, 200))+" ("+untrusted.Inline(words)+")")
	}
	msg := "Incomplete answer: the data API failed on " + strings.Join(parts, "; ")
	if more := len(p.errs) - len(parts); more > 0 {
		msg += fmt.Sprintf("; and %d more", more)
	}
	return msg + ". Everything else is as the data API returned it; fields it could not resolve are empty. Retrying may fill them in."
}

// JoinNotes joins non-empty notes with a space.
func JoinNotes(notes ...string) string {
	kept := notes[:0:0]
	for _, n := range notes {
		if n != "" {
			kept = append(kept, n)
		}
	}
	return strings.Join(kept, " ")
}
