//go:build conformancefixtures

package app

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/companyintel/mcp-server/internal/edge"
	"github.com/companyintel/mcp-server/tools"
)

// The MCP conformance suite's (0.2) fixture tools for the tasks-*
// scenarios, served through this server's own edge and tasks extension in
// a build with the tag conformancefixtures (e2e's TestConformanceTasks):
// greet (synchronous), slow_compute, failing_job (task required),
// protocol_error_job, confirm_delete and multi_input (input during the
// task) and test_tool_with_task (input before the task, then a required
// task). A call that may become a task answers at once with the job it
// starts (edge.TaskCall); the job's state is in the task's record, so any
// replica answers for it.
func init() { addFixtures = conformanceFixtures }

// fixtureJob is what a fixture's task keeps: when it is done, and what it
// was asked.
type fixtureJob struct {
	Tool  string `json:"tool"`
	DueMs int64  `json:"due_ms"`
	Label string `json:"label,omitempty"`
	Name  string `json:"name,omitempty"`
}

func conformanceFixtures() ([]server.ServerTool, map[string]*tools.Follower) {
	start := func(tool string, after time.Duration, label, name string) *mcp.CallToolResult {
		b, _ := json.Marshal(fixtureJob{Tool: tool, DueMs: time.Now().Add(after).UnixMilli(), Label: label, Name: name})
		return mcp.NewToolResultStructured(json.RawMessage(b), tool+" started")
	}
	follower := func(required bool, ask func(fixtureJob, map[string]json.RawMessage) map[string]json.RawMessage,
		done func(fixtureJob, map[string]json.RawMessage) *mcp.CallToolResult) *tools.Follower {
		f := &tools.Follower{
			TTL: time.Minute, PollInterval: 200 * time.Millisecond, Required: required,
			Start: func(structured json.RawMessage) (json.RawMessage, string, bool, bool) {
				var j fixtureJob
				if json.Unmarshal(structured, &j) != nil || j.Tool == "" {
					return nil, "", false, false
				}
				return structured, j.Tool, false, true
			},
			Poll: func(_ context.Context, raw json.RawMessage, responses map[string]json.RawMessage) (*mcp.CallToolResult, bool, string) {
				var j fixtureJob
				_ = json.Unmarshal(raw, &j)
				if time.Now().UnixMilli() < j.DueMs {
					return nil, false, j.Tool + " is running"
				}
				return done(j, responses), true, ""
			},
		}
		if ask != nil {
			f.Ask = func(raw json.RawMessage, responses map[string]json.RawMessage) map[string]json.RawMessage {
				var j fixtureJob
				_ = json.Unmarshal(raw, &j)
				return ask(j, responses)
			}
		}
		return f
	}
	elicit := func(message string, props string) json.RawMessage {
		return json.RawMessage(fmt.Sprintf(`{"method":"elicitation/create","params":{"mode":"form","message":%q,"requestedSchema":{"type":"object","properties":%s}}}`, message, props))
	}
	pending := func(responses map[string]json.RawMessage, asks map[string]json.RawMessage) map[string]json.RawMessage {
		out := map[string]json.RawMessage{}
		for k, v := range asks {
			if _, ok := responses[k]; !ok {
				out[k] = v
			}
		}
		return out
	}

	text := func(s string) *mcp.CallToolResult { return mcp.NewToolResultText(s) }
	served := []server.ServerTool{
		{Tool: mcp.NewTool("greet", mcp.WithString("name")), Handler: func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text("Hello, " + req.GetString("name", "") + "!"), nil
		}},
		{Tool: mcp.NewTool("slow_compute", mcp.WithNumber("seconds"), mcp.WithString("label")), Handler: func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			after := time.Duration(req.GetFloat("seconds", 0) * float64(time.Second))
			label := req.GetString("label", "")
			if edge.TaskCall(ctx) {
				return start("slow_compute", after, label, ""), nil
			}
			select {
			case <-time.After(after):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			return text("computed " + label), nil
		}},
		{Tool: mcp.NewTool("failing_job"), Handler: func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return start("failing_job", time.Second, "", ""), nil
		}},
		{Tool: mcp.NewTool("protocol_error_job"), Handler: func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if !edge.TaskCall(ctx) {
				return nil, fmt.Errorf("protocol_error_job always fails")
			}
			return start("protocol_error_job", 500*time.Millisecond, "", ""), nil
		}},
		{Tool: mcp.NewTool("confirm_delete", mcp.WithString("filename")), Handler: func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if !edge.TaskCall(ctx) {
				return mcp.NewToolResultError("confirm_delete asks for confirmation during a task: negotiate the tasks extension"), nil
			}
			return start("confirm_delete", 0, req.GetString("filename", ""), ""), nil
		}},
		{Tool: mcp.NewTool("multi_input"), Handler: func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if !edge.TaskCall(ctx) {
				return mcp.NewToolResultError("multi_input asks for input during a task: negotiate the tasks extension"), nil
			}
			return start("multi_input", 0, "", ""), nil
		}},
		{Tool: mcp.NewTool("test_tool_with_task"), Handler: func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			r := server.ElicitationResponse(req.Params.InputResponses, "user_name")
			if r == nil {
				return server.NewInputRequestBuilder("round-1").Elicit("user_name", mcp.ElicitationParams{
					Message: "What is your name?", RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}},
				}).ToolResult(), nil
			}
			content, _ := r.Content.(map[string]any)
			name, _ := content["name"].(string)
			return start("test_tool_with_task", 300*time.Millisecond, "", name), nil
		}},
	}
	follow := map[string]*tools.Follower{
		"slow_compute": follower(false, nil, func(j fixtureJob, _ map[string]json.RawMessage) *mcp.CallToolResult {
			return text("computed " + j.Label)
		}),
		"failing_job": follower(true, nil, func(fixtureJob, map[string]json.RawMessage) *mcp.CallToolResult {
			return mcp.NewToolResultError("failing_job failed, as it always does")
		}),
		"protocol_error_job": follower(false, nil, func(fixtureJob, map[string]json.RawMessage) *mcp.CallToolResult { return nil }),
		"confirm_delete": follower(false, func(j fixtureJob, responses map[string]json.RawMessage) map[string]json.RawMessage {
			return pending(responses, map[string]json.RawMessage{"confirm": elicit("Delete "+j.Label+"?", `{"confirm":{"type":"boolean"}}`)})
		}, func(j fixtureJob, _ map[string]json.RawMessage) *mcp.CallToolResult {
			return text("deleted " + j.Label)
		}),
		"multi_input": follower(false, func(_ fixtureJob, responses map[string]json.RawMessage) map[string]json.RawMessage {
			return pending(responses, map[string]json.RawMessage{
				"name":    elicit("Your name?", `{"name":{"type":"string"}}`),
				"confirm": elicit("Go ahead?", `{"confirm":{"type":"boolean"}}`),
			})
		}, func(fixtureJob, map[string]json.RawMessage) *mcp.CallToolResult { return text("both inputs received") }),
		"test_tool_with_task": follower(true, nil, func(j fixtureJob, _ map[string]json.RawMessage) *mcp.CallToolResult {
			return text("Hello, " + j.Name + "! (the name was gathered before the task)")
		}),
	}
	return served, follow
}
