package tools

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCursorRoundTrips(t *testing.T) {
	tok := "eyJ2Ijoy-token_with.odd/chars+="
	for _, p := range []Position{{Token: &tok}, {Token: &tok, Skip: 37}, {Skip: 12}, {Token: Ptr(""), Skip: 1}} {
		c := p.Cursor()
		assert.True(t, strings.HasPrefix(c, cursorPrefix), c)
		got, err := ParseCursor(c)
		require.NoError(t, err, c)
		assert.Equal(t, p, got)
	}
}

func TestCursorNextAndAfter(t *testing.T) {
	tok := "page2"
	at := Position{Token: &tok, Skip: 10}
	assert.Empty(t, at.Next(nil), "the last page has no cursor")
	next, err := ParseCursor(at.Next(Ptr("page3")))
	require.NoError(t, err)
	assert.Equal(t, Position{Token: Ptr("page3")}, next, "a whole page shown: the backend's next token, nothing to skip")
	after, err := ParseCursor(at.After(25))
	require.NoError(t, err)
	assert.Equal(t, Position{Token: &tok, Skip: 35}, after, "a cut page: the same token, past what was shown")
}

func TestFirstPageAndRawBackendTokens(t *testing.T) {
	p, err := ParseCursor("")
	require.NoError(t, err)
	assert.Equal(t, Position{}, p)
	p, err = ParseCursor("AgAAAAAAAAAAAAAAAAAAAAAA")
	require.NoError(t, err, "an older client's raw backend token still works")
	assert.Equal(t, Position{Token: Ptr("AgAAAAAAAAAAAAAAAAAAAAAA")}, p)
}

func TestAlteredOrMadeUpCursorsAreRefusedOnTheCursorArgument(t *testing.T) {
	good := Position{Token: Ptr("page2"), Skip: 5}.Cursor()
	flipped := []byte(good)
	i := len(flipped) - 3
	if flipped[i] == 'A' {
		flipped[i] = 'B'
	} else {
		flipped[i] = 'A'
	}
	for name, c := range map[string]string{
		"a character changed": string(flipped),
		"cut short":           good[:len(good)-4],
		"not base64":          cursorPrefix + "!!!",
		"empty payload":       cursorPrefix,
		"skip past a page":    Position{Token: Ptr("t"), Skip: MaxSkip + 1}.Cursor(),
		"first page, no skip": Position{}.Cursor(),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := ParseCursor(c)
			var e *Error
			require.True(t, errors.As(err, &e), "%v", err)
			assert.Equal(t, InvalidArguments, e.Class)
			require.Len(t, e.Fields, 1)
			assert.Equal(t, "cursor", e.Fields[0].Field)
			assert.NotContains(t, e.Message, "nextToken")
		})
	}
}

func TestACursorThatSkipsNeedsALargerPage(t *testing.T) {
	p := Position{Token: Ptr("t"), Skip: 38}
	assert.NoError(t, p.Fits(100))
	assert.NoError(t, p.Fits(39))
	err := p.Fits(38)
	var e *Error
	require.True(t, errors.As(err, &e))
	assert.Equal(t, "limit", e.Fields[0].Field)
	assert.Contains(t, e.Message, "the limit you paged with")
	assert.NoError(t, Position{Token: Ptr("t")}.Fits(1), "a whole-page cursor takes any limit")
}
