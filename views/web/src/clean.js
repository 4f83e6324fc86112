// clean is the server's rule for untrusted text (internal/untrusted.Clean in
// Go), ported: every string a view shows passes through it before it becomes
// a text node, so a company name or a collection's description carries
// nothing a person cannot see. Line breaks become one space; controls,
// format characters (bidi overrides, zero-width characters, tag characters)
// and other default-ignorable code points (variation selectors, Hangul
// fillers) are removed; private-use, noncharacter and unassigned code points
// become U+FFFD. ZWNJ/ZWJ stay inside a word of a script that needs them
// (Arabic script, Syriac, N'Ko, Mongolian, the Indic scripts) and inside an
// emoji sequence; VS15/VS16 stay once after a symbol or keycap character.
// views_test.go holds it to the Go rule over every code point.

const breakRe = /^[\t\n\v\f\r\u0085\u2028\u2029]$/u;
const dropRe = /^[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]$/u;
const replaceRe = /^[\p{Co}\p{Cn}\p{Cs}\p{Noncharacter_Code_Point}]$/u;
const letterMarkRe = /^[\p{L}\p{M}]$/u;
const joiningRe =
  /^[\p{sc=Arabic}\p{sc=Syriac}\p{sc=Nko}\p{sc=Mongolian}\p{sc=Devanagari}\p{sc=Bengali}\p{sc=Gurmukhi}\p{sc=Gujarati}\p{sc=Oriya}\p{sc=Tamil}\p{sc=Telugu}\p{sc=Kannada}\p{sc=Malayalam}\p{sc=Sinhala}]$/u;
const symbolRe = /^\p{S}$/u;
const otherSymbolRe = /^[\p{So}\p{Sk}]$/u;
const plainASCII = /^[\x20-\x7e]*$/;

// kind is what clean does with one code point.
function kind(c) {
  if (breakRe.test(c)) return "break";
  if (c === "\u200c" || c === "\u200d") return "joiner";
  if (c === "\ufe0e" || c === "\ufe0f") return "selector";
  if (dropRe.test(c)) return "drop";
  if (replaceRe.test(c)) return "replace";
  return "keep";
}

function joins(prev, next) {
  if (!prev || !next || prev.codePointAt(0) < 0x300 || next.codePointAt(0) < 0x300 || kind(next) !== "keep") return false;
  if (letterMarkRe.test(prev) && letterMarkRe.test(next)) return joiningRe.test(prev) && joiningRe.test(next);
  return (prev === "\ufe0f" || otherSymbolRe.test(prev)) && /^\p{So}$/u.test(next);
}

function presents(prev) {
  return !!prev && (/^[0-9#*]$/.test(prev) || (symbolRe.test(prev) && kind(prev) === "keep"));
}

export function clean(value) {
  const s = String(value);
  if (plainASCII.test(s)) return s;
  const cps = Array.from(s);
  let out = "";
  let prev = "";
  for (let i = 0; i < cps.length; i++) {
    let c = cps[i];
    switch (kind(c)) {
      case "break":
        if (prev !== " ") out += prev = " ";
        continue;
      case "drop":
        continue;
      case "joiner":
        if (!joins(prev, cps[i + 1])) continue;
        break;
      case "selector":
        if (!presents(prev)) continue;
        break;
      case "replace":
        c = "\ufffd";
        break;
    }
    out += c;
    prev = c;
  }
  return out;
}
