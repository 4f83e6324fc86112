// Package e2e tests the built mcp-server binary from the outside, the way an
// MCP client uses it: a child process spoken to over stdio, with the embedded
// backend behind it. It uses mcp-go's real stdio client under both protocol
// revisions the server must serve (2025-11-25 with the initialize handshake,
// 2026-07-28 stateless), raw pipes where the client would hide what is on
// the wire, and the MCP Inspector CLI from npm (see inspector/).
//
// TestMain builds the binary once and builds the embedded backend's database
// once; every test then starts its own server process against that database.
package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// companies is the size of the embedded data set: big enough for every
// country the tests filter on, small enough that building it takes seconds.
const companies = 2000

var (
	// serverBin is the mcp-server binary built by TestMain.
	serverBin string
	// dataDir is the embedded backend's data directory, shared by every
	// server in this test run so the database is built only once. The
	// backend keeps collections in it too, so tests that write use names of
	// their own.
	dataDir string
	// homeDir is HOME for every server: its own, so that nothing in the
	// developer's or CI's home (AWS profiles, caches) reaches it.
	homeDir string
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

// TestSourcesAreTracked reads every file the binary is built from. The binary
// is built by a go build child process, which go test's result cache cannot
// see; files a test reads it does see, so a change to any of them makes the
// cached e2e result stale and the suite runs again. (Linking the packages in
// is not enough: the linker drops code the test never calls. Reads in
// TestMain before m.Run are not recorded.)
func TestSourcesAreTracked(t *testing.T) {
	if err := readSources(); err != nil {
		t.Fatal(err)
	}
}

func readSources() error {
	root, err := filepath.Abs("..")
	if err != nil {
		return err
	}
	return filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "e2e", "bench":
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".graphql", ".mod", ".sum":
			_, err = os.ReadFile(path)
		}
		return err
	})
}

func run(m *testing.M) int {
	tmp, err := os.MkdirTemp("", "mcp-server-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer os.RemoveAll(tmp)

	serverBin = filepath.Join(tmp, "mcp-server")
	dataDir = filepath.Join(tmp, "data")
	homeDir = filepath.Join(tmp, "home")
	for _, dir := range []string{dataDir, homeDir} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "e2e:", err)
			return 1
		}
	}

	if err := buildServer(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: building ./cmd/server:", err)
		return 1
	}
	if err := warmUp(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: first start of the embedded backend:", err)
		return 1
	}
	return m.Run()
}

// buildServer compiles ./cmd/server once for all tests. The test binary runs
// in e2e/, so the module root is its parent.
func buildServer() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	goBin, err := exec.LookPath("go")
	if err != nil {
		return fmt.Errorf("the go command is needed to build the server: %w", err)
	}
	cmd := exec.CommandContext(ctx, goBin, "build", "-o", serverBin, "./cmd/server")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%w\n%s", err, out)
	}
	return nil
}

// warmUp starts the server once with its input already closed: it builds the
// database, starts, sees end of input and exits. Doing this before the tests
// keeps the build out of every test's time budget, and keeps parallel tests
// from each building the same database.
func warmUp() error {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, serverBin, embeddedArgs()...)
	cmd.Env = childEnv()
	cmd.Stdin = nil // /dev/null: end of input at once
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%w\nstderr:\n%s", err, stderr.String())
	}
	return nil
}

// embeddedArgs are the flags every server under test gets: the embedded
// backend on the shared, small data set.
func embeddedArgs() []string {
	return []string{"--embedded", "--data-dir=" + dataDir, "--companies=" + strconv.Itoa(companies)}
}

// childEnv is the whole environment of a server under test. The server takes
// configuration from the environment (APPSYNC_ENDPOINT, ALLOW_MUTATIONS,
// LOG_FORMAT, RATE_LIMITS, AWS and OIDC settings), so inheriting the
// machine's would make a result depend on where the test runs.
func childEnv() []string {
	return []string{"PATH=" + os.Getenv("PATH"), "HOME=" + homeDir, "TMPDIR=" + os.TempDir()}
}
