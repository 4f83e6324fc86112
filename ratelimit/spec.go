package ratelimit

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// ParseSpecs parses specs of the form TOOL=LIMIT, as given by repeated
// --rate-limit flags, where LIMIT is anything ParseLimit accepts. An element
// may itself hold several specs separated by commas. A tool given twice is
// an error, since one of the two values would be silently dropped.
//
// If known is not empty, a tool not in it is an error listing the known
// names, so a typo stops start-up instead of leaving a tool unlimited. The
// result holds only the tools named; a limit of 0 or off is kept, so that it
// can switch off a default in Merge.
func ParseSpecs(specs []string, known []string) (map[string]Limit, error) {
	limits := make(map[string]Limit)
	for _, elem := range specs {
		for spec := range strings.SplitSeq(elem, ",") {
			spec = strings.TrimSpace(spec)
			if spec == "" {
				continue
			}
			tool, lim, err := parseSpec(spec, known)
			if err != nil {
				return nil, err
			}
			if _, dup := limits[tool]; dup {
				return nil, fmt.Errorf("ratelimit: tool %q has more than one rate limit; give each tool once", tool)
			}
			limits[tool] = lim
		}
	}
	return limits, nil
}

// ParseSpecList parses a comma-separated list of TOOL=LIMIT specs, as held by
// an environment variable such as RATE_LIMITS="ai_search=5/m,search_companies=120/m".
// An empty list yields an empty map. See ParseSpecs for the rules.
func ParseSpecList(list string, known []string) (map[string]Limit, error) {
	return ParseSpecs([]string{list}, known)
}

func parseSpec(spec string, known []string) (string, Limit, error) {
	tool, value, ok := strings.Cut(spec, "=")
	tool = strings.TrimSpace(tool)
	if !ok || tool == "" {
		return "", Limit{}, fmt.Errorf("ratelimit: invalid spec %q: want TOOL=LIMIT, such as ai_search=5/m", spec)
	}
	if len(known) > 0 && !slices.Contains(known, tool) {
		names := slices.Sorted(slices.Values(known))
		return "", Limit{}, fmt.Errorf("ratelimit: unknown tool %q in spec %q; known tools: %s",
			tool, spec, strings.Join(names, ", "))
	}
	lim, err := parseLimit(value)
	if err != nil {
		return "", Limit{}, fmt.Errorf("ratelimit: invalid spec %q: %v", spec, err)
	}
	return tool, lim, nil
}

// Merge returns a new map holding base with each of overrides applied in
// turn, so a later map wins per tool: Merge(defaults, fromEnv, fromFlags).
// Neither base nor overrides is changed.
func Merge(base map[string]Limit, overrides ...map[string]Limit) map[string]Limit {
	merged := maps.Clone(base)
	if merged == nil {
		merged = make(map[string]Limit)
	}
	for _, o := range overrides {
		maps.Copy(merged, o)
	}
	return merged
}
