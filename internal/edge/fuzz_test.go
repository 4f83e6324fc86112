package edge

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// The fuzz targets run as plain tests over their seeds and the inputs kept
// in testdata/fuzz (findings stay there as regression inputs). To fuzz
// (not in CI; BENCHMARKS.md has the counts of the last runs):
//
//	go test ./internal/edge -run '^$' -fuzz '^FuzzFrame$' -fuzztime 200000x
//	go test ./internal/edge -run '^$' -fuzz '^FuzzStdio$' -fuzztime 100000x

func seeds(f *testing.F) {
	for _, tt := range hostile {
		if len(tt.msg) < 4096 {
			f.Add([]byte(tt.msg))
		}
	}
	f.Add([]byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_company","arguments":{"id":"cmp_1"}}}`))
	f.Add([]byte(`{"jſonrpc":"2.0","id":1,"method":"ping"}`)) // U+017F folds to s in Go's decoder
}

// FuzzFrame checks Parse against what matters downstream: a refusal is a
// well-formed answer in plain words with the right id; an accepted request
// means to mcp-go's decoder what it meant here, and its id survives the
// round trip through the edge's own id byte for byte.
func FuzzFrame(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, msg []byte) {
		fr, perr := Parse(msg)
		reply, ok := Check(msg)
		if perr != nil {
			if ok {
				t.Fatalf("Check passed what Parse refused: %q", msg)
			}
			if fr.Kind == Notification {
				if reply != nil {
					t.Fatalf("a notification was answered: %q", msg)
				}
				return
			}
			checkErrorReply(t, msg, reply, fr.ID)
			return
		}
		if fr.Kind == Response {
			if ok || reply != nil {
				t.Fatalf("a response was passed on or answered: %q", msg)
			}
			return
		}
		if !ok || reply != nil {
			t.Fatalf("Check refused what Parse accepted: %q", msg)
		}

		// What mcp-go's decoder reads from the frame the edge forwards.
		fwd := fr.WithID(json.RawMessage("7"))
		var seen struct {
			JSONRPC string `json:"jsonrpc"`
			ID      any    `json:"id"`
			Method  string `json:"method"`
			Result  any    `json:"result"`
		}
		if err := json.Unmarshal(fwd, &seen); err != nil {
			t.Fatalf("the forwarded frame does not decode: %v\n%q", err, fwd)
		}
		if seen.Method != fr.Method || seen.JSONRPC != "2.0" || seen.Result != nil {
			t.Fatalf("mcp-go would read another message: %+v from %q (edge: %q)", seen, fwd, fr.Method)
		}
		switch fr.Kind {
		case Request:
			if seen.ID != float64(7) {
				t.Fatalf("the forwarded id is %v, not the edge's 7: %q", seen.ID, fwd)
			}
			if fr.ID.IsZero() {
				t.Fatalf("a request without an id: %q", msg)
			}
			// The client's id comes back as written.
			var back struct {
				ID json.RawMessage `json:"id"`
			}
			res := ResultReply(fr.ID, json.RawMessage(`{}`))
			if err := json.Unmarshal(res, &back); err != nil || !bytes.Equal(back.ID, fr.ID.Raw()) {
				t.Fatalf("the answer's id %q is not the request's %q: %v", back.ID, fr.ID.Raw(), err)
			}
		case Notification:
			if seen.ID != nil {
				t.Fatalf("mcp-go would see an id on a notification: %q", fwd)
			}
		}
	})
}

// checkErrorReply asserts that reply is one JSON-RPC error answer carrying
// id, with a known code and a message free of Go internals.
func checkErrorReply(t *testing.T, msg, reply []byte, id ID) {
	t.Helper()
	var r struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(reply, &r); err != nil {
		t.Fatalf("the answer is not JSON: %v\n%q", err, reply)
	}
	if r.JSONRPC != "2.0" || !bytes.Equal(r.ID, id.Raw()) {
		t.Fatalf("answer %q to %q", reply, msg)
	}
	switch r.Error.Code {
	case CodeParseError, CodeInvalidRequest, CodeInvalidParams:
	default:
		t.Fatalf("code %d for %q", r.Error.Code, msg)
	}
	if r.Error.Message == "" || goisms.MatchString(r.Error.Message) {
		t.Fatalf("message %q for %q", r.Error.Message, msg)
	}
}

