package appsynclocal_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/appsynclocal"
)

// testCompanies keeps the data set small: tests need every filter to match
// something, not volume.
const testCompanies = 2000

// testKey is the API key test backends accept.
const testKey = "da2-testkeytestkeytestkeytest"

// baseDir holds a data set built once per test binary; each backend gets a
// copy, so no test sees another's collections.
var baseDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "appsynclocal-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	baseDir = dir
	b, err := appsynclocal.New(appsynclocal.Config{DataDir: dir, Companies: testCompanies})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	b.Close()
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// start serves a backend over a fresh copy of the test data set on a
// loopback port. Unset fields of cfg get test defaults, including a
// StaticAuthenticator so requests can act as a user via x-test-user.
func start(t *testing.T, cfg appsynclocal.Config) *appsynclocal.Server {
	t.Helper()
	if cfg.DataDir == "" {
		cfg.DataDir = t.TempDir()
		name := fmt.Sprintf("companies-%d-1.db", testCompanies)
		src, err := os.ReadFile(filepath.Join(baseDir, name))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(cfg.DataDir, name), src, 0o644))
	}
	if cfg.Companies == 0 {
		cfg.Companies = testCompanies
	}
	if cfg.APIKey == "" {
		cfg.APIKey = testKey
	}
	if cfg.Authenticators == nil {
		cfg.Authenticators = []appsynclocal.Authenticator{appsynclocal.StaticAuthenticator{}}
	}
	srv, err := appsynclocal.Start(cfg, "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, srv.Close()) })
	return srv
}

// answer is a raw HTTP answer, decoded loosely.
type answer struct {
	Status int
	Header http.Header
	Raw    string
	Data   json.RawMessage `json:"data"`
	Errors []struct {
		ErrorType  string         `json:"errorType"`
		Message    string         `json:"message"`
		Path       []any          `json:"path"`
		Locations  []any          `json:"locations"`
		Extensions map[string]any `json:"extensions"`
	} `json:"errors"`
}

// post sends a GraphQL request with the given headers and decodes the answer
// without judging it.
func post(t *testing.T, url, query string, headers ...string) answer {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query})
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	require.NoError(t, err)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	a := answer{Status: resp.StatusCode, Header: resp.Header, Raw: string(raw)}
	json.Unmarshal(raw, &a) // malformed bodies are a case under test
	return a
}

// asKey posts with the test API key.
func asKey(t *testing.T, url, query string) answer {
	t.Helper()
	return post(t, url, query, "x-api-key", testKey)
}

// asUser posts as a user, through the StaticAuthenticator.
func asUser(t *testing.T, url, user, query string) answer {
	t.Helper()
	return post(t, url, query, "x-test-user", user)
}

// clock is a settable time source.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func newClock() *clock { return &clock{now: time.Date(2026, 11, 30, 2, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}
