package app

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/appsynclocal"
	"github.com/companyintel/mcp-server/appsynclocal/authn"
)

// These tests hold the credential chain mid-flight, at an OIDC issuer that
// answers only when the test lets it, and show what a stdio client sees
// meanwhile: the handshake and the catalogue at once, a tool call that
// waits for the chain and then runs as the identity it chose, and a chain
// that fails after the catalogue was served stopping the server as a
// failed start-up does.

// gatedIssuer is an OIDC issuer whose every request waits for open.
type gatedIssuer struct {
	*authn.Issuer
	arrived chan struct{} // one value per request that reached the gate
	open    chan struct{}
}

func startGatedIssuer(t *testing.T) *gatedIssuer {
	t.Helper()
	g := &gatedIssuer{arrived: make(chan struct{}, 100), open: make(chan struct{})}
	var handler http.Handler
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		g.arrived <- struct{}{}
		<-g.open
		handler.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	iss, err := authn.NewIssuer(authn.IssuerConfig{URL: srv.URL})
	require.NoError(t, err)
	g.Issuer, handler = iss, iss.Handler()
	t.Cleanup(g.release)
	return g
}

// release lets every request through, now and later.
func (g *gatedIssuer) release() {
	select {
	case <-g.open:
	default:
		close(g.open)
	}
}

// answer reads the next line, which must be the answer to id.
func (r *running) answer(id int) map[string]any {
	r.t.Helper()
	require.True(r.t, r.out.Scan(), "no answer to %d: %v; log:\n%s", id, r.out.Err(), r.logs.String())
	var m map[string]any
	require.NoError(r.t, json.Unmarshal(r.out.Bytes(), &m))
	require.EqualValues(r.t, id, m["id"], "%s", r.out.Bytes())
	return m
}

// startGatedStack is a backend that trusts only iss, an issuer held at its
// gate.
func startGatedStack(t *testing.T) (*gatedIssuer, *appsynclocal.Server) {
	t.Helper()
	iss := startGatedIssuer(t)
	srv, err := appsynclocal.Start(appsynclocal.Config{DataDir: t.TempDir(), Companies: 50,
		Authenticators: []appsynclocal.Authenticator{iss.Authenticator()}}, "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { srv.Close() })
	return iss, srv
}

func TestStdioAnswersTheHandshakeWhileTheChainResolvesAndTheCatalogueWaitsForIt(t *testing.T) {
	iss, srv := startGatedStack(t)
	token, err := iss.Mint("alice", time.Hour)
	require.NoError(t, err)

	r := launch(t, []string{"--endpoint", srv.URL()}, map[string]string{"OIDC_ISSUER": iss.URL(), "OIDC_AUDIENCE": authn.DefaultAudience, "OIDC_TOKEN": token})
	<-iss.arrived // the chain's OIDC link is waiting at the issuer

	r.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`)
	assert.Contains(t, r.answer(1), "result")
	r.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	// tools/list waits for what the backend's schema serves, which is asked
	// with the credentials; the handshake did not wait.
	r.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	r.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_collections","arguments":{}}}`)
	assert.NotContains(t, r.logs.String(), startUpLine, "the start-up line names the chain's outcome, which is not known yet")
	iss.release()
	// The two answers come in either order.
	answers := map[float64]map[string]any{}
	for range 2 {
		require.True(t, r.out.Scan(), "log:\n%s", r.logs.String())
		var m map[string]any
		require.NoError(t, json.Unmarshal(r.out.Bytes(), &m))
		answers[m["id"].(float64)] = m
	}
	tools := answers[2]["result"].(map[string]any)["tools"].([]any)
	assert.Len(t, tools, len(catalogueFacts(false)), "the backend has the extension remove_from_collection needs")
	res := answers[3]["result"].(map[string]any)
	assert.NotEqual(t, true, res["isError"], "%v", res)
	<-r.logs.started()
	logs := r.logs.String()
	assert.Contains(t, logs, "auth=oidc")
	assert.Contains(t, logs, "tools=10 ")
	assert.Contains(t, logs, "extension_tools=remove_from_collection")
	assert.Regexp(t, `tool=list_collections.*caller=alice|caller=alice.*tool=list_collections`, logs, "the call ran as the identity the chain chose")
}