// FuzzStdio feeds the input as a byte stream (newlines split it into
// frames) through the stdio transport and checks the whole output: one
// JSON-RPC message per line, one answer per request or refusal, none for
// notifications and responses, and every answer's id as sent.
func FuzzStdio(f *testing.F) {
	seeds(f)
	f.Add([]byte("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\"}\n\n[]\r\n{\"jsonrpc\":\"2.0\",\"id\":\"1\",\"method\":\"b\"}"))
	f.Fuzz(func(t *testing.T, in []byte) {
		// Answers expected per id (by type and value). A request may be
		// cancelled by a later notifications/cancelled while still open,
		// and then has no answer: whether it was still open is a race, so
		// cancels[id] answers may be missing.
		want, cancels := map[string]int{}, map[string]int{}
		for _, l := range bytes.Split(in, []byte("\n")) {
			l = bytes.TrimSpace(l)
			if len(l) == 0 {
				continue
			}
			fr, perr := Parse(l)
			switch {
			case perr != nil && fr.Kind == Notification:
			case perr != nil || fr.Kind == Request:
				want[idKey(fr.ID)]++
			case fr.Kind == Notification && fr.Method == methodCancelled:
				var p struct {
					RequestID json.RawMessage `json:"requestId"`
				}
				if json.Unmarshal(fr.Params, &p) == nil {
					if id, err := ParseID(p.RequestID); err == nil {
						cancels[idKey(id)]++
					}
				}
			}
		}
		var out bytes.Buffer
		s := &Stdio{Handler: echo, After: neverFires}
		if err := s.Serve(context.Background(), bytes.NewReader(in), &out); err != nil && err != io.EOF {
			t.Fatalf("Serve: %v", err)
		}
		got := map[string]int{}
		for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
			if l == "" {
				continue
			}
			var m struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
			}
			if err := json.Unmarshal([]byte(l), &m); err != nil || m.JSONRPC != "2.0" {
				t.Fatalf("output line %q is not a JSON-RPC message (%v)", l, err)
			}
			id, _ := ParseID(m.ID) // null, or an id the edge accepted
			got[idKey(id)]++
		}
		for id, n := range want {
			if got[id] > n || got[id] < n-cancels[id] {
				t.Fatalf("id %s: %d answers, want %d (%d cancellations)\ninput %q\noutput %q", id, got[id], n, cancels[id], in, out.String())
			}
		}
		for id, n := range got {
			if want[id] == 0 {
				t.Fatalf("id %s: %d answers, want none\ninput %q\noutput %q", id, n, in, out.String())
			}
		}
	})
}

// idKey keys an id by type and value; the zero ID (null) is "null".
func idKey(id ID) string {
	if id.IsZero() {
		return "null"
	}
	return id.Key()
}

// FuzzScanMembers holds the edge's own member scanner to Go's decoder: for
// every valid JSON object it finds the same top-level names (escapes
// decoded), the same values byte for byte and where they sit.
//
//	go test ./internal/edge -run '^$' -fuzz '^FuzzScanMembers$' -fuzztime 200000x
func FuzzScanMembers(f *testing.F) {
	seeds(f)
	f.Add([]byte(` { "a" : [1, {"b": "}\"]"}] , "\u0069d" :-1.5e3,"c":{} ,"d":"x\\"}`))
	f.Add([]byte(`{"id":12.00,"jsonrpc":"2.0"}`))
	f.Fuzz(func(t *testing.T, msg []byte) {
		if !json.Valid(msg) || firstByte(msg) != '{' {
			return
		}
		got, err := scanMembers(msg, nil)
		if err != nil {
			t.Fatalf("a valid object was refused: %q", msg)
		}
		dec := json.NewDecoder(bytes.NewReader(msg))
		_, _ = dec.Token()
		var want object
		for dec.More() {
			tok, _ := dec.Token()
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				t.Fatal(err)
			}
			end := int(dec.InputOffset())
			want = append(want, member{name: tok.(string), raw: raw, start: end - len(raw), end: end})
		}
		if len(got) != len(want) {
			t.Fatalf("%d members, the decoder finds %d: %q", len(got), len(want), msg)
		}
		for i := range got {
			g, w := got[i], want[i]
			if g.name != w.name || !bytes.Equal(g.raw, w.raw) || g.start != w.start || g.end != w.end {
				t.Fatalf("member %d: %q %q %d-%d, the decoder: %q %q %d-%d", i, g.name, g.raw, g.start, g.end, w.name, w.raw, w.start, w.end)
			}
		}
	})
}
