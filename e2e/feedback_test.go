package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/internal/ops/telemetry/otlptest"
)

// TestFeedbackToolIsOptInAndNeverCallsTheBackend: without --feedback-tool
// the start-up line says tools=10 and report_missing_capability is unknown;
// with it, tools=11, the tool answers, its report is one "missing
// capability" record naming the caller, what was wanted, the tools tried and
// the context sentence, and the backend receives no request for it — a
// counting backend, which does see the search made as a control.
func TestFeedbackToolIsOptInAndNeverCallsTheBackend(t *testing.T) {
	var requests atomic.Int64
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"data":null,"errors":[{"errorType":"TestBackend","message":"the counting backend answers nothing"}]}`))
	}))
	defer backend.Close()
	// The operator says the backend has the schema extensions: this one
	// answers nothing, so start-up could not learn it.
	args := []string{"--endpoint", backend.URL + "/graphql", "--schema-extensions", "on"}
	env := []string{"APPSYNC_API_KEY=da2-e2efeedbackkey00000000"}
	rev := revisions[len(revisions)-1]

	t.Run("off by default", func(t *testing.T) {
		ctx := testContext(t)
		s := startSessionWith(t, ctx, serverBin, rev, args, env)
		startup := waitForStartup(t, ctx, s)
		assert.Equal(t, "10", startup["tools"])
		s.callError(t, ctx, "report_missing_capability", map[string]any{"wanted": "x"})
	})

	t.Run("on", func(t *testing.T) {
		ctx := testContext(t)
		s := startSessionWith(t, ctx, serverBin, rev, append(args, "--feedback-tool"), env)
		startup := waitForStartup(t, ctx, s)
		assert.Equal(t, "11", startup["tools"])

		before := requests.Load()
		out := decodeOK[struct {
			Recorded bool   `json:"recorded"`
			Note     string `json:"note"`
		}](t, s.call(t, ctx, "report_missing_capability", map[string]any{
			"wanted":  "companies' annual revenue, to rank prospects",
			"tried":   []string{"search_companies", "get_company"},
			"context": "prepare the Berlin prospect list",
		}))
		assert.True(t, out.Recorded)
		assert.Contains(t, out.Note, "adds no capability")
		reports := waitForRecords(t, ctx, s, "missing capability", 1)
		assert.Equal(t, before, requests.Load(), "the report reached the backend")

		r := reports[0]
		assert.Equal(t, "INFO", r["level"])
		assert.Equal(t, "report_missing_capability", r["tool"])
		assert.Equal(t, "companies' annual revenue, to rank prospects", r["wanted"])
		assert.Equal(t, "search_companies,get_company", r["tried"])
		assert.Equal(t, "prepare the Berlin prospect list", r["context"])
		assert.Equal(t, "apikey", r["auth"])
		assert.NotEmpty(t, r["caller"])
		call := waitForToolCalls(t, ctx, s, "report_missing_capability", 1)[0]
		assert.Equal(t, "ok", call["outcome"])

		e, _ := decodeFailure(t, s.call(t, ctx, "report_missing_capability", map[string]any{"wanted": strings.Repeat("w", 501)}))
		assert.Equal(t, "invalid_arguments", e.Code, "wanted is bounded")

		// The control: a search does reach this backend.
		s.call(t, ctx, "search_companies", map[string]any{"query": "robotics"})
		assert.Greater(t, requests.Load(), before, "the counting backend saw no search: it counts nothing")
	})
}

// waitForStartup waits for the start-up line and returns it.
func waitForStartup(t *testing.T, ctx context.Context, s *session) record {
	t.Helper()
	return waitForRecords(t, ctx, s, "starting mcp-server", 1)[0]
}

// waitForRecords waits until the text log holds n records with msg and
// returns them.
func waitForRecords(t *testing.T, ctx context.Context, s *session, msg string, n int) []record {
	t.Helper()
	var got []record
	waitFor(t, ctx, s.stderr, fmt.Sprintf("%d %q record(s) on stderr", n, msg), func() bool {
		got = nil
		for _, r := range textRecords(t, s.stderr) {
			if r["msg"] == msg {
				got = append(got, r)
			}
		}
		return len(got) >= n
	})
	return got
}

// TestFeedbackReportIsASpanEvent: with tracing on, a report is an event on
// its call's server span, exported with the number of tools tried and no
// argument value; the report's record carries the same trace id.
func TestFeedbackReportIsASpanEvent(t *testing.T) {
	ctx := testContext(t)
	recv := otlptest.Start(t)
	r := startRawWith(t, ctx, []string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + recv.URL}, "--feedback-tool")
	r.initialize(t, ctx)
	const wanted = "quarterly revenue by region"
	r.send(t, map[string]any{"id": 2, "method": "tools/call", "params": map[string]any{
		"name": "report_missing_capability", "arguments": map[string]any{"wanted": wanted, "tried": []string{"search_companies", "ai_search"}},
		"_meta": map[string]any{"traceparent": traceparent(clientTrace, clientSpan)},
	}})
	res := r.response(t, ctx, 2)
	require.Nil(t, res.Error, "tools/call: %+v", res.Error)
	require.NoError(t, r.stdin.Close())
	require.Equal(t, 0, r.wait(t, ctx, "end of input"))

	spans := otlptest.Find(recv.Spans(), "tools/call report_missing_capability")
	require.Len(t, spans, 1, "the call's server span")
	span := spans[0]
	assert.Equal(t, clientTrace, span.TraceID)
	require.Len(t, span.Events, 1, "%+v", span.Events)
	assert.Equal(t, "io.companyintel.missing_capability", span.Events[0].Name)
	assert.Equal(t, map[string]string{"io.companyintel.feedback.tried_count": "2"}, span.Events[0].Attributes)
	for k, v := range span.Attributes {
		assert.NotContains(t, v, wanted, "attribute %s carries an argument value", k)
	}

	var report string
	for _, line := range strings.Split(r.stderr.String(), "\n") {
		if strings.Contains(line, `msg="missing capability"`) {
			report = line
		}
	}
	require.NotEmpty(t, report, r.stderr.String())
	assert.Equal(t, clientTrace, field(report, "trace_id"), "the record and the span correlate")
}
