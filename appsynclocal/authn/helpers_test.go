package authn_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/companyintel/mcp-server/appsynclocal"
	"github.com/companyintel/mcp-server/appsynclocal/authn/authntest"
	"github.com/stretchr/testify/require"
)

// clock is a settable time source for expiry and skew checks.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 11, 30, 2, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// backend serves authntest.Handler over real HTTP.
func backend(t *testing.T, auths ...appsynclocal.Authenticator) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(authntest.Handler(auths...))
	t.Cleanup(srv.Close)
	return srv
}

// answer is what a call to the backend returned.
type answer struct {
	status  int
	method  string
	subject string
	message string
}

// call posts the whoami query with the header set by edit.
func call(t *testing.T, url string, edit func(*http.Request)) answer {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"query": authntest.WhoamiQuery})
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	if edit != nil {
		edit(req)
	}
	return do(t, req)
}

func do(t *testing.T, req *http.Request) answer {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var out struct {
		Data   *authntest.Whoami `json:"data"`
		Errors []struct {
			ErrorType string `json:"errorType"`
			Message   string `json:"message"`
		} `json:"errors"`
	}
	require.NoError(t, json.Unmarshal(raw, &out), string(raw))
	a := answer{status: resp.StatusCode}
	if out.Data != nil {
		a.method, a.subject = out.Data.Whoami.Method, out.Data.Whoami.Subject
	}
	if len(out.Errors) > 0 {
		require.Equal(t, "UnauthorizedException", out.Errors[0].ErrorType)
		a.message = out.Errors[0].Message
	}
	return a
}

// replaceInBody changes the body of a request that is already signed.
// GetBody changes too: the transport may rewind the body and resend it.
func replaceInBody(t *testing.T, r *http.Request, from, to string) {
	t.Helper()
	b, err := io.ReadAll(r.Body)
	require.NoError(t, err)
	changed := strings.Replace(string(b), from, to, 1)
	require.NotEqual(t, string(b), changed)
	r.Body = io.NopCloser(strings.NewReader(changed))
	r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(changed)), nil }
	r.ContentLength = int64(len(changed))
}
