package graphql_test

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/companyintel/mcp-server/appsynclocal"
	"github.com/companyintel/mcp-server/auth"
	"github.com/companyintel/mcp-server/graphql"
	"github.com/companyintel/mcp-server/graphql/query"
)

// sentHeaders records the traceparent header of every request as it leaves
// for the backend, below the credentials.
type sentHeaders struct {
	mu   sync.Mutex
	seen []string
}

func (s *sentHeaders) RoundTrip(r *http.Request) (*http.Response, error) {
	s.mu.Lock()
	s.seen = append(s.seen, r.Header.Get("traceparent"))
	s.mu.Unlock()
	return http.DefaultTransport.RoundTrip(r)
}

func (s *sentHeaders) all() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.seen...)
}

// tracedClient is a client of url whose requests are spans kept in memory.
func tracedClient(t *testing.T, url, key string) (*graphql.Client, *tracetest.SpanRecorder, *sentHeaders, trace.Tracer) {
	t.Helper()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	sent := &sentHeaders{}
	c := graphql.NewClient(url, &http.Client{Transport: auth.NewAPIKeySource(key, sent).Transport}, 5*time.Second)
	c.SetTracer(tp.Tracer("test"))
	return c, rec, sent, tp.Tracer("test")
}

func spanAttrs(s sdktrace.ReadOnlySpan) map[string]string {
	m := map[string]string{}
	for _, kv := range s.Attributes() {
		m[string(kv.Key)] = kv.Value.String()
	}
	return m
}

func TestEachBackendRequestIsAClientSpanWhoseContextTheBackendReceives(t *testing.T) {
	srv := serve(t, appsynclocal.Config{})
	c, rec, sent, tracer := tracedClient(t, srv.URL(), testKey)
	c.SetRetry(graphql.NoRetry)

	ctx, parent := tracer.Start(context.Background(), "tools/call search_companies")
	_, err := query.NewReader(c).SearchCompanies(ctx, str("robotics"), nil, query.Bounds{}, num(3), nil)
	parent.End()
	require.NoError(t, err)

	ended := rec.Ended()
	require.Len(t, ended, 2)
	s := ended[0]
	assert.Equal(t, "query SearchCompanies", s.Name())
	assert.Equal(t, trace.SpanKindClient, s.SpanKind())
	assert.Equal(t, parent.SpanContext().SpanID(), s.Parent().SpanID(), "child of the MCP request's span")
	a := spanAttrs(s)
	assert.Equal(t, "SearchCompanies", a["graphql.operation.name"])
	assert.Equal(t, "query", a["graphql.operation.type"])
	assert.Equal(t, "POST", a["http.request.method"])
	assert.Equal(t, "200", a["http.response.status_code"])
	assert.Equal(t, "127.0.0.1", a["server.address"])
	assert.NotContains(t, a, "error.type")
	for k, v := range a {
		assert.NotContains(t, v, "robotics", "attribute %s carries a variable", k)
	}
	assert.Equal(t, []string{"00-" + s.SpanContext().TraceID().String() + "-" + s.SpanContext().SpanID().String() + "-01"}, sent.all())
}

func TestARetriedRequestIsOneSpanPerAttempt(t *testing.T) {
	srv := serve(t, appsynclocal.Config{})
	require.NoError(t, srv.Backend().Faults().Add(appsynclocal.HTTPError(503).ForNext(1)))
	c, rec, sent, _ := tracedClient(t, srv.URL(), testKey)
	p := graphql.DefaultRetry
	p.Sleep = func(ctx context.Context, _ time.Duration) error { return ctx.Err() }
	c.SetRetry(p)

	_, err := query.NewReader(c).SearchCompanies(context.Background(), str("robotics"), nil, query.Bounds{}, num(3), nil)
	require.NoError(t, err)
	ended := rec.Ended()
	require.Len(t, ended, 2)
	first, second := spanAttrs(ended[0]), spanAttrs(ended[1])
	assert.Equal(t, "503", first["http.response.status_code"])
	assert.Equal(t, "ServiceUnavailableException", first["error.type"], "AppSync's errorType, more telling than the status")
	assert.Equal(t, codes.Error, ended[0].Status().Code)
	assert.Equal(t, "200", second["http.response.status_code"])
	assert.Equal(t, "1", second["http.request.resend_count"])
	assert.Equal(t, codes.Unset, ended[1].Status().Code)
	require.Len(t, sent.all(), 2)
	assert.NotEqual(t, sent.all()[0], sent.all()[1], "each attempt sends its own span")
}

func TestAppSyncsErrorTypeIsOnTheSpan(t *testing.T) {
	srv := serve(t, appsynclocal.Config{})
	c, rec, _, _ := tracedClient(t, srv.URL(), "da2-wrongkey000000000000000000")
	c.SetRetry(graphql.NoRetry)
	_, err := query.NewReader(c).SearchCompanies(context.Background(), str("robotics"), nil, query.Bounds{}, num(3), nil)
	require.Error(t, err)
	ended := rec.Ended()
	require.Len(t, ended, 1)
	a := spanAttrs(ended[0])
	assert.Equal(t, strconv.Itoa(http.StatusUnauthorized), a["http.response.status_code"])
	assert.Equal(t, "UnauthorizedException", a[graphql.AppSyncErrorTypeKey])
	assert.Equal(t, "UnauthorizedException", a["error.type"])
	assert.Equal(t, codes.Error, ended[0].Status().Code)
}

func TestWithoutATracerNothingIsSentOrRecorded(t *testing.T) {
	srv := serve(t, appsynclocal.Config{})
	sent := &sentHeaders{}
	c := graphql.NewClient(srv.URL(), &http.Client{Transport: auth.NewAPIKeySource(testKey, sent).Transport}, 5*time.Second)
	_, err := query.NewReader(c).SearchCompanies(context.Background(), str("robotics"), nil, query.Bounds{}, num(3), nil)
	require.NoError(t, err)
	assert.Equal(t, []string{""}, sent.all())
}
