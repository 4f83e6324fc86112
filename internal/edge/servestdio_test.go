package edge

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/tools"
)

// known is an Identity the credential chain has already resolved.
type known tools.Caller

func (k known) Caller(context.Context) (tools.Caller, error) { return tools.Caller(k), nil }
func (k known) Failed() error                                { return nil }

// TestElicitationReachesTheClientOnStdio serves a tool that asks for input
// (mcp-go's multi round-trip result) to a 2025-11-25 client over the stdio
// edge: mcp-go turns the question into elicitation/create, the edge writes
// it with an id of its own and routes the client's answer back by that id,
// and the tool finishes with the answer.
func TestElicitationReachesTheClientOnStdio(t *testing.T) {
	s := server.NewMCPServer("t", "1")
	s.AddTool(mcp.NewTool("ask"), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if r := server.ElicitationResponse(req.Params.InputResponses, "confirm"); r != nil {
			return mcp.NewToolResultText("the user said " + string(r.Action) + "; state " + req.Params.RequestState), nil
		}
		return server.NewInputRequestBuilder("sealed").Elicit("confirm", mcp.ElicitationParams{
			Message: "Create the collection?", RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{}},
		}).ToolResult(), nil
	})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- ServeStdio(context.Background(), s, inR, outW, StdioOptions{Identity: known{ID: "me", AuthMethod: "api_key"}})
		outW.Close()
	}()
	out := bufio.NewScanner(outR)
	send := func(msg string) {
		_, err := io.WriteString(inW, msg+"\n")
		require.NoError(t, err)
	}
	next := func() map[string]any {
		require.True(t, out.Scan(), "a line from the server")
		var m map[string]any
		require.NoError(t, json.Unmarshal(out.Bytes(), &m), out.Text())
		return m
	}

	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{"form":{}}},"clientInfo":{"name":"t","version":"1"}}}`)
	next()
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ask","arguments":{}}}`)

	q := next()
	assert.Equal(t, "elicitation/create", q["method"])
	assert.Equal(t, "srv-1", q["id"])
	assert.Equal(t, "Create the collection?", q["params"].(map[string]any)["message"])

	send(`{"jsonrpc":"2.0","id":"srv-1","result":{"action":"decline"}}`)
	a := next()
	assert.EqualValues(t, 2, a["id"])
	text := a["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"]
	assert.Equal(t, "the user said decline; state sealed", text)

	require.NoError(t, inW.Close())
	require.NoError(t, <-done)
}
