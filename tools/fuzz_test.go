package tools

import (
	"encoding/json"
	"reflect"
	"testing"
	"unicode/utf8"
)

// fuzzIn has an argument of every kind the decoder reads, with and without
// bounds in its tags, so that the defaults are fuzzed too.
type fuzzIn struct {
	Query string   `json:"query,omitempty" desc:"q" max:"200"`
	ID    string   `json:"id" desc:"an id" max:"100"`
	Free  string   `json:"free,omitempty" desc:"a string without a max tag"`
	IDs   []string `json:"ids,omitempty" desc:"ids, de-duplicated later" min:"1"`
	Roles []string `json:"roles,omitempty" desc:"roles" max:"10" itemmax:"40"`
	Limit int      `json:"limit,omitempty" desc:"how many" min:"1" max:"100" default:"20"`
	Exact bool     `json:"exact,omitempty" desc:"exact"`
}

// maxRefusalBytes bounds a refusal on the wire, whatever the input: no
// answer may grow with what the caller sent.
const maxRefusalBytes = 8 << 10

// FuzzDecodeArgs feeds arbitrary bytes to the argument decoder, as a tool
// call's arguments. It checks that decoding never panics, that accepted
// values keep every bound the schema states, and that a refusal stays small.
//
// Run it (not in CI) with
//
//	go test ./tools -run '^$' -fuzz FuzzDecodeArgs -fuzztime 100000x
//
// What it finds is kept in testdata/fuzz/FuzzDecodeArgs and replayed by
// every plain go test.
func FuzzDecodeArgs(f *testing.F) {
	typ := reflect.TypeFor[fuzzIn]()
	fields, err := inputFields(typ)
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{
		`{}`, `null`, `[]`, `"x"`, `{"id":"cmp_1"}`,
		`{"id":"cmp_1","query":"robotics","limit":"7","exact":"true","ids":["a","a","b"],"roles":"[\"CEO\"]"}`,
		`{"id":12,"ids":[1,2.5,-3,1e300,12345678901234567890],"limit":1e3}`,
		`{"id":"x","roles":["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"],"free":"` + string(make([]byte, 64)) + `"}`,
		`{"id":"x","context":5,"unknown":1,"another":{"deep":[1,2,3]}}`,
		`{"id":"x","ids":"[1,{}]","limit":null}`,
		`{"id":"\ud800","query":"é"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		d, errs := decodeArgs(typ, fields, raw)
		if len(errs) > 0 {
			b, err := json.Marshal(errorResult("fuzz", InvalidFields(errs)))
			if err != nil {
				t.Fatalf("the refusal does not encode: %v", err)
			}
			if len(b) > maxRefusalBytes {
				t.Fatalf("a %d-byte input was refused in %d bytes", len(raw), len(b))
			}
			return
		}
		in := d.in.Interface().(fuzzIn)
		for name, s := range map[string]struct {
			v   string
			max int
		}{"query": {in.Query, 200}, "id": {in.ID, 100}, "free": {in.Free, defaultMaxString}} {
			if n := utf8.RuneCountInString(s.v); n > s.max {
				t.Fatalf("%s accepted with %d characters, over %d", name, n, s.max)
			}
		}
		if in.ID == "" {
			t.Fatal("the required id was accepted empty")
		}
		if len(in.IDs) > defaultMaxItems || len(in.Roles) > 10 {
			t.Fatalf("a list was accepted over its bound: %d ids, %d roles", len(in.IDs), len(in.Roles))
		}
		for _, s := range in.IDs {
			if s == "" || utf8.RuneCountInString(s) > defaultMaxItemChar {
				t.Fatalf("an id item %q was accepted", s)
			}
		}
		for _, s := range in.Roles {
			if s == "" || utf8.RuneCountInString(s) > 40 {
				t.Fatalf("a role item %q was accepted", s)
			}
		}
		if in.Limit < 1 || in.Limit > 100 {
			t.Fatalf("limit %d was accepted", in.Limit)
		}
		if utf8.RuneCountInString(d.context) > maxContextLen {
			t.Fatalf("the context sentence kept %d characters", utf8.RuneCountInString(d.context))
		}
	})
}
