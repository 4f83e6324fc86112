package interpret

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// nameWordRE matches the words of a sentence as written, "&" included, so
// that runs of capitalised words can be read as company names.
var nameWordRE = regexp.MustCompile(`[\p{L}\p{N}][\p{L}\p{N}'’.\-]*|&`)

// legalForms are company-form words a person may add to or leave off a
// name ("Summit Robotics Inc"): a name is matched without them.
var legalForms = setOf(`inc inc. ltd ltd. llc gmbh ag sa sas s.a. bv b.v. nv ab oy as aps kk k.k. plc corp corp. co co. srl s.r.l.
spa s.p.a. pty pte pvt lda lda. ltda ltda. sl s.l. limited incorporated company the and of`)

// NameCandidates are the runs of capitalised words in a sentence that may
// name a company ("Is Kavora Health a fintech company?" → "Kavora Health"):
// a run is kept when at least one of its words is no country, region,
// city, category or size word, and a question or request word opening the
// sentence ("Is", "Show") is not part of it. The caller checks each
// against the companies' names.
func NameCandidates(sentence string) []string {
	var out, run []string
	flush := func() {
		for len(run) > 0 && (run[len(run)-1] == "&" || run[len(run)-1] == "and") {
			run = run[:len(run)-1]
		}
		if len(run) > 0 && hasUnknownWord(run) {
			out = append(out, strings.Join(run, " "))
		}
		run = run[:0]
	}
	words := nameWordRE.FindAllString(sentence, -1)
	for i, w := range words {
		lw := strings.ToLower(strings.TrimRight(w, ".'’"))
		switch {
		case (w == "&" || w == "and") && len(run) > 0:
			run = append(run, w) // "Hartley & Moss", "Gao and Lin"
		case !startsUpper(w):
			flush()
		case i == 0 && (stopWords[lw] || fillerVerbs[lw] || negations[lw]):
			// "Show", "Which", "Is" opening a sentence.
		case negations[lw] || lw == "in":
			flush()
		default:
			run = append(run, strings.TrimRight(w, "?!,;:"))
		}
	}
	flush()
	return out
}

// NameTerms are the words a name is matched by: lower case, without
// legal forms ("Inc", "GmbH") and joining words ("&", "and").
func NameTerms(name string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '.'
	}) {
		w = strings.Trim(w, ".")
		if w != "" && !legalForms[w] {
			out = append(out, w)
		}
	}
	return out
}

// hasUnknownWord reports whether a run has a word the lexicon does not
// know: a run of known words only ("New York", "United Kingdom", "AI")
// names a place or a category, not a company.
func hasUnknownWord(run []string) bool {
	text := strings.ToLower(strings.Join(run, " "))
	for _, p := range phrases(tokens(text), strings.Join(run, " ")) {
		if !p.known && !stopWords[p.text] && !legalForms[p.text] && hasLetterOrDigit(p.text) && !isNumber(p.text) {
			return true
		}
	}
	return false
}

func startsUpper(w string) bool {
	for _, r := range w {
		return unicode.IsUpper(r)
	}
	return false
}

// ParseNamed reads a sentence that names a company: the name is taken out
// and searched as the keyword, and the rest is read as Parse reads it, so
// that "Robotics" in "Summit Robotics" does not also become a category.
// matched are the names of the companies found, for the summary.
func ParseNamed(sentence, name string, matched []string) Query {
	rest := strings.Replace(sentence, name, " ", 1)
	q := Parse(rest)
	q.Name = name
	q.Matched = matched
	q.Keywords = NameTerms(name)
	// Keywords the rest of the sentence had are not required of a named
	// company: they are listed, the name is searched.
	return q
}

// DropFilters removes the filters a named company does not meet, listing
// each as not applied, so the company named is found.
func (q *Query) DropFilters(reason string) {
	for _, f := range q.Filters() {
		q.NotApplied = append(q.NotApplied, fmt.Sprintf("filter %q (%s)", f, reason))
	}
	if len(q.Filters()) > 0 {
		q.unread = append(q.unread, fmt.Sprintf("the filters %s, since %s", quoteAll(q.Filters()), reason))
	}
	q.Countries, q.Categories = nil, nil
}
