package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/companyintel/mcp-server/appsynclocal/authn"
)

func TestFlags(t *testing.T) {
	if err := run(context.Background(), []string{"--help"}, io.Discard); err != nil {
		t.Errorf("--help: %v, want nil", err)
	}
	for _, args := range [][]string{{"--fault", "bogus"}, {"--companies", "many"}, {"--nope"}} {
		if err := run(context.Background(), args, io.Discard); !errors.Is(err, errUsage) {
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

// A size out of range is refused before anything starts, never replaced.
func TestCompaniesOutOfRangeIsRefused(t *testing.T) {
	for _, n := range []string{"0", "-1", "1000001"} {
		if err := run(context.Background(), []string{"--companies", n, "--data-dir", t.TempDir(), "--listen", "127.0.0.1:0"}, io.Discard); !errors.Is(err, errUsage) {
			t.Errorf("--companies %s: %v, want the usage error", n, err)
		}
	}
}

// The API key and the issuer's address survive a restart on the same data
// directory; the env file gives them to scripts.
func TestClientSettingsAreKeptAcrossRestarts(t *testing.T) {
	dir := t.TempDir()
	first, err := stableAPIKey(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	second, err := stableAPIKey(dir, "")
	if err != nil || second != first || first == "" {
		t.Errorf("API key %q then %q (%v), want the same twice", first, second, err)
	}
	if given, _ := stableAPIKey(dir, "da2-given"); given != "da2-given" {
		t.Errorf("--api-key gave %q", given)
	}

	cfg := authn.IssuerConfig{KeyFile: filepath.Join(dir, "issuer-key.pem")}
	iss, moved, err := startIssuer(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	url := iss.URL()
	iss.Close()
	iss, moved, err = startIssuer(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if iss.URL() != url || moved {
		t.Errorf("issuer at %s (moved=%v) after a restart, want %s", iss.URL(), moved, url)
	}
	// While the old port is taken, the issuer moves and says so.
	other, moved, err := startIssuer(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !moved || other.URL() == url {
		t.Errorf("second issuer at %s (moved=%v) while %s is taken", other.URL(), moved, url)
	}
	other.Close()
	iss.Close()

	path, err := writeEnv(dir, map[string]string{"APPSYNC_API_KEY": first, "OIDC_ISSUER": url})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "APPSYNC_API_KEY=" + first + "\nOIDC_ISSUER=" + url + "\n"
	if !strings.HasSuffix(string(b), want) {
		t.Errorf("env file:\n%s\nwant it to end with:\n%s", b, want)
	}
}

// stopAt cancels a run when its log says a database build has begun, as a
// SIGTERM at that moment would, and keeps the log.
type stopAt struct {
	mu     sync.Mutex
	log    bytes.Buffer
	cancel context.CancelFunc
}

func (w *stopAt) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if bytes.Contains(p, []byte(`msg="building companies database"`)) {
		w.cancel()
	}
	return w.log.Write(p)
}

func TestStopDuringTheDatabaseBuildKeepsNothing(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := &stopAt{cancel: cancel}

	err := run(ctx, []string{"--listen", "127.0.0.1:0", "--data-dir", dir, "--companies", "1000000"}, w)

	if err != nil {
		t.Fatalf("run: %v, want a clean stop", err)
	}
	log := w.log.String()
	for _, want := range []string{"stopped building companies database; nothing was kept", "stopped before the data set was ready"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "companies-") {
			t.Errorf("%s left in the data dir", e.Name())
		}
	}
}
