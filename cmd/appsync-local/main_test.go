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
