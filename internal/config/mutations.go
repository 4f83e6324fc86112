package config

import (
	"fmt"
	"slices"
	"strings"
)

// Mutations is the --allow-mutations setting: which write tools are enabled.
// As a flag it is boolean-or-list: "--allow-mutations" enables all of them,
// "--allow-mutations=create_collection,add_to_collection" only those named,
// and "--allow-mutations=false" none.
type Mutations struct {
	// writes are the write tools, in catalogue order.
	writes  []string
	enabled map[string]bool
}

// ParseMutations reads the setting's value. An unknown tool name is an error
// that lists the valid names, so a typo stops start-up instead of leaving a
// tool silently disabled.
// writeTools are the write tools the server can serve, in catalogue order.
func ParseMutations(s string, writeTools []string) (Mutations, error) {
	m := Mutations{writes: writeTools, enabled: map[string]bool{}}
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "false", "0", "no", "none", "off":
		return m, nil
	case "true", "1", "yes", "all", "on":
		for _, t := range writeTools {
			m.enabled[t] = true
		}
		return m, nil
	}
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if !slices.Contains(writeTools, name) {
			return Mutations{}, fmt.Errorf("unknown write tool %q; valid names are %s, or true for all",
				name, strings.Join(writeTools, ", "))
		}
		m.enabled[name] = true
	}
	return m, nil
}

// Allowed reports whether the write tool is enabled.
func (m Mutations) Allowed(tool string) bool { return m.enabled[tool] }

// Any reports whether any write tool is enabled; the start-up line's
// mutations= field shows it.
func (m Mutations) Any() bool { return len(m.enabled) > 0 }

// Enabled lists the enabled write tools in catalogue order.
func (m Mutations) Enabled() []string {
	var out []string
	for _, t := range m.writes {
		if m.enabled[t] {
			out = append(out, t)
		}
	}
	return out
}

// String renders the setting as the flag would take it.
func (m Mutations) String() string {
	switch n := len(m.enabled); {
	case n == 0:
		return "false"
	case n == len(m.writes):
		return "true"
	}
	return strings.Join(m.Enabled(), ",")
}

// Set implements flag.Value.
func (m *Mutations) Set(s string) error {
	parsed, err := ParseMutations(s, m.writes)
	if err != nil {
		return err
	}
	*m = parsed
	return nil
}

// IsBoolFlag lets the flag be given without a value.
func (m *Mutations) IsBoolFlag() bool { return true }
