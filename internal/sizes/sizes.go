// Package sizes defines, once, what the words people use for a company's
// size mean here. ai_search's reading of a sentence (the embedded backend's
// interpret package) and the companies://filters resource both read this
// table, so "a mid-sized company" is the same head-count band wherever an
// agent meets it (issue 26: agents chose their own bands and came up short).
package sizes

// Band is one size word: its head-count bounds, inclusive, and the other
// words that mean the same. Max 0 means no upper bound.
type Band struct {
	Word    string   `json:"word"`
	Also    []string `json:"also"`
	Min     int      `json:"min_employees"`
	Max     int      `json:"max_employees,omitempty"`
	Meaning string   `json:"meaning"`
}

// Bands are the size words, smallest first. Startup and small share a band:
// most company databases draw the line for both at 50 people.
var Bands = []Band{
	{Word: "startup", Min: 0, Max: 49, Meaning: "fewer than 50 employees",
		Also: []string{"startups", "start-up", "start-ups", "early-stage", "early stage", "seed-stage"}},
	{Word: "small", Min: 0, Max: 49, Meaning: "fewer than 50 employees",
		Also: []string{"tiny"}},
	{Word: "mid-sized", Min: 50, Max: 1000, Meaning: "50 to 1,000 employees",
		Also: []string{"mid-size", "midsize", "midsized", "mid sized", "medium-sized", "medium sized", "medium",
			"mid-market", "scale-up", "scale-ups", "scaleup", "scaleups"}},
	{Word: "large", Min: 1001, Meaning: "more than 1,000 employees",
		Also: []string{"big", "enterprise", "enterprises", "multinational", "multinationals", "corporations"}},
}

// Words returns every size word and synonym with its band's bounds.
func Words() map[string]Band {
	m := make(map[string]Band)
	for _, b := range Bands {
		m[b.Word] = b
		for _, w := range b.Also {
			m[w] = b
		}
	}
	return m
}
