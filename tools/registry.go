package tools

import (
	"fmt"
	"slices"
)

// Registry holds a package's tools: each tool's file adds itself with its
// Facts and a constructor over the package's dependencies D, so that adding a
// tool file is the whole change a new tool needs. The facts are readable
// without building any tool.
type Registry[D any] struct {
	entries []entry[D]
}

type entry[D any] struct {
	facts Facts
	build func(D) Tool
}

// Add registers a tool; a tool file calls it from a package-level
// declaration (var _ = registry.Add(...)). A name or place in the catalogue
// given twice is a programming error and panics at start-up. The returned
// function removes the tool again, for tests that add one.
func (r *Registry[D]) Add(f Facts, build func(D) Tool) (remove func()) {
	for _, e := range r.entries {
		if e.facts.Name == f.Name || e.facts.Order == f.Order {
			panic(fmt.Sprintf("tools: %s and %s share a name or a place (%d) in the catalogue", e.facts.Name, f.Name, f.Order))
		}
	}
	r.entries = append(r.entries, entry[D]{facts: f, build: build})
	slices.SortFunc(r.entries, func(a, b entry[D]) int { return a.facts.Order - b.facts.Order })
	return func() {
		r.entries = slices.DeleteFunc(r.entries, func(e entry[D]) bool { return e.facts.Name == f.Name })
	}
}

// Facts returns the registered tools' facts in catalogue order.
func (r *Registry[D]) Facts() []Facts {
	out := make([]Facts, len(r.entries))
	for i, e := range r.entries {
		out[i] = e.facts
	}
	return out
}

// Build builds every registered tool over d, in catalogue order. A tool
// built with facts other than those it registered is a programming error
// and panics: the two are one value in its file.
func (r *Registry[D]) Build(d D) []Tool {
	out := make([]Tool, len(r.entries))
	for i, e := range r.entries {
		t := e.build(d)
		if got := t.Facts(); got.Name != e.facts.Name || got.Kind != e.facts.Kind || got.Order != e.facts.Order {
			panic(fmt.Sprintf("tools: %s registered as %+v but built as %+v", e.facts.Name, e.facts, got))
		}
		out[i] = t
	}
	return out
}
