// Package tooltest calls tools the way a client does — through the shared
// pipeline, with raw JSON arguments — so tests see validation, the gate, the
// rate limit and the result shaping exactly as a client would.
package tooltest

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/companyintel/mcp-server/tools"
)

// Caller is the identity test calls act for.
var Caller = tools.Caller{ID: "test-user", AuthMethod: "oidc"}

// Call runs tool with args (a JSON object) through a pipeline with no rate
// limit, and returns the result and the audit log it wrote.
func Call(t testing.TB, tool tools.Tool, args string) (*mcp.CallToolResult, string) {
	t.Helper()
	var logs bytes.Buffer
	rt := &tools.Runtime{Logger: slog.New(slog.NewJSONHandler(&logs, nil))}
	return CallWith(t, rt, tool, args), logs.String()
}

// CallWith runs tool with args through the given runtime.
func CallWith(t testing.TB, rt *tools.Runtime, tool tools.Tool, args string) *mcp.CallToolResult {
	t.Helper()
	st := rt.ServerTool(tool)
	req := mcp.CallToolRequest{}
	req.Params.Name = tool.Name()
	req.Params.RawArguments = json.RawMessage(args)
	res, err := st.Handler(tools.WithCaller(context.Background(), Caller), req)
	if err != nil {
		t.Fatalf("%s returned a Go error, which a client would see as JSON-RPC -32603: %v", tool.Name(), err)
	}
	return res
}

// Structured returns the result's structuredContent as generic JSON.
func Structured(t testing.TB, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatalf("structuredContent does not encode: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("structuredContent is not an object: %s", b)
	}
	return m
}

// Text returns the result's first text content.
func Text(t testing.TB, res *mcp.CallToolResult) string {
	t.Helper()
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			return tc.Text
		}
	}
	t.Fatalf("result has no text content")
	return ""
}

// ErrorCode returns the class of a failed result, or "".
func ErrorCode(t testing.TB, res *mcp.CallToolResult) string {
	t.Helper()
	if !res.IsError {
		return ""
	}
	code, _ := ErrorDetails(t, res)["code"].(string)
	return code
}

// ErrorDetails returns a failed result's _meta[tools.ErrorMetaKey] as
// generic JSON, and fails the test when it is absent or the result carries
// structuredContent (which a client would validate against the success
// schema).
func ErrorDetails(t testing.TB, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	if res.StructuredContent != nil {
		t.Fatalf("a failed result carries structuredContent: %v", res.StructuredContent)
	}
	if res.Meta == nil {
		t.Fatalf("a failed result has no _meta")
	}
	b, err := json.Marshal(res.Meta.AdditionalFields[tools.ErrorMetaKey])
	if err != nil {
		t.Fatalf("error details do not encode: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil || m == nil {
		t.Fatalf("_meta[%s] is not an object: %s", tools.ErrorMetaKey, b)
	}
	return m
}
