package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
)

func TestSamplePrintsTheCommittedProfiles(t *testing.T) {
	var out bytes.Buffer
	if err := sample(nil, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../../appsynclocal/dataset/testdata/sample.txt")
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != string(want) {
		t.Errorf("appsync-local sample does not print appsynclocal/dataset/testdata/sample.txt")
	}
	out.Reset()
	if err := sample([]string{"--seed", "7", "--count", "3"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "cmp_"); n != 3 {
		t.Errorf("--count 3 printed %d profiles:\n%s", n, out.String())
	}
	for _, args := range [][]string{{"--count", "0"}, {"--companies", "0"}, {"--seed", "x"}} {
		if err := sample(args, io.Discard, io.Discard); !errors.Is(err, errUsage) {
			t.Errorf("%v: %v, want the usage error", args, err)
		}
	}
}
