package main

import (
	"errors"
	"testing"
)

func TestFlags(t *testing.T) {
	if err := run([]string{"--help"}); err != nil {
		t.Errorf("--help: %v, want nil", err)
	}
	for _, args := range [][]string{{"--fault", "bogus"}, {"--companies", "many"}, {"--nope"}} {
		if err := run(args); !errors.Is(err, errUsage) {
			t.Errorf("%v: %v, want the usage error", args, err)
		}
	}
}

func TestDefaultDataDirIsPerUser(t *testing.T) {
	if defaultDataDir() == "" {
		t.Fatal("no default data dir")
	}
}

func TestIAMFlag(t *testing.T) {
	var f iamFlag
	for _, bad := range []string{"", "AKID", "AKID:", ":secret"} {
		if err := f.Set(bad); err == nil {
			t.Errorf("--iam %q accepted", bad)
		}
	}
	if err := f.Set("AKID1:s3cret"); err != nil {
		t.Fatal(err)
	}
	if err := f.Set("AKID2:other:ci-role"); err != nil {
		t.Fatal(err)
	}
	if f[0].User != "iam-AKID1" || f[1].User != "ci-role" || f[1].SecretAccessKey != "other" {
		t.Errorf("parsed %+v", f)
	}
}
