package feedback

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/tools"
	"github.com/companyintel/mcp-server/tools/tooltest"
)

// A report is one "missing capability" record (beside the pipeline's "tool
// call" record) with the caller, what was wanted, the tools tried and the
// context sentence, and then each observer hears of it with the call's
// context.
func TestReportWritesOneRecordAndTellsObservers(t *testing.T) {
	var heard []Report
	observe := func(ctx context.Context, r Report) {
		_, ok := tools.CallerFrom(ctx)
		assert.True(t, ok, "the observer gets the call's context")
		heard = append(heard, r)
	}
	var records []map[string]any
	res, logs := call(t, Deps{Observers: []func(context.Context, Report){observe}},
		`{"wanted":"  annual revenue  ","tried":["search_companies","ai_search"],"context":"rank prospects"}`)
	require.False(t, res.IsError, tooltest.Text(t, res))
	assert.Equal(t, map[string]any{"recorded": true, "note": note}, tooltest.Structured(t, res))
	for _, line := range strings.Split(strings.TrimSpace(logs), "\n") {
		var r map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &r))
		records = append(records, r)
	}
	require.Len(t, records, 2, logs)
	r := records[0]
	assert.Equal(t, "missing capability", r["msg"])
	assert.Equal(t, "INFO", r["level"])
	assert.Equal(t, Name, r["tool"])
	assert.Equal(t, tooltest.Caller.ID, r["caller"])
	assert.Equal(t, "annual revenue", r["wanted"])
	assert.Equal(t, "search_companies,ai_search", r["tried"])
	assert.Equal(t, "rank prospects", r["context"])
	assert.Equal(t, "tool call", records[1]["msg"])
	assert.Equal(t, []Report{{Wanted: "annual revenue", Tried: []string{"search_companies", "ai_search"}, Context: "rank prospects"}}, heard)
}

// Bad input is refused before anything is recorded: wanted is required,
// not blank and bounded, tried is bounded in items and length.
func TestBadReportsAreRefusedAndNotRecorded(t *testing.T) {
	for name, args := range map[string]string{
		"no wanted":       `{"tried":["get_company"]}`,
		"blank wanted":    `{"wanted":"   "}`,
		"wanted too long": `{"wanted":"` + strings.Repeat("w", 501) + `"}`,
		"too many tried":  `{"wanted":"x","tried":["a","b","c","d","e","f","g","h","i","j","k"]}`,
		"tried too long":  `{"wanted":"x","tried":["` + strings.Repeat("t", 65) + `"]}`,
	} {
		t.Run(name, func(t *testing.T) {
			heard := 0
			res, logs := call(t, Deps{Observers: []func(context.Context, Report){func(context.Context, Report) { heard++ }}}, args)
			assert.Equal(t, "invalid_arguments", tooltest.ErrorCode(t, res))
			assert.NotContains(t, logs, "missing capability")
			assert.Zero(t, heard)
		})
	}
}

// call runs the tool built on d through the pipeline, the tool and the
// pipeline writing to one JSON log, and returns the result and the log.
func call(t *testing.T, d Deps, args string) (*mcp.CallToolResult, string) {
	t.Helper()
	var logs bytes.Buffer
	d.Logger = slog.New(slog.NewJSONHandler(&logs, nil))
	res := tooltest.CallWith(t, &tools.Runtime{Logger: d.Logger}, New(d), args)
	return res, logs.String()
}
