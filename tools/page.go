package tools

import "fmt"

// PageNote tells the caller where a page stands and how to get the next one.
// noun is plural ("companies").
func PageNote(shown, total int, nextCursor, noun string) string {
	return SearchPageNote(shown, total, false, nextCursor, noun)
}

// SearchPageNote is PageNote for a search whose total may be a lower bound:
// the backend stops counting at some point, and then the note says "at least".
func SearchPageNote(shown, total int, atLeast bool, nextCursor, noun string) string {
	switch {
	case total == 0:
		return "No " + noun + " match."
	case nextCursor != "":
		return fmt.Sprintf("Showing %d of %s %s. For more, call again with the same arguments and cursor set to next_cursor.", shown, Count(total, atLeast), noun)
	default:
		return fmt.Sprintf("Showing %d of %s %s; this is the last page.", shown, Count(total, atLeast), noun)
	}
}

// Count renders a total, "at least 1000" when it is a lower bound.
func Count(total int, atLeast bool) string {
	if atLeast {
		return fmt.Sprintf("at least %d", total)
	}
	return fmt.Sprint(total)
}

// Dedupe drops repeated ids, keeping the first of each in order, and
// returns the ids dropped.
func Dedupe(ids []string) (kept, dropped []string) {
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		if seen[id] {
			dropped = append(dropped, id)
			continue
		}
		seen[id] = true
		kept = append(kept, id)
	}
	return kept, dropped
}

// Ptr returns a pointer to v, for the client's optional arguments.
func Ptr[T any](v T) *T { return &v }

// OptionalString maps "" to an absent GraphQL argument.
func OptionalString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// String reads an optional GraphQL string, "" when absent.
func String(p *string) string { return deref(p) }
