package appsynclocal_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/appsynclocal"
)

const searchOp = `query SearchCompanies { searchCompanies(limit: 2) { total items { id website } } }`

func TestHTTPFaults(t *testing.T) {
	srv := start(t, appsynclocal.Config{})
	f := srv.Backend().Faults()

	require.NoError(t, f.Add(appsynclocal.HTTPError(502).ForNext(1)))
	a := asKey(t, srv.URL(), searchOp)
	assert.Equal(t, 502, a.Status)
	assert.Contains(t, a.Raw, "502 Bad Gateway")
	assert.Equal(t, "text/html", a.Header.Get("Content-Type"))

	require.NoError(t, f.Add(appsynclocal.HTTPError(503).ForNext(1)))
	a = asKey(t, srv.URL(), searchOp)
	assert.Equal(t, 503, a.Status)
	require.Len(t, a.Errors, 1)
	assert.Equal(t, "ServiceUnavailableException", a.Errors[0].ErrorType)

	a = asKey(t, srv.URL(), searchOp)
	assert.Equal(t, 200, a.Status, "ForNext(1) faults are used up")
}

func TestThrottleFault(t *testing.T) {
	srv := start(t, appsynclocal.Config{})
	require.NoError(t, srv.Backend().Faults().Add(appsynclocal.Throttle(1500*time.Millisecond)))
	a := asKey(t, srv.URL(), searchOp)
	assert.Equal(t, http.StatusTooManyRequests, a.Status)
	assert.Equal(t, "2", a.Header.Get("Retry-After"), "whole seconds, rounded up")
	assert.JSONEq(t, `{"errors":[{"errorType":"LimitExceededError","message":"Rate exceeded"}]}`, a.Raw)
}

func TestMalformedFault(t *testing.T) {
	srv := start(t, appsynclocal.Config{})
	require.NoError(t, srv.Backend().Faults().Add(appsynclocal.Malformed()))
	a := asKey(t, srv.URL(), searchOp)
	assert.Equal(t, http.StatusOK, a.Status)
	assert.True(t, strings.HasPrefix(a.Raw, `{"data":{"searchCompanies":`), a.Raw)
	assert.False(t, json.Valid([]byte(a.Raw)))
}

func TestPartialFaultFailsOneFieldAndKeepsTheRest(t *testing.T) {
	srv := start(t, appsynclocal.Config{})
	f := srv.Backend().Faults()
	require.NoError(t, f.Add(appsynclocal.PartialError("")))
	a := asKey(t, srv.URL(), searchOp)
	assert.Equal(t, http.StatusOK, a.Status)
	require.Len(t, a.Errors, 1)
	assert.Equal(t, "Lambda:Unhandled", a.Errors[0].ErrorType)
	assert.Equal(t, []any{"searchCompanies", "items", 0.0, "website"}, a.Errors[0].Path)
	var data struct {
		SearchCompanies struct {
			Total int
			Items []struct {
				ID      string
				Website *string
			}
		}
	}
	require.NoError(t, json.Unmarshal(a.Data, &data))
	assert.Equal(t, testCompanies, data.SearchCompanies.Total)
	require.Len(t, data.SearchCompanies.Items, 2)
	assert.Nil(t, data.SearchCompanies.Items[0].Website)
	assert.NotNil(t, data.SearchCompanies.Items[1].Website)

	f.Clear()
	require.NoError(t, f.Add(appsynclocal.PartialError("Company.id")))
	a = asKey(t, srv.URL(), `{ getCompany(id: "cmp_000003") { id name } }`)
	require.Len(t, a.Errors, 1)
	assert.Equal(t, []any{"getCompany", "id"}, a.Errors[0].Path)
	assert.JSONEq(t, `{"getCompany":null}`, string(a.Data), "a non-null field's null reaches its nullable parent")

	f.Clear()
	require.NoError(t, f.Add(appsynclocal.PartialError("")))
	a = asKey(t, srv.URL(), `{ searchCompanies(limit: 1) { total } }`)
	require.Len(t, a.Errors, 1, "with no nullable field to fail, the error goes on the root field")
	assert.Equal(t, []any{"searchCompanies"}, a.Errors[0].Path)
	assert.JSONEq(t, `{"searchCompanies":{"total":2000}}`, string(a.Data))
}

func TestLatencyFaultDelaysAndStopsWhenTheCallerLeaves(t *testing.T) {
	srv := start(t, appsynclocal.Config{})
	require.NoError(t, srv.Backend().Faults().Add(appsynclocal.Latency(time.Minute)))
	client := &http.Client{Timeout: 100 * time.Millisecond}
	req, _ := http.NewRequest(http.MethodPost, srv.URL(), strings.NewReader(`{"query":"{ filterVocabulary { countries { value } } }"}`))
	req.Header.Set("x-api-key", testKey)
	_, err := client.Do(req)
	require.Error(t, err)
	// Close (in cleanup) must not wait the minute out.
}

