package suggest

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// categories are the embedded backend's, most common first as the
// vocabulary lists them.
var categories = []string{"Software", "Fintech", "Healthcare", "Biotech", "E-commerce", "Logistics", "Manufacturing",
	"Energy", "Education", "Media", "Cybersecurity", "AI & Machine Learning", "Robotics", "Real Estate", "Agriculture",
	"Automotive", "Telecommunications", "Travel & Hospitality", "Food & Beverage", "Retail", "Gaming", "Legal Tech",
	"HR Tech", "Insurance", "Climate Tech", "Aerospace"}

func TestExactAcceptsOnlyACaseDifferenceThatIsUnambiguous(t *testing.T) {
	got, ok := Exact(" fintech ", categories)
	assert.True(t, ok)
	assert.Equal(t, "Fintech", got)

	_, ok = Exact("Fintechs", categories)
	assert.False(t, ok, "a plural is a suggestion, not a silent correction")

	_, ok = Exact("ai", []string{"AI", "Ai"})
	assert.False(t, ok, "two names differing in case: choosing one would be a guess")
	got, ok = Exact("AI", []string{"AI", "Ai"})
	assert.True(t, ok, "an exact match is never ambiguous")
	assert.Equal(t, "AI", got)
}

func TestNearForgivesTheWayAModelErrs(t *testing.T) {
	tests := []struct {
		in    string
		first string
	}{
		{"ecommerce", "E-commerce"},
		{"E commerce", "E-commerce"},
		{"Robotic", "Robotics"},
		{"AI", "AI & Machine Learning"},
		{"Artificial Intelligence", "AI & Machine Learning"},
		{"AI and Machine Learning", "AI & Machine Learning"},
		{"machine learning", "AI & Machine Learning"},
		{"Fintec", "Fintech"},
		{"Cybersecruity", "Cybersecurity"},
		{"cyber", "Cybersecurity"},
		{"Health", "Healthcare"},
		{"Telecom", "Telecommunications"},
		{"Travel and Hospitality", "Travel & Hospitality"},
		{"Fintech companies", "Fintech"},
		{"legaltech", "Legal Tech"},
	}
	for _, tt := range tests {
		got := Near(tt.in, categories, 5)
		if assert.NotEmpty(t, got, tt.in) {
			assert.Equal(t, tt.first, got[0], "%q: %v", tt.in, got)
		}
		assert.LessOrEqual(t, len(got), 5)
	}
}

func TestNearOffersSeveralWhenAWordIsShared(t *testing.T) {
	// The names with the word first, the closest first; then those holding it.
	assert.Equal(t, []string{"HR Tech", "Legal Tech", "Climate Tech", "Fintech", "Biotech"}, Near("Tech", categories, 5))
}

func TestNearSuggestsNothingImplausible(t *testing.T) {
	for _, in := range []string{"Quantum", "x", "", "   ", "Underwater basket weaving"} {
		assert.Empty(t, Near(in, categories, 5), in)
	}
	assert.Empty(t, Near("Fintech", categories, 0))
}

func TestDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"abc", "", 3},
		{"", "abc", 3},
		{"germany", "germany", 0},
		{"germny", "germany", 1},
		{"untied", "united", 1}, // transposition
		{"kitten", "sitting", 3},
		{"ca", "abc", 3}, // OSA, not full Damerau
	} {
		assert.Equal(t, tt.want, Distance([]rune(tt.a), []rune(tt.b)), "Distance(%q, %q)", tt.a, tt.b)
	}
}
