package tools

import (
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
)

// A failed call carries structuredContent {"error": {...}} beside isError.
// Clients built on the official TypeScript SDK (the MCP Inspector, Claude
// Desktop) validate any structuredContent against the tool's outputSchema,
// isError or not, and drop a result that does not match — the user would
// never see the failure. So every outputSchema admits both shapes: the
// success fields, required as before, or the error object alone.

// errorSchema describes structuredContent.error.
var errorSchema = map[string]any{
	"type":        "object",
	"description": "Present only on a failed call (isError true), instead of the fields above.",
	"properties": map[string]any{
		"tool":    map[string]any{"type": "string"},
		"code":    map[string]any{"type": "string", "enum": classNames()},
		"message": map[string]any{"type": "string"},
		"retryable": map[string]any{
			"type":        "boolean",
			"description": "Whether the same call may succeed later.",
		},
		"retry_after_s": map[string]any{"type": "integer", "description": "Seconds to wait before retrying."},
		"fields": map[string]any{
			"type":        "array",
			"description": "The arguments at fault, for invalid_arguments.",
			"items": map[string]any{
				"type":       "object",
				"properties": map[string]any{"field": map[string]any{"type": "string"}, "problem": map[string]any{"type": "string"}},
			},
		},
		"backend": map[string]any{
			"type":        "object",
			"description": "What the data API said: HTTP status, GraphQL errors (errorType, message, path), or a body excerpt.",
		},
		"partial": map[string]any{"description": "Data that arrived together with the errors."},
	},
	"required": []string{"tool", "code", "message", "retryable"},
}

// classNames lists every Class, for the schema's enum.
func classNames() []string {
	return []string{string(InvalidArguments), string(MutationsDisabled), string(RateLimited), string(LimitStoreUnavailable), string(Unauthorized),
		string(Forbidden), string(NotFound), string(BackendTimeout), string(BackendUnreachable), string(BackendError)}
}

// withErrorShape rewrites t's outputSchema so that it admits the error
// object: the success fields' "required" moves into an anyOf branch beside
// {"required": ["error"]}.
func withErrorShape(t *mcp.Tool) error {
	b, err := json.Marshal(t.OutputSchema)
	if err != nil {
		return err
	}
	var schema map[string]any
	if err := json.Unmarshal(b, &schema); err != nil {
		return err
	}
	props, ok := schema["properties"].(map[string]any)
	if !ok {
		return fmt.Errorf("output schema has no properties")
	}
	if _, taken := props["error"]; taken {
		return fmt.Errorf("output field %q is reserved for failures", "error")
	}
	props["error"] = errorSchema
	success := map[string]any{"required": schema["required"]}
	if schema["required"] == nil {
		success = map[string]any{"not": map[string]any{"required": []string{"error"}}}
	}
	delete(schema, "required")
	schema["anyOf"] = []any{success, map[string]any{"required": []string{"error"}}}
	raw, err := json.Marshal(schema)
	if err != nil {
		return err
	}
	t.OutputSchema = mcp.ToolOutputSchema{}
	t.RawOutputSchema = raw
	return nil
}
