package tools_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/graphql"
	"github.com/companyintel/mcp-server/ratelimit"
	"github.com/companyintel/mcp-server/ratelimit/redistest"
	"github.com/companyintel/mcp-server/tools"
	"github.com/companyintel/mcp-server/tools/tooltest"
)

type echoIn struct {
	Query string   `json:"query" desc:"what to echo" max:"50"`
	IDs   []string `json:"ids,omitempty" desc:"ids" max:"3"`
	Limit int      `json:"limit,omitempty" desc:"how many" min:"1" max:"10" default:"4"`
	Exact bool     `json:"exact,omitempty" desc:"exact match"`
}

type echoOut struct {
	Query string   `json:"query"`
	IDs   []string `json:"ids"`
	Limit int      `json:"limit"`
	Exact bool     `json:"exact"`
}

func echoTool(run func(context.Context, echoIn) (echoOut, error)) tools.Tool {
	if run == nil {
		run = func(_ context.Context, in echoIn) (echoOut, error) {
			return echoOut(in), nil
		}
	}
	return tools.New(tools.Spec[echoIn, echoOut]{Facts: tools.Facts{Name: "echo", Kind: tools.Read}, Description: "echoes", Run: run})
}

func TestArgumentsAreCoercedWhereNothingIsLost(t *testing.T) {
	tests := []struct {
		args string
		want echoOut
	}{
		{`{"query":"a"}`, echoOut{Query: "a", Limit: 4}},
		{`{"query":"a","limit":"7","exact":"true"}`, echoOut{Query: "a", Limit: 7, Exact: true}},
		{`{"query":"a","limit":7.0}`, echoOut{Query: "a", Limit: 7}},
		{`{"query":"a","ids":"[\"x\",\"y\"]"}`, echoOut{Query: "a", IDs: []string{"x", "y"}, Limit: 4}},
		{`{"query":"a","ids":"x"}`, echoOut{Query: "a", IDs: []string{"x"}, Limit: 4}},
		{`{"query":"a","limit":null,"context":"find leads"}`, echoOut{Query: "a", Limit: 4}},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			res, _ := tooltest.Call(t, echoTool(nil), tt.args)
			require.False(t, res.IsError, tooltest.Text(t, res))
			var got echoOut
			require.NoError(t, json.Unmarshal([]byte(tooltest.Text(t, res)), &got))
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestAnswersAreNotHTMLEscaped(t *testing.T) {
	res, _ := tooltest.Call(t, echoTool(nil), `{"query":"R&D <labs>"}`)
	require.False(t, res.IsError, tooltest.Text(t, res))
	text := tooltest.Text(t, res)
	assert.Contains(t, text, `"query":"R&D <labs>"`)
	assert.NotContains(t, text, `\u0026`)
	var fromText map[string]any
	require.NoError(t, json.Unmarshal([]byte(text), &fromText))
	assert.Equal(t, tooltest.Structured(t, res), fromText, "both renderings are the same JSON")
}

func TestEveryBadFieldIsNamedAtOnce(t *testing.T) {
	res, _ := tooltest.Call(t, echoTool(nil), `{"limit":11,"ids":["a","b","c","d"],"exact":3,"colour":"red"}`)
	require.True(t, res.IsError)
	text := tooltest.Text(t, res)
	for _, want := range []string{
		"echo failed [invalid_arguments]",
		"query: required: a non-empty string of at most 50 characters",
		"limit: expected an integer from 1 to 10, got 11",
		"ids: at most 3 ids per call, got 4",
		"exact: expected true or false, got the number 3",
		"colour: unknown argument; valid arguments are context, exact, ids, limit, query",
	} {
		assert.Contains(t, text, want)
	}
	fields := tooltest.ErrorDetails(t, res)["fields"].([]any)
	assert.Len(t, fields, 5)
}

func TestArgumentsThatAreNotAnObject(t *testing.T) {
	res, _ := tooltest.Call(t, echoTool(nil), `["a"]`)
	assert.Equal(t, "invalid_arguments", tooltest.ErrorCode(t, res))
}

func TestRateLimitRefusalSaysWhenToRetry(t *testing.T) {
	now := time.Unix(1000, 0)
	lim := ratelimit.New(map[string]ratelimit.Limit{"echo": {Count: 2, Period: time.Minute}},
		ratelimit.WithClock(func() time.Time { return now }))
	var logs bytes.Buffer
	rt := &tools.Runtime{Logger: slog.New(slog.NewJSONHandler(&logs, nil)), Limiter: lim}
	tool := echoTool(nil)

	for range 2 {
		require.False(t, tooltest.CallWith(t, rt, tool, `{"query":"a"}`).IsError)
	}
	res := tooltest.CallWith(t, rt, tool, `{"query":"a"}`)
	require.True(t, res.IsError)
	e := tooltest.ErrorDetails(t, res)
	assert.Equal(t, "rate_limited", e["code"])
	assert.EqualValues(t, 30, e["retry_after_s"])
	assert.Equal(t, true, e["retryable"])
	assert.Contains(t, tooltest.Text(t, res), "2 per minute")
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	require.Len(t, lines, 3, "one record per call")
	var rec map[string]any
	require.NoError(t, json.Unmarshal([]byte(lines[2]), &rec))
	assert.Equal(t, "WARN", rec["level"], "a refusal the caller caused")
	assert.Equal(t, "rate_limited", rec["outcome"])
	assert.Equal(t, "rate_limited", rec["error_class"])
	assert.NotContains(t, rec, "result_bytes")

	// A bad call is refused before the limiter, so it spends nothing.
	now = now.Add(30 * time.Second)
	require.Equal(t, "invalid_arguments", tooltest.ErrorCode(t, tooltest.CallWith(t, rt, tool, `{}`)))
	require.False(t, tooltest.CallWith(t, rt, tool, `{"query":"a"}`).IsError, "the refill was spent by an invalid call")
}

func TestLimitStoreDownRefusesLimitedToolsOnly(t *testing.T) {
	srv := redistest.Start(t)
	ro, err := ratelimit.ParseRedisURL(srv.URL())
	require.NoError(t, err)
	lim := ratelimit.NewRedis(ro, map[string]ratelimit.Limit{"echo": {Count: 5, Period: time.Minute}},
		ratelimit.WithLogger(slog.New(slog.DiscardHandler)))
	t.Cleanup(func() { _ = lim.Close() })
	rt := &tools.Runtime{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Limiter: lim}
	ran := 0
	limited := echoTool(func(_ context.Context, in echoIn) (echoOut, error) { ran++; return echoOut(in), nil })
	srv.Kill()

	res := tooltest.CallWith(t, rt, limited, `{"query":"a"}`)
	require.True(t, res.IsError)
	assert.Zero(t, ran, "never served unlimited")
	e := tooltest.ErrorDetails(t, res)
	assert.Equal(t, "limit_store_unavailable", e["code"])
	assert.Equal(t, true, e["retryable"])
	assert.EqualValues(t, 5, e["retry_after_s"])
	assert.Equal(t, "echo failed [limit_store_unavailable]: the rate-limit store is unavailable: "+
		"Redis refused the connection. echo has a rate limit of 5 per minute per caller, "+
		"so it is refused rather than served unlimited; retry after 5 s. Tools without a limit still work",
		tooltest.Text(t, res))

	unlimited := tools.New(tools.Spec[echoIn, echoOut]{Facts: tools.Facts{Name: "other", Kind: tools.Read}, Description: "echoes",
		Run: func(_ context.Context, in echoIn) (echoOut, error) { return echoOut(in), nil }})
	assert.False(t, tooltest.CallWith(t, rt, unlimited, `{"query":"a"}`).IsError, "a tool without a limit never asks the store")
}

func TestAuditRecordHasShapeNotValues(t *testing.T) {
	secretQuery := "acme-confidential-deal"
	res, logs := tooltest.Call(t, echoTool(nil), `{"query":"`+secretQuery+`","ids":["cmp_secret_1"],"context":"prepare the board meeting"}`)
	require.False(t, res.IsError)

	var rec map[string]any
	require.NoError(t, json.Unmarshal([]byte(strings.TrimSpace(logs)), &rec), "exactly one JSON record: %s", logs)
	assert.Equal(t, "tool call", rec["msg"])
	assert.Equal(t, "INFO", rec["level"])
	assert.Equal(t, "echo", rec["tool"])
	assert.Equal(t, tooltest.Caller.ID, rec["caller"])
	assert.Equal(t, "oidc", rec["auth"])
	assert.Equal(t, "ok", rec["outcome"])
	assert.Contains(t, rec, "duration_ms")
	assert.Equal(t, map[string]any{"query": float64(len(secretQuery)), "ids": float64(1)}, rec["args"], "only the arguments given, by size")
	assert.EqualValues(t, 1, rec["result_items"])
	assert.Positive(t, rec["result_bytes"])
	assert.Equal(t, "prepare the board meeting", rec["context"])
	assert.NotContains(t, logs, secretQuery)
	assert.NotContains(t, logs, "cmp_secret_1")
}

func TestBackendFailureIsAnErrorRecordAndAnIsErrorResult(t *testing.T) {
	tool := echoTool(func(context.Context, echoIn) (echoOut, error) {
		return echoOut{}, &graphql.Error{Operation: "Echo", Kind: graphql.KindHTTP, StatusCode: 503,
			Errors: []graphql.GraphQLError{{ErrorType: "ServiceUnavailable", Message: "try later"}}}
	})
	res, logs := tooltest.Call(t, tool, `{"query":"a"}`)
	require.True(t, res.IsError)
	e := tooltest.ErrorDetails(t, res)
	assert.Equal(t, "backend_error", e["code"])
	assert.EqualValues(t, 503, e["backend"].(map[string]any)["status"])
	assert.Contains(t, logs, `"level":"ERROR"`)
	assert.Contains(t, logs, `"backend_error_type":"ServiceUnavailable"`)
}

func TestPanicIsContained(t *testing.T) {
	tool := echoTool(func(context.Context, echoIn) (echoOut, error) { panic("boom") })
	res, logs := tooltest.Call(t, tool, `{"query":"a"}`)
	require.True(t, res.IsError)
	assert.NotContains(t, tooltest.Text(t, res), "boom", "the caller sees no internals")
	assert.Contains(t, logs, "boom", "the operator does")
}

func TestCallWithoutCallerIsRefused(t *testing.T) {
	rt := &tools.Runtime{Logger: slog.New(slog.DiscardHandler)}
	req := mcp.CallToolRequest{}
	req.Params.RawArguments = json.RawMessage(`{"query":"a"}`)
	res, err := rt.ServerTool(echoTool(nil)).Handler(context.Background(), req)
	require.NoError(t, err)
	assert.True(t, res.IsError)
}

func TestSchemaComesFromTheInputStruct(t *testing.T) {
	var schema map[string]any
	require.NoError(t, json.Unmarshal(echoTool(nil).Definition().RawInputSchema, &schema))
	assert.Equal(t, false, schema["additionalProperties"])
	assert.Equal(t, []any{"query"}, schema["required"])
	props := schema["properties"].(map[string]any)
	assert.Equal(t, map[string]any{"type": "integer", "description": "how many", "minimum": 1.0, "maximum": 10.0, "default": 4.0}, props["limit"])
	assert.Contains(t, props, "context")
}

// A dry run's budget sentence never shows a zero limit: a store that cannot
// say what is left says so.
func TestBudgetSentence(t *testing.T) {
	assert.Equal(t, "This tool has no rate limit here.", tools.Budget{}.String())
	assert.Contains(t, tools.Budget{Limited: true, Remaining: -1}.String(), "does not report what is left")
	assert.Contains(t, tools.Budget{Limited: true, Remaining: 2, Limit: ratelimit.Limit{Count: 5, Period: time.Minute}}.String(), "2 of 5 per minute per caller left")
}

// writeTool is a write whose backend answers with err, or succeeds.
func writeTool(err *error) tools.Tool {
	return tools.New(tools.Spec[echoIn, echoOut]{Facts: tools.Facts{Name: "echo", Kind: tools.Write}, Description: "writes", Hints: tools.Hints{OpenWorld: true},
		NextStep: func(e *tools.Error) string {
			if e.Class == tools.NotFound {
				return "look the id up first"
			}
			return ""
		},
		Run: func(_ context.Context, in echoIn) (echoOut, error) {
			if *err != nil {
				return echoOut{}, *err
			}
			return echoOut(in), nil
		}})
}

func backendRefusal(errorType, message string) error {
	return &graphql.Error{Operation: "Echo", Kind: graphql.KindGraphQL, StatusCode: 200,
		Errors: []graphql.GraphQLError{{ErrorType: errorType, Message: message}}}
}

// A write the backend refused as not found did nothing, so its token comes
// back: with one call an hour, the corrected call still goes through. Other
// failures, and reads, keep the token spent.
func TestAWriteRefusedAsNotFoundGivesItsTokenBack(t *testing.T) {
	now := time.Unix(1000, 0)
	newRuntime := func() *tools.Runtime {
		lim := ratelimit.New(map[string]ratelimit.Limit{"echo": {Count: 1, Period: time.Hour}},
			ratelimit.WithClock(func() time.Time { return now }))
		return &tools.Runtime{Logger: slog.New(slog.DiscardHandler), Limiter: lim}
	}

	var err error
	rt := newRuntime()
	err = backendRefusal("NotFoundException", `company "cmp_x" not found`)
	res := tooltest.CallWith(t, rt, writeTool(&err), `{"query":"a"}`)
	require.Equal(t, "not_found", tooltest.ErrorCode(t, res))
	text := tooltest.Text(t, res)
	assert.Contains(t, text, `company "cmp_x" not found`, "the backend's words")
	assert.Contains(t, text, "; look the id up first", "the tool's next step")
	err = nil
	require.False(t, tooltest.CallWith(t, rt, writeTool(&err), `{"query":"a"}`).IsError, "the token came back")
	require.Equal(t, "rate_limited", tooltest.ErrorCode(t, tooltest.CallWith(t, rt, writeTool(&err), `{"query":"a"}`)), "and only that token")

	rt = newRuntime()
	err = backendRefusal("ValidationException", "name too long")
	require.Equal(t, "invalid_arguments", tooltest.ErrorCode(t, tooltest.CallWith(t, rt, writeTool(&err), `{"query":"a"}`)))
	assert.NotContains(t, tooltest.Text(t, tooltest.CallWith(t, newRuntime(), writeTool(&err), `{"query":"a"}`)), "look the id up", "a next step for its class only")
	err = nil
	require.Equal(t, "rate_limited", tooltest.ErrorCode(t, tooltest.CallWith(t, rt, writeTool(&err), `{"query":"a"}`)), "another refusal keeps the token spent")

	rt = newRuntime()
	read := echoTool(func(context.Context, echoIn) (echoOut, error) {
		return echoOut{}, backendRefusal("NotFoundException", "no such thing")
	})
	require.Equal(t, "not_found", tooltest.ErrorCode(t, tooltest.CallWith(t, rt, read, `{"query":"a"}`)))
	require.Equal(t, "rate_limited", tooltest.ErrorCode(t, tooltest.CallWith(t, rt, read, `{"query":"a"}`)), "a read keeps its token")
}

// Every logged value someone else wrote gets the rule for untrusted text
// (issue 34): the context sentence and the backend's error type keep their
// record on one line, with nothing invisible in it.
func TestAuditRecordCleansUntrustedValues(t *testing.T) {
	tool := echoTool(func(context.Context, echoIn) (echoOut, error) {
		return echoOut{}, &graphql.Error{Operation: "Echo", Kind: graphql.KindHTTP, StatusCode: 503,
			Errors: []graphql.GraphQLError{{ErrorType: "Service\u202EUnavailable\nlevel=INFO", Message: "try\u2028later"}}}
	})
	ctxArg, err := json.Marshal("plan\nlevel=INFO msg=\"forged\"\u202E\u200B\U000E0041 done")
	require.NoError(t, err)
	var logs bytes.Buffer
	rt := &tools.Runtime{Logger: slog.New(slog.NewTextHandler(&logs, nil))}
	res := tooltest.CallWith(t, rt, tool, `{"query":"a","context":`+string(ctxArg)+`}`)
	require.True(t, res.IsError)
	out := logs.String()
	assert.Equal(t, 1, strings.Count(out, "\n"), "one record, one line: %s", out)
	assert.Contains(t, out, `context="plan level=INFO msg=\"forged\" done"`)
	assert.Contains(t, out, `backend_error_type="ServiceUnavailable level=INFO"`)
	for _, r := range "\u202E\u200B\U000E0041\u2028" {
		assert.NotContains(t, out, string(r))
	}
}
