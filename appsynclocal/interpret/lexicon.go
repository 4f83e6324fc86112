package interpret

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/companyintel/mcp-server/appsynclocal/dataset"
	"github.com/companyintel/mcp-server/internal/sizes"
)

// kind says what a lexicon phrase means.
type kind int

const (
	kindCountry kind = iota + 1
	kindCategory
	kindSize
	kindRegion  // a set of countries ("the Nordics")
	kindCity    // a city of the data: a keyword, kept whole ("new york")
	kindKeyword // an unknown word, left for ranking
)

// group is the kind a negation's scope is judged by: a region and a country
// are both places, so "not in Germany or the Nordics" excludes both.
func (k kind) group() kind {
	if k == kindRegion {
		return kindCountry
	}
	return k
}

// entry is the meaning of one phrase.
type entry struct {
	kind     kind
	code     string // kindCountry: ISO alpha-2
	category int    // kindCategory: index into dataset.Categories
	min, max int    // kindSize: employee bounds, 0 for none
	region   int    // kindRegion: index into dataset.Regions
}

// maxPhrase is the longest phrase in words ("united states of america").
const maxPhrase = 5

// lexicon maps every known phrase, lower case, to its meaning.
var lexicon = buildLexicon()

func buildLexicon() map[string]entry {
	lx := map[string]entry{}
	add := func(phrase string, e entry) {
		if _, taken := lx[phrase]; !taken { // the first meaning listed wins
			lx[phrase] = e
		}
	}
	// Categories first, so "enterprise software" is Software, not a size.
	for k, c := range dataset.Categories {
		e := entry{kind: kindCategory, category: k}
		add(strings.ToLower(c.Name), e)
		for _, s := range c.Synonyms {
			add(s, e)
		}
	}
	for _, c := range dataset.Countries {
		e := entry{kind: kindCountry, code: c.Code}
		add(strings.ToLower(c.Name), e)
		for _, a := range c.Aliases {
			add(a, e)
		}
		for _, a := range c.Adjectives {
			add(a, e)
		}
	}
	for k, r := range dataset.Regions {
		for _, a := range r.Aliases {
			add(a, entry{kind: kindRegion, region: k})
		}
	}
	for _, c := range dataset.Countries {
		for _, city := range c.Cities {
			if w := strings.ToLower(city); strings.Contains(w, " ") {
				add(w, entry{kind: kindCity})
			}
		}
	}
	// The size words and their bands are the server's (internal/sizes),
	// which the companies://filters resource states too.
	for w, b := range sizes.Words() {
		add(w, entry{kind: kindSize, min: b.Min, max: b.Max})
	}
	return lx
}

// stopWords carry no search meaning in a company query.
var stopWords = setOf(`a about above after all also an and any are around as at based be been
best but by can companies company could do does doing employ employees employing exist find firm firms
for from get give has have headquartered help i in into is it its like list located looking look
me more most my near need of on one or organisations organizations other our people please show
ones similar some staff such than that the their them there these they this those to top us using
want we what where which who with within work working would you
how many much whom whose when why tell name return examples businesses business vendors vendor
providers provider players player operating active currently known called search searching interested
founded established started created incorporated launched were was has had will being
should am i'm let let's see each every them just really very here
new tell know info information details detail good great interesting notable cool various several kind kinds type types
sort etc anything something everything today now nowadays currently i'd like about regarding related relevant named
leading major prominent famous popular well-known corporations corporation corp corps orgs org outfits enterprises
country countries region regions area areas anywhere everywhere worldwide globally located situated hq
there're having employers employer m ve ll re d ok okay thanks thank maybe perhaps possibly also too either`)

// fillerVerbs say that the companies do what follows ("companies building
// warehouse software", "firms that make chips"): the object is the content,
// the verb only links it to the subject. As a keyword such a verb would
// narrow the search by how a description happens to be phrased, and, being
// in a third of all descriptions, it makes the search read long index lists.
// They are dropped only where they link a subject to an object (see
// isFillerVerb): "smart building sensors" keeps "building".
var fillerVerbs = setOf(`build builds building make makes making offer offers offering provide provides
providing develop develops developing sell sells selling create creates creating produce produces producing`)

