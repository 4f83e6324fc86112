package views

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// maxViewBytes bounds a view: it is read by the host once per connection at
// most, but it is shipped in every binary.
const maxViewBytes = 400_000

// TestViewsAreSelfContained: each view is one HTML document that refers to
// nothing outside itself (no external script, style sheet, image, frame or
// import), declares its CSP, and stays within its size.
func TestViewsAreSelfContained(t *testing.T) {
	external := regexp.MustCompile(`(?i)<(script|link|img|iframe)[^>]*\s(src|href)=|@import|url\(\s*["']?(https?:)?//`)
	for _, v := range All {
		html, err := v.HTML()
		require.NoError(t, err, v.URI)
		assert.Regexp(t, `^<!doctype html>\n`, html, v.URI)
		assert.Contains(t, html, `<meta http-equiv="Content-Security-Policy" content="default-src 'none';`, v.URI)
		assert.NotRegexp(t, external, html, v.URI)
		assert.Equal(t, 1, len(regexp.MustCompile(`<script>`).FindAllString(html, -1)), "%s: one inline script", v.URI)
		assert.LessOrEqual(t, len(html), maxViewBytes, v.URI)
		t.Logf("%s: %d bytes", v.URI, len(html))
	}
}
