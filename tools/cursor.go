package tools

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"strings"
)

// A list answer cut by the answer bound (answer.go) must continue exactly at
// its first record not shown, but the backend's nextToken only continues
// after a whole backend page. So the cursor a tool returns wraps the token
// that fetched the page and how many of that page's records were shown: the
// next call fetches the same page again and skips them. Re-fetching from a
// token is how the backend pages anyway (the token marks a position, not a
// page size), so following cursors visits every record once.

// cursorPrefix marks this server's cursors; a backend token (base64, never a
// dot) passed as cursor by an older client still works as one.
const cursorPrefix = "c1."

// MaxSkip bounds the records a cursor may skip: no page holds more.
const MaxSkip = 100

// Position is where a page starts: the backend token of the page (nil for
// the first) and how many of its records were already shown.
type Position struct {
	Token *string
	Skip  int
}

// badCursor explains a cursor this server did not make, or that was changed.
var badCursor = Invalid("cursor", "not a next_cursor from this tool, or altered; pass back the previous answer's next_cursor "+
	"unchanged with the same other arguments, or leave cursor out to start from the first page")

// ParseCursor reads a cursor argument: "" is the first page, one of this
// server's cursors is checked and unwrapped before any backend call, and
// anything else is passed to the backend as its own token.
func ParseCursor(cursor string) (Position, error) {
	if cursor == "" {
		return Position{}, nil
	}
	enc, ok := strings.CutPrefix(cursor, cursorPrefix)
	if !ok {
		return Position{Token: &cursor}, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(enc)
	if err != nil || len(b) < 6 {
		return Position{}, badCursor
	}
	sum, payload := b[:4], b[4:]
	if want := checksum(payload); !bytes.Equal(sum, want) {
		return Position{}, badCursor
	}
	hasToken := payload[0] == 1
	skip, n := binary.Uvarint(payload[1:])
	if n <= 0 || payload[0] > 1 || skip > MaxSkip || (!hasToken && skip == 0) || (!hasToken && len(payload) > 1+n) {
		return Position{}, badCursor
	}
	p := Position{Skip: int(skip)}
	if hasToken {
		tok := string(payload[1+n:])
		p.Token = &tok
	}
	return p, nil
}

// Fits refuses a page size that cannot continue p: a cursor that skips k
// records of a page needs a page of more than k, or what it skipped would
// be paged over again.
func (p Position) Fits(limit int) error {
	if p.Skip > 0 && limit <= p.Skip {
		return Invalid("limit", fmt.Sprintf("this cursor continues past the first %d results of a page; "+
			"call again with the limit you paged with (more than %d)", p.Skip, p.Skip))
	}
	return nil
}

// Cursor renders p as a cursor argument.
func (p Position) Cursor() string {
	payload := []byte{0}
	if p.Token != nil {
		payload[0] = 1
	}
	payload = binary.AppendUvarint(payload, uint64(p.Skip))
	if p.Token != nil {
		payload = append(payload, *p.Token...)
	}
	return cursorPrefix + base64.RawURLEncoding.EncodeToString(append(checksum(payload), payload...))
}

// Next is the cursor after a page fetched at p whose backend answer ended
// with nextToken: "" on the last page.
func (p Position) Next(nextToken *string) string {
	if nextToken == nil {
		return ""
	}
	return Position{Token: nextToken}.Cursor()
}

// After is the cursor continuing at record shown (counted from p's own
// first record) of the page fetched at p.
func (p Position) After(shown int) string {
	return Position{Token: p.Token, Skip: p.Skip + shown}.Cursor()
}

// checksum catches a cursor altered by hand or cut short in transit. It is
// not a secret: the backend checks its own token.
func checksum(payload []byte) []byte {
	s := sha256.Sum256(payload)
	return s[:4]
}
