package app

import (
	"context"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// promptAnswerBound is the most a prompts/get answer's text may hold: the
// fixed instructions (under 2,000 characters) and each argument at most
// twice at its bound.
func promptAnswerBound() int {
	n := 2000
	for _, max := range promptArgMax {
		n += 2 * max
	}
	return n
}

// Every argument at its bound gives an answer within the bound; one
// character more is refused by the prompt itself (the backstop of the
// edge's check), before anything is written.
func TestPromptAnswersStayWithinTheirBound(t *testing.T) {
	full := func(name string) string { return strings.Repeat("é", promptArgMax[name]) }
	for _, writes := range []bool{false, true} {
		for _, p := range prompts(func(string) bool { return writes }) {
			args := map[string]string{}
			for _, a := range p.Prompt.Arguments {
				args[a.Name] = full(a.Name)
			}
			if _, ok := args["size"]; ok {
				args["size"] = "50"
			}
			res, err := p.Handler(context.Background(), mcp.GetPromptRequest{Params: mcp.GetPromptParams{Name: p.Prompt.Name, Arguments: args}})
			require.NoError(t, err, p.Prompt.Name)
			n := len([]rune(res.Description))
			for _, m := range res.Messages {
				n += len([]rune(m.Content.(mcp.TextContent).Text))
			}
			assert.LessOrEqual(t, n, promptAnswerBound(), p.Prompt.Name)

			for _, a := range p.Prompt.Arguments {
				if a.Name == "size" {
					continue
				}
				over := map[string]string{}
				for k, v := range args {
					over[k] = v
				}
				over[a.Name] += "x"
				_, err := p.Handler(context.Background(), mcp.GetPromptRequest{Params: mcp.GetPromptParams{Name: p.Prompt.Name, Arguments: over}})
				assert.ErrorContains(t, err, "at most", "%s.%s over its bound", p.Prompt.Name, a.Name)
			}
		}
	}
}

func TestPromptSizeIsAWholeNumberInRange(t *testing.T) {
	for size, ok := range map[string]bool{"": true, "1": true, "50": true, " 25 ": true, "0": false, "51": false, "abc": false, "2.5": false, "-3": false} {
		err := checkPromptValues("build_prospect_list", map[string]string{"size": size})
		if ok {
			assert.Nil(t, err, "size %q", size)
		} else {
			require.NotNil(t, err, "size %q", size)
			assert.Contains(t, err.Message, "whole number from 1 to 50", "size %q", size)
		}
	}
}
