package store

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/appsynclocal/dataset"
)

// Porter's own examples (from his 1980 paper and the reference vocabulary),
// and the forms this data set's searches rely on.
func TestStemFollowsPorter(t *testing.T) {
	for in, want := range map[string]string{
		"caresses": "caress", "ponies": "poni", "ties": "ti", "caress": "caress", "cats": "cat",
		"feed": "feed", "agreed": "agre", "plastered": "plaster", "bled": "bled", "motoring": "motor", "sing": "sing",
		"conflated": "conflat", "troubled": "troubl", "sized": "size", "hopping": "hop", "tanned": "tan",
		"falling": "fall", "hissing": "hiss", "fizzed": "fizz", "failing": "fail", "filing": "file",
		"happy": "happi", "sky": "sky", "relational": "relat", "conditional": "condit", "rational": "ration",
		"valenci": "valenc", "digitizer": "digit", "conformabli": "conform", "radicalli": "radic",
		"differentli": "differ", "vileli": "vile", "analogousli": "analog", "vietnamization": "vietnam",
		"predication": "predic", "operator": "oper", "feudalism": "feudal", "decisiveness": "decis",
		"hopefulness": "hope", "callousness": "callous", "formaliti": "formal", "sensitiviti": "sensit",
		"sensibiliti": "sensibl", "triplicate": "triplic", "formative": "form", "formalize": "formal",
		"electriciti": "electr", "electrical": "electr", "hopeful": "hope", "goodness": "good",
		"revival": "reviv", "allowance": "allow", "inference": "infer", "airliner": "airlin",
		"gyroscopic": "gyroscop", "adjustable": "adjust", "defensible": "defens", "irritant": "irrit",
		"replacement": "replac", "adjustment": "adjust", "dependent": "depend", "adoption": "adopt",
		"homologou": "homolog", "communism": "commun", "activate": "activ", "angulariti": "angular",
		"homologous": "homolog", "effective": "effect", "bowdlerize": "bowdler", "probate": "probat",
		"rate": "rate", "cease": "ceas", "controll": "control", "roll": "roll", "generalizations": "gener",
		"robotics": "robot", "robots": "robot", "software": "softwar", "logistics": "logist", "building": "build",
		"go": "go", "2024": "2024", "krakow": "krakow", "oscillators": "oscil",
	} {
		assert.Equal(t, want, stem(in), in)
	}
}

func TestFoldRemovesDiacritics(t *testing.T) {
	for in, want := range map[string]string{"kraków": "krakow", "wrocław": "wroclaw", "são": "sao", "malmö": "malmo", "plain": "plain"} {
		assert.Equal(t, want, fold(in), in)
	}
}

// The build splits text with eachWord, a search with words: the same words.
func TestEachWordSplitsAsWords(t *testing.T) {
	gen, err := dataset.New(1, 3000)
	require.NoError(t, err)
	texts := []string{"", "a", "Kraków-based déjà vu", "São Paulo, 2,500 staff", "x·y – z", "ÄÖÜ abc", "abc–def", "ünïcode-ßtraße end"}
	for i := range gen.Len() {
		c := gen.Company(i)
		texts = append(texts, c.Name+" "+c.Description+" "+c.City)
	}
	for _, text := range texts {
		var got []string
		eachWord(text, nil, func(w []byte) { got = append(got, string(w)) })
		want := words(text)
		if len(want) == 0 {
			want = nil
		}
		require.Equal(t, want, got, text)
	}
}
