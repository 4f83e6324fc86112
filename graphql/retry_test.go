package graphql_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/appsynclocal"
	"github.com/companyintel/mcp-server/auth"
	"github.com/companyintel/mcp-server/graphql"
	"github.com/companyintel/mcp-server/graphql/mutation"
	"github.com/companyintel/mcp-server/graphql/query"
)

// sleeps records the waits a client asked for, without waiting: no test
// sleeps for real.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.d = append(s.d, d)
	return ctx.Err()
}

func (s *sleeps) all() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.d...)
}

// retryingClient is keyClient with the default policy, its waits recorded
// and its jitter fixed at j.
func retryingClient(url string, timeout time.Duration, j float64) (*graphql.Client, *sleeps) {
	s := &sleeps{}
	c := graphql.NewClient(url, &http.Client{Transport: auth.NewAPIKeySource(testKey, http.DefaultTransport).Transport}, timeout)
	p := graphql.DefaultRetry
	p.Sleep, p.Jitter = s.sleep, func() float64 { return j }
	c.SetRetry(p)
	return c, s
}

func TestReadsAreRetriedOnTransientFailures(t *testing.T) {
	srv := serve(t, appsynclocal.Config{})
	faults := srv.Backend().Faults()
	ctx := context.Background()
	search := func(c *graphql.Client) (*query.CompanyPage, error) {
		return query.NewReader(c).SearchCompanies(ctx, str("robotics"), nil, query.Bounds{}, num(3), nil)
	}

	t.Run("one 502, then the answer", func(t *testing.T) {
		c, s := retryingClient(srv.URL(), 0, 0.5)
		require.NoError(t, faults.Add(appsynclocal.HTTPError(502).ForNext(1)))
		page, err := search(c)
		require.NoError(t, err)
		assert.NotEmpty(t, page.Items)
		assert.Equal(t, []time.Duration{75 * time.Millisecond}, s.all(), "half of the 100 ms base plus half of it jittered")
	})

	t.Run("503 and 504 on every attempt: three tries, growing waits, then the error", func(t *testing.T) {
		c, s := retryingClient(srv.URL(), 0, 0.999)
		require.NoError(t, faults.Add(appsynclocal.HTTPError(503).ForNext(2)))
		require.NoError(t, faults.Add(appsynclocal.HTTPError(504).ForNext(1)))
		_, err := search(c)
		e := asError(t, err)
		assert.Equal(t, 3, e.Attempts)
		assert.Contains(t, e.Error(), "(after 3 attempts)")
		waits := s.all()
		require.Len(t, waits, 2)
		assert.InDelta(t, 100*time.Millisecond, waits[0], float64(time.Millisecond))
		assert.InDelta(t, 200*time.Millisecond, waits[1], float64(time.Millisecond))
	})

	t.Run("throttled with a Retry-After that fits the deadline", func(t *testing.T) {
		c, s := retryingClient(srv.URL(), 15*time.Second, 0)
		require.NoError(t, faults.Add(appsynclocal.Throttle(2*time.Second).ForNext(1)))
		_, err := search(c)
		require.NoError(t, err)
		assert.Equal(t, []time.Duration{2 * time.Second}, s.all(), "the backend's wait, not the backoff's")
	})

	t.Run("throttled with a Retry-After past the deadline is answered at once", func(t *testing.T) {
		c, s := retryingClient(srv.URL(), 15*time.Second, 0)
		require.NoError(t, faults.Add(appsynclocal.Throttle(10*time.Second).ForNext(1)))
		_, err := search(c)
		e := asError(t, err)
		assert.Equal(t, http.StatusTooManyRequests, e.StatusCode)
		assert.Equal(t, 10*time.Second, e.RetryAfter, "the caller learns how long to wait")
		assert.Empty(t, s.all())
	})

	t.Run("answers that another attempt would repeat are not retried", func(t *testing.T) {
		c, s := retryingClient(srv.URL(), 0, 0)
		require.NoError(t, faults.Add(appsynclocal.Malformed().ForNext(1)))
		_, err := search(c)
		asError(t, err)
		_, err = query.NewReader(c).SearchCompanies(ctx, nil, nil, query.Bounds{}, num(101), nil) // BadRequestException
		asError(t, err)
		assert.Empty(t, s.all())
	})

	assert.Empty(t, faults.List(), "every fault was used up")
}

func TestWritesAreRetriedOnlyWhenIdempotent(t *testing.T) {
	srv := serve(t, appsynclocal.Config{})
	faults := srv.Backend().Faults()
	ctx := context.Background()
	s := &sleeps{}
	c := userClient(srv.URL(), "erin")
	p := graphql.DefaultRetry
	p.Sleep = s.sleep
	c.SetRetry(p)
	w := mutation.NewWriter(c)

	require.NoError(t, faults.Add(appsynclocal.HTTPError(502).For("CreateCollection").ForNext(1)))
	created, err := w.CreateCollection(ctx, "retried", nil)
	require.NoError(t, err, "a collection is created once per name: sending it again is safe")
	assert.Len(t, s.all(), 1)

	require.NoError(t, faults.Add(appsynclocal.HTTPError(502).For("AddToCollection").ForNext(1)))
	_, err = w.AddToCollection(ctx, created.Collection.Id, []string{"cmp_000001"})
	require.NoError(t, err, "adding a company twice changes nothing")
	assert.Len(t, s.all(), 2)

	require.NoError(t, faults.Add(appsynclocal.HTTPError(502).For("RequestEmailDiscovery").ForNext(1)))
	_, err = w.RequestEmailDiscovery(ctx, "cmp_000001", nil)
	e := asError(t, err)
	assert.Equal(t, http.StatusBadGateway, e.StatusCode, "each call starts a job: never sent twice")
	assert.Zero(t, e.Attempts)
	assert.Len(t, s.all(), 2)
}

// TestConnectionResetIsRetriedRefusedIsNot: a connection a load balancer
// drops mid-answer is worth another try; a port nobody listens on is not.
func TestConnectionResetIsRetriedRefusedIsNot(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			conn, _, err := w.(http.Hijacker).Hijack()
			require.NoError(t, err)
			conn.(*net.TCPConn).SetLinger(0) // RST, not FIN
			conn.Close()
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"data":{"getCompany":null}}`))
	}))
	defer srv.Close()
	c, s := retryingClient(srv.URL+"/graphql", 0, 0)
	got, err := query.NewReader(c).GetCompany(context.Background(), "cmp_1")
	require.NoError(t, err)
	assert.Nil(t, got)
	assert.EqualValues(t, 2, calls.Load())
	assert.Len(t, s.all(), 1)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closed := "http://" + ln.Addr().String() + "/graphql"
	require.NoError(t, ln.Close())
	c, s = retryingClient(closed, 0, 0)
	_, err = query.NewReader(c).GetCompany(context.Background(), "cmp_1")
	assert.Equal(t, graphql.KindUnreachable, asError(t, err).Kind)
	assert.Empty(t, s.all())
}