func TestStdioChainFailingAfterTheCatalogueStopsTheServer(t *testing.T) {
	iss, srv := startGatedStack(t)
	expired, err := iss.Sign(authn.Claims{Subject: "alice", IssuedAt: time.Now().Add(-2 * time.Hour), Expiry: time.Now().Add(-time.Hour)})
	require.NoError(t, err)

	r := launch(t, []string{"--endpoint", srv.URL()}, map[string]string{"OIDC_ISSUER": iss.URL(), "OIDC_AUDIENCE": authn.DefaultAudience, "OIDC_TOKEN": expired,
		"APPSYNC_API_KEY": srv.Backend().APIKey()}) // a weaker identity that must not be used
	<-iss.arrived
	// The handshake is answered while the chain resolves (tools/list waits
	// for the backend's schema, which is asked with the credentials).
	r.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`)
	assert.Contains(t, r.answer(1), "result")
	r.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_collections","arguments":{}}}`)
	// The ping is read after the call, and answered without the chain: once
	// its answer is here, the call is in flight, waiting for the chain.
	r.send(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	assert.Contains(t, r.answer(3), "result")
	lines := r.collect() // read as a client does, while the server writes
	iss.release()

	// The input stays open: the chain's failure alone stops the server.
	select {
	case err = <-r.done:
		require.Error(t, err)
		assert.True(t, IsMisconfiguration(err), "exit status 2, as a failed start-up: %v", err)
		assert.Contains(t, err.Error(), "oidc")
		assert.NotContains(t, err.Error(), expired)
	case <-time.After(20 * time.Second):
		t.Fatalf("the server kept running with a broken credential chain; log:\n%s", r.logs.String())
	}
	// The waiting call is answered: a tool error in the chain's own words,
	// which the log and the exit carry too, never a success.
	out := <-lines
	require.Len(t, out, 1, "one answer, to the waiting call; log:\n%s", r.logs.String())
	var answer struct {
		ID     int
		Result struct {
			IsError bool
			Content []struct{ Text string }
		}
	}
	require.NoError(t, json.Unmarshal([]byte(out[0]), &answer), "%s", out[0])
	assert.Equal(t, 2, answer.ID)
	assert.True(t, answer.Result.IsError, "%s", out[0])
	require.Len(t, answer.Result.Content, 1)
	text := answer.Result.Content[0].Text
	assert.True(t, strings.HasPrefix(text, "list_collections failed [unauthorized]: the server could not resolve its own credentials"), text)
	assert.Contains(t, text, err.Error(), "the chain's own words")
	assert.Contains(t, text, "restart it", "and what to do")
	assert.NotContains(t, text, expired)
	assert.NotContains(t, r.logs.String(), startUpLine)
	assert.False(t, strings.Contains(r.logs.String(), "tool=list_collections") && strings.Contains(r.logs.String(), "outcome=ok"))
}

// A stdio call awaits the credential chain once: the edge waits for the
// caller before serving the call, and the call's backend requests, which
// can only come after, use the credentials the chain resolved without
// awaiting it again (chainWaits counts the waits).
func TestStdioCallAwaitsTheCredentialChainOnce(t *testing.T) {
	s := newAuthStack(t)
	r, err := start(t, s, map[string]string{"APPSYNC_API_KEY": s.srv.Backend().APIKey()})
	require.NoError(t, err)
	r.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_company","arguments":{"id":"cmp_000001"}}}`)
	r.answer(1) // the first call: the chain's outcome is known by now

	before := chainWaits.Load()
	r.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_companies","arguments":{"query":"software","limit":1}}}`)
	res := r.answer(2)["result"].(map[string]any)
	require.NotEqual(t, true, res["isError"], "%v", res)
	assert.Equal(t, int64(1), chainWaits.Load()-before, "waits for the chain's outcome in one call that reached the backend")
}