// fillerSubjects are the words after which a filler verb links a subject to
// what it does: "companies building", "firms that make", "those who offer".
var fillerSubjects = setOf(`companies company firms firm businesses organisations organizations ones that who which
are is`)

// isFillerVerb says whether phrase i of ps is a filler verb linking a
// subject (a subject word, or a known country, category or size phrase) to
// an object right after it (a known phrase or a word that is not a stop
// word).
func isFillerVerb(ps []phrase, i int) bool {
	p := ps[i]
	if p.known || !fillerVerbs[p.text] || i == 0 || i+1 >= len(ps) {
		return false
	}
	prev, next := ps[i-1], ps[i+1]
	if !next.known && (next.text == blank || stopWords[next.text] || !hasLetterOrDigit(next.text)) {
		return false // no object follows: "companies building in Germany"
	}
	return prev.known || fillerSubjects[prev.text] || prev.text == blank
}

// negations are the words that negate what follows them ("not in Germany",
// "excluding fintech", "non-US", "outside the UK"). Two-word negations
// ("other than", "rather than", "apart from", "aside from") are recognised
// by isNegation.
var negations = setOf(`not no non never without outside except excepting excluding exclude excludes excluded
neither nor besides beyond minus sans ex excl`)

// contrasts end what a negation governs: "not in Germany but in Spain".
var contrasts = setOf(`but however yet instead only whereas while rather`)

// isNegation says whether phrase i of ps is a negating word.
func isNegation(ps []phrase, i int) bool {
	switch t := ps[i].text; {
	case negations[t]:
		return true
	case t == "than":
		return i > 0 && (ps[i-1].text == "other" || ps[i-1].text == "rather")
	case t == "apart" || t == "aside":
		return i+1 < len(ps) && ps[i+1].text == "from"
	}
	return false
}

// ambiguous phrases name a country only when written in capitals ("US") or
// after a word that shows it is a place ("the us", "non-us"), as lower case
// they are ordinary words ("help us").
var ambiguous = map[string]*regexp.Regexp{
	"us": regexp.MustCompile(`\bUS\b`),
}

// countryArticles are the words that make an ambiguous phrase a country.
var countryArticles = setOf(`the non ex outside excluding except in`)

// tokens splits lower-cased text into words. Dots and hyphens inside a word
// are kept when the whole word is in the lexicon ("u.s.", "e-commerce") and
// otherwise separate it ("ai-powered" → "ai", "powered").
func tokens(text string) []string {
	raw := strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '&' && r != '.' && r != '-' && r != '\'' && r != '§'
	})
	var out []string
	for _, t := range raw {
		t = strings.TrimSuffix(strings.TrimSuffix(t, "'s"), "'")
		if _, ok := lexicon[t]; ok {
			out = append(out, t)
			continue
		}
		if _, ok := lexicon[strings.TrimRight(t, ".")]; ok {
			out = append(out, strings.TrimRight(t, "."))
			continue
		}
		for _, part := range strings.FieldsFunc(t, func(r rune) bool { return r == '.' || r == '-' || r == '\'' }) {
			out = append(out, part)
		}
	}
	return out
}

// phrase is a word or a lexicon phrase of a sentence.
type phrase struct {
	text  string
	known bool  // meaning is set
	means entry // what a known phrase means
}

// phrases joins tokens into the longest lexicon phrases, left to right;
// unknown tokens stay single words. A plural is tried as its singular.
func phrases(toks []string, sentence string) []phrase {
	var out []phrase
	for i := 0; i < len(toks); {
		n := 1
		for l := min(maxPhrase, len(toks)-i); l > 1; l-- {
			if _, ok := lexicon[strings.Join(toks[i:i+l], " ")]; ok {
				n = l
				break
			}
		}
		p := phrase{text: strings.Join(toks[i:i+n], " ")}
		p.means, p.known = lexicon[p.text]
		if s, ok := strings.CutSuffix(p.text, "s"); !p.known && ok && len(s) > 2 {
			if e, ok := lexicon[s]; ok {
				p = phrase{text: s, known: true, means: e}
			}
		}
		if re, ok := ambiguous[p.text]; ok && !re.MatchString(sentence) && !(i > 0 && countryArticles[toks[i-1]]) {
			p.known = false
		}
		out = append(out, p)
		i += n
	}
	return out
}

func setOf(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}
