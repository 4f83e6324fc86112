package views

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/internal/untrusted"
)

// cleanScript runs web/src/clean.js under node: it classifies every code
// point alone (k kept, d removed, r replaced by U+FFFD, s made a space) and
// cleans the strings it reads as a JSON list on stdin.
const cleanScript = `
import { clean } from %q;
let classes = "";
for (let cp = 0; cp <= 0x10ffff; cp++) {
  if (cp >= 0xd800 && cp <= 0xdfff) { classes += "-"; continue; }
  const c = String.fromCodePoint(cp), o = clean(c);
  classes += o === c ? "k" : o === "" ? "d" : o === "\ufffd" ? "r" : o === " " ? "s" : "?";
}
let input = "";
for await (const chunk of process.stdin) input += chunk;
process.stdout.write(JSON.stringify({ classes, cleaned: JSON.parse(input).map(clean) }));
`

// goClass is what Go's rule does with r alone, in the script's letters.
func goClass(r rune) byte {
	s := string(r)
	switch o := untrusted.Clean(s); o {
	case s:
		return 'k'
	case "":
		return 'd'
	case "\uFFFD":
		return 'r'
	case " ":
		return 's'
	}
	return '?'
}

// The views' port of the rule (web/src/clean.js) does what the server's
// does, over every code point and over strings where the context decides
// (joiners, emoji selectors), real names and hostile ones. Node's Unicode
// may be newer than Go's: a code point Go's tables call unassigned may be a
// character to node; those, and only those, may differ.
func TestViewsCleanAsTheServerDoes(t *testing.T) {
	node, err := exec.LookPath("node")
	require.NoError(t, err, "node is needed for the views (README prerequisites)")
	abs, err := filepath.Abs("web/src/clean.js")
	require.NoError(t, err)
	strs := []string{
		"Acme GmbH", "株式会社トヨタ自動車", "می‌خواهم", "क्‍ष", "👩🏽‍💻 Labs", "I ❤️ NY", "1️⃣ First", "Nguyễn Văn Cường",
		"a\u200Db", "a\u200C\u200Cb", "☺\uFE0F\uFE0F", "a\uFE0F", "x\r\n\r\ny", "PWN\u202Eevil\u202C", "A\U000E0100\U000E0101",
		"t\U000E0041\U000E0042", "ab\u3164c\u115F", "\u0085\u2028\u2029z", "a\x00\x1b[31m", "\uE000\uFDD0", "<img src=x>",
	}
	for _, r := range []rune{0x200C, 0x200D, 0xFE0E, 0xFE0F} {
		for _, ctx := range []string{"a%sb", "क%sष", "☺%s", "%s☺", "☺%s☺", "ب%sپ", "1%s", "%s"} {
			strs = append(strs, strings.Replace(ctx, "%s", string(r), 1))
		}
	}
	in, err := json.Marshal(strs)
	require.NoError(t, err)
	cmd := exec.Command(node, "--input-type=module", "-e", strings.Replace(cleanScript, "%q", "\"file://"+abs+"\"", 1))
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, stderr.String())
	var got struct {
		Classes string   `json:"classes"`
		Cleaned []string `json:"cleaned"`
	}
	require.NoError(t, json.Unmarshal(out, &got))
	require.Equal(t, int(unicode.MaxRune)+1, utf8.RuneCountInString(got.Classes))

	newer, differ := 0, 0
	for cp := rune(0); cp <= unicode.MaxRune; cp++ {
		if cp >= 0xD800 && cp <= 0xDFFF {
			continue
		}
		js, g := got.Classes[cp], goClass(cp)
		if js == g {
			continue
		}
		if g == 'r' && js == 'k' && !unicode.In(cp, unicode.Co, unicode.Noncharacter_Code_Point) {
			newer++ // assigned after Go's Unicode version
			continue
		}
		differ++
		if differ <= 10 {
			t.Errorf("U+%04X: the views %c, the server %c", cp, js, g)
		}
	}
	assert.Zero(t, differ, "code points the views and the server treat apart")
	assert.Less(t, newer, 20000, "code points node's Unicode assigns and Go's (%s) does not", unicode.Version)
	t.Logf("every code point agrees, save %d that node's Unicode assigns after Go's %s", newer, unicode.Version)
	for i, s := range strs {
		assert.Equal(t, untrusted.Clean(s), got.Cleaned[i], "%q", s)
	}
}
