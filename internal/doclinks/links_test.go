package doclinks

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// root is the repository root, seen from this package.
const root = "../.."

// maxREADMELines is the front page's budget (issue 35): what it is, the two
// commands, client configuration, the tools in one table, links.
const maxREADMELines = 250

// docFiles are the documents whose links are checked: README.md and docs/*.md.
func docFiles(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	require.NoError(t, err)
	require.NotEmpty(t, docs, "docs/*.md")
	return append([]string{filepath.Join(root, "README.md")}, docs...)
}

var (
	linkRE    = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	codeRE    = regexp.MustCompile("`[^`]*`")
	headingRE = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*\s*$`)
)

// prose returns a Markdown file's lines outside fenced code blocks, with
// inline code spans blanked, each with its 1-based line number.
func prose(text string) (lines []string, numbers []int) {
	fenced := false
	for i, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		lines = append(lines, codeRE.ReplaceAllString(line, "``"))
		numbers = append(numbers, i+1)
	}
	return lines, numbers
}

// slug is GitHub's anchor for a heading: lower case, letters, digits, '-'
// and '_' kept, spaces turned into '-', everything else dropped.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case unicode.IsLetter(r), unicode.IsDigit(r), r == '-', r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// anchors are the #fragments a Markdown file's headings define, duplicates
// numbered as GitHub numbers them (-1, -2, …).
func anchors(text string) map[string]bool {
	lines, _ := prose(text)
	seen := map[string]int{}
	out := map[string]bool{}
	for _, line := range lines {
		m := headingRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		// Inline code was blanked by prose; a heading's anchor keeps its text.
		s := slug(strings.ReplaceAll(m[2], "``", ""))
		if n := seen[s]; n > 0 {
			out[fmt.Sprintf("%s-%d", s, n)] = true
		} else {
			out[s] = true
		}
		seen[s]++
	}
	return out
}

// TestDocLinksResolve follows every relative link in README.md and docs/*.md:
// the file or directory must exist in the repository and an #anchor must be
// a heading of the document it points into.
func TestDocLinksResolve(t *testing.T) {
	texts := map[string]string{}
	read := func(path string) (string, bool) {
		if s, ok := texts[path]; ok {
			return s, true
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return "", false
		}
		texts[path] = string(b)
		return texts[path], true
	}
	checked := 0
	for _, file := range docFiles(t) {
		text, ok := read(file)
		require.True(t, ok, file)
		lines, numbers := prose(text)
		name, _ := filepath.Rel(root, file)
		for i, line := range lines {
			for _, m := range linkRE.FindAllStringSubmatch(line, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				checked++
				where := fmt.Sprintf("%s:%d: link %q", name, numbers[i], target)
				path, anchor, _ := strings.Cut(target, "#")
				dest := file
				if path != "" {
					dest = filepath.Join(filepath.Dir(file), filepath.FromSlash(path))
					rel, err := filepath.Rel(root, dest)
					if !assert.NoError(t, err, where) || !assert.False(t, strings.HasPrefix(rel, ".."), "%s leaves the repository", where) {
						continue
					}
					if _, err := os.Stat(dest); !assert.NoError(t, err, "%s: no such file", where) {
						continue
					}
				}
				if anchor == "" {
					continue
				}
				if !assert.True(t, strings.HasSuffix(dest, ".md"), "%s: an anchor into a file that is not Markdown", where) {
					continue
				}
				destText, _ := read(dest)
				assert.True(t, anchors(destText)[anchor], "%s: %s has no heading with anchor #%s", where, filepath.Base(dest), anchor)
			}
		}
	}
	t.Logf("%d relative links checked in %d documents", checked, len(docFiles(t)))
	assert.Greater(t, checked, 20, "the documents link to each other")
}

// TestREADMEIsAFrontPage holds README.md to a short front page whose first
// section is the two commands, linking every document in docs/, and every
// document in docs/ to a table of contents.
func TestREADMEIsAFrontPage(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	readme := string(b)
	lines := strings.Count(strings.TrimRight(readme, "\n"), "\n") + 1
	assert.LessOrEqual(t, lines, maxREADMELines, "README.md is the front page; move detail into docs/")

	prose, _ := prose(readme)
	var sections []string
	for _, line := range prose {
		if strings.HasPrefix(line, "## ") {
			sections = append(sections, strings.TrimPrefix(line, "## "))
		}
	}
	require.NotEmpty(t, sections)
	assert.Equal(t, "Two commands", sections[0], "the two commands come first")

	for _, doc := range docFiles(t)[1:] {
		name := "docs/" + filepath.Base(doc)
		assert.Contains(t, readme, "]("+name+")", "README.md links %s", name)
		text, err := os.ReadFile(doc)
		require.NoError(t, err)
		assert.Contains(t, string(text), "\n## Contents\n", "%s has a table of contents", name)
	}
}

func TestSlug(t *testing.T) {
	for heading, want := range map[string]string{
		"Release: image, Helm chart, MCP Registry entry":      "release-image-helm-chart-mcp-registry-entry",
		"Tracing (OpenTelemetry)":                             "tracing-opentelemetry",
		"Views in the host (MCP Apps)":                        "views-in-the-host-mcp-apps",
		"A shared deployment: replicas, Redis, health checks": "a-shared-deployment-replicas-redis-health-checks",
	} {
		assert.Equal(t, want, slug(heading), heading)
	}
	assert.Equal(t, map[string]bool{"a": true, "a-1": true, "b": true}, anchors("# A\n```\n# not a heading\n```\n## A\n### B\n"))
}