func TestFaultsScopedByOperationAndCount(t *testing.T) {
	srv := start(t, appsynclocal.Config{})
	f := srv.Backend().Faults()
	require.NoError(t, f.Add(appsynclocal.HTTPError(500).For("SearchCompanies").ForNext(2)))

	assert.Equal(t, 200, asKey(t, srv.URL(), `query GetCompany { getCompany(id: "cmp_000001") { id } }`).Status)
	assert.Equal(t, 500, asKey(t, srv.URL(), searchOp).Status)
	require.Len(t, f.List(), 1)
	assert.Equal(t, 1, f.List()[0].Next, "one use left")
	// An unnamed operation is matched by its only operation's name.
	assert.Equal(t, 500, asKey(t, srv.URL(), `query SearchCompanies { searchCompanies { total } }`).Status)
	assert.Empty(t, f.List())
	assert.Equal(t, 200, asKey(t, srv.URL(), searchOp).Status)
}

func TestFaultValidation(t *testing.T) {
	f := &appsynclocal.Faults{}
	for _, bad := range []appsynclocal.Fault{
		{Kind: "explode"},
		appsynclocal.HTTPError(200),
		appsynclocal.Latency(0),
		appsynclocal.PartialError("description"),
		appsynclocal.Malformed().ForNext(-1),
	} {
		assert.Error(t, f.Add(bad), bad.String())
	}
	assert.Empty(t, f.List())
}

func TestParseFaultRoundTrips(t *testing.T) {
	for _, spec := range []string{
		"latency=250ms", "http=502,op=SearchCompanies", "throttle=2s,next=3", "malformed", "partial=Company.description,op=GetCompany,next=1",
	} {
		f, err := appsynclocal.ParseFault(spec)
		require.NoError(t, err, spec)
		assert.Equal(t, spec, f.String())
	}
	f, err := appsynclocal.ParseFault("throttle")
	require.NoError(t, err)
	assert.Equal(t, time.Second, f.RetryAfter)
	for _, bad := range []string{"latency=soon", "http=abc", "http=302", "malformed=1", "throttle,op", "throttle,color=red", "nothing"} {
		_, err := appsynclocal.ParseFault(bad)
		assert.Error(t, err, bad)
	}
}

func TestAdminEndpoint(t *testing.T) {
	srv := start(t, appsynclocal.Config{})
	admin := strings.TrimSuffix(srv.URL(), "/graphql") + "/__faults"
	do := func(method, body string) (int, string) {
		req, _ := http.NewRequest(method, admin, strings.NewReader(body))
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}

	status, body := do(http.MethodPost, `{"kind":"throttle","retryAfter":"3s","operation":"SearchCompanies","next":1}`)
	assert.Equal(t, 200, status, body)
	status, body = do(http.MethodPost, "latency=5ms,op=GetCompany")
	assert.Equal(t, 200, status, body)
	assert.JSONEq(t, `{"faults":[
		{"kind":"throttle","operation":"SearchCompanies","next":1,"retryAfter":"3s","spec":"throttle=3s,op=SearchCompanies,next=1"},
		{"kind":"latency","operation":"GetCompany","latency":"5ms","spec":"latency=5ms,op=GetCompany"}]}`, body)

	a := asKey(t, srv.URL(), searchOp)
	assert.Equal(t, 429, a.Status)
	assert.Equal(t, "3", a.Header.Get("Retry-After"))

	status, body = do(http.MethodPost, "http=99")
	assert.Equal(t, 400, status)
	assert.Contains(t, body, "status must be an HTTP error status")

	status, _ = do(http.MethodDelete, "")
	assert.Equal(t, 200, status)
	_, body = do(http.MethodGet, "")
	assert.JSONEq(t, `{"faults":[]}`, body)

	status, _ = do(http.MethodPut, "")
	assert.Equal(t, http.StatusMethodNotAllowed, status)
}

func TestAdminEndpointRefusesRemoteCallers(t *testing.T) {
	srv := start(t, appsynclocal.Config{})
	req := httptest.NewRequest(http.MethodPost, "/__faults", strings.NewReader("malformed"))
	req.RemoteAddr = "192.0.2.7:40000"
	rec := httptest.NewRecorder()
	srv.Backend().Handler().ServeHTTP(rec, req)
	assert.Equal(t, http.StatusForbidden, rec.Code)
	assert.Empty(t, srv.Backend().Faults().List())
}
