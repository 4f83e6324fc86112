package app

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/companyintel/mcp-server/internal/edge"
	"github.com/companyintel/mcp-server/internal/untrusted"
)

// prompts returns the two workflows this server is built for. writesOn says
// whether the write tools are enabled, so a prompt never steers a model into
// a call that will be refused.
func prompts(writesOn func(tool string) bool) []server.ServerPrompt {
	return []server.ServerPrompt{
		{
			Prompt: mcp.NewPrompt("research_company",
				mcp.WithPromptTitle("Research one company"),
				mcp.WithPromptDescription("Build a short brief on one company: profile, peers, and contacts if email discovery is enabled."),
				mcp.WithArgument("company", mcp.RequiredArgument(),
					mcp.ArgumentDescription("The company's name, domain or id (cmp_…).")),
				mcp.WithArgument("focus", mcp.ArgumentDescription("Optional: what the brief is for, e.g. \"a sales call about logistics software\".")),
			),
			Handler: func(ctx context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
				company := strings.TrimSpace(req.Params.Arguments["company"])
				if company == "" {
					return nil, fmt.Errorf("argument company is required: the company's name, domain or id")
				}
				if err := checkPromptValues(req.Params.Name, req.Params.Arguments); err != nil {
					return nil, err
				}
				var b strings.Builder
				fmt.Fprintf(&b, "Research the company %q", company)
				if focus := strings.TrimSpace(req.Params.Arguments["focus"]); focus != "" {
					fmt.Fprintf(&b, " for this purpose: %s", focus)
				}
				b.WriteString(".\n\nSteps:\n")
				b.WriteString("1. If it is an id (cmp_…), call get_company. Otherwise call search_companies with the name as query and look for a company whose name or domain matches it exactly. " +
					"If exactly one does, use it. If none does, say so, list the closest matches (name, id, country) and ask which one to research: never research a different company without saying so. " +
					"If the search finds nothing, say that no company of this name is in the data and stop.\n")
				b.WriteString("2. Summarise: what it does, where, size (employee_count), age (founded_year), categories, website.\n")
				b.WriteString("3. Find 3-5 peers with search_companies using its main category and country; list them with one line each.\n")
				if writesOn("request_email_discovery") {
					b.WriteString("4. If the purpose needs contacts and the profile has none, call request_email_discovery once with the relevant roles, then get_company later to read them.\n")
				} else {
					b.WriteString("4. List any contacts already on the profile. Email discovery is disabled on this server: do not call request_email_discovery.\n")
				}
				b.WriteString("Quote ids so the user can follow up. If a tool answers isError, report its message instead of guessing.")
				return mcp.NewGetPromptResult("Research "+company,
					[]mcp.PromptMessage{mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent(b.String()))}), nil
			},
		},
		{
			Prompt: mcp.NewPrompt("build_prospect_list",
				mcp.WithPromptTitle("Build a prospect list"),
				mcp.WithPromptDescription("Find companies matching a description and save them into a named collection."),
				mcp.WithArgument("description", mcp.RequiredArgument(),
					mcp.ArgumentDescription("Who to find, e.g. \"fintech startups in Germany with 20-200 employees\".")),
				mcp.WithArgument("collection_name", mcp.RequiredArgument(),
					mcp.ArgumentDescription("The collection to save them in; reused if it already exists.")),
				mcp.WithArgument("size", mcp.ArgumentDescription("How many companies to aim for; default 25, at most 50.")),
			),
			Handler: func(ctx context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
				desc := strings.TrimSpace(req.Params.Arguments["description"])
				name := strings.TrimSpace(req.Params.Arguments["collection_name"])
				if desc == "" || name == "" {
					return nil, fmt.Errorf("arguments description and collection_name are required")
				}
				size := strings.TrimSpace(req.Params.Arguments["size"])
				if size == "" {
					size = "25"
				}
				if err := checkPromptValues(req.Params.Name, req.Params.Arguments); err != nil {
					return nil, err
				}
				var b strings.Builder
				fmt.Fprintf(&b, "Build a list of about %s companies matching: %s.\n\nSteps:\n", size, desc)
				b.WriteString("1. Read the companies://filters resource for exact country and category names.\n")
				b.WriteString("2. Call ai_search with the description once and check its interpretation; then use search_companies with explicit filters (and cursor for more pages) to gather candidates. ai_search is rate limited: do not loop on it.\n")
				b.WriteString("3. Drop poor fits and say briefly why.\n")
				if writesOn("create_collection") && writesOn("add_to_collection") {
					fmt.Fprintf(&b, "4. Call create_collection with name %q (it returns the existing one if it is there), then add_to_collection with the chosen ids in batches of at most 50.\n", name)
					b.WriteString("5. Report what was added, already present and not found.\n")
				} else {
					fmt.Fprintf(&b, "4. Writes are disabled on this server, so the collection %q cannot be created here: present the list (name, id, country, size, why it fits) so the user can save it elsewhere.\n", name)
				}
				return mcp.NewGetPromptResult("Prospect list: "+name,
					[]mcp.PromptMessage{mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent(b.String()))}), nil
			},
		},
	}
}

// promptArgMax bounds each prompt argument, in characters, as the tools
// bound theirs: an argument is written into the prompt's text (some twice),
// so without a bound a client could make an answer of any size. Each bound
// is the bound of the tool argument it becomes: company a search query or
// an id, description an ai_search query, collection_name a collection's
// name, focus a sentence like a tool's context.
var promptArgMax = map[string]int{"company": 200, "focus": 500, "description": 500, "collection_name": 100}

// The range of build_prospect_list's size, which its description states.
const minProspects, maxProspects = 1, 50

// checkPromptValues checks the arguments a prompt was given against their
// bounds, and size is a whole number in its range. The handlers check it
// too, as the backstop of checkPromptArguments.
func checkPromptValues(prompt string, args map[string]string) *edge.Error {
	for _, name := range slices.Sorted(maps.Keys(args)) {
		v := args[name]
		if name == "size" {
			if n, err := strconv.Atoi(strings.TrimSpace(v)); strings.TrimSpace(v) != "" && (err != nil || n < minProspects || n > maxProspects) {
				return &edge.Error{Code: edge.CodeInvalidParams, Message: fmt.Sprintf(
					"prompt %s: argument \"size\" must be a whole number from %d to %d; this one is %q", prompt, minProspects, maxProspects, edge.Excerpt(v, 20))}
			}
			continue
		}
		max, known := promptArgMax[name]
		if !known {
			continue // not an argument of ours: never read, never written
		}
		if n := utf8.RuneCountInString(v); n > max {
			return &edge.Error{Code: edge.CodeInvalidParams, Message: fmt.Sprintf(
				"prompt %s: argument %q is at most %d characters; this one has %d", prompt, name, max, n)}
		}
		// Written into the prompt's text, which a model reads as the
		// user's words: no line breaks, controls or invisible characters.
		if p := untrusted.PlainProblem(strings.TrimSpace(v)); p != "" {
			return &edge.Error{Code: edge.CodeInvalidParams, Message: fmt.Sprintf(
				"prompt %s: argument %q %s", prompt, name, p)}
		}
	}
	return nil
}

// promptCheck is the edge's check of a prompts/get request against the
// prompts s serves (edge.StdioOptions.CheckPrompt).
func promptCheck(s *server.MCPServer) func(msg []byte) *edge.Error {
	prompts := s.ListPrompts()
	return func(msg []byte) *edge.Error { return checkPromptArguments(prompts, msg) }
}

// checkPromptArguments answers -32602 for a prompts/get whose arguments do
// not fit the prompt: a required one missing or blank, or one that is not a
// string. mcp-go would answer -32603 (a server fault) for the first, from
// the handler's error, and quote encoding/json for the second.
func checkPromptArguments(prompts map[string]*server.ServerPrompt, msg []byte) *edge.Error {
	var req struct {
		Params struct {
			Name      json.RawMessage            `json:"name"`
			Arguments map[string]json.RawMessage `json:"arguments"`
		} `json:"params"`
	}
	if json.Unmarshal(msg, &req) != nil {
		return nil // a shape mcp-go refuses itself, in words plainError rewrites
	}
	var name string
	if json.Unmarshal(req.Params.Name, &name) != nil {
		return nil
	}
	p, ok := prompts[name]
	if !ok {
		return nil // mcp-go answers -32602: no such prompt
	}
	values := map[string]string{}
	for _, a := range p.Prompt.Arguments {
		raw, given := req.Params.Arguments[a.Name]
		var v string
		if given && string(raw) != "null" && json.Unmarshal(raw, &v) != nil {
			return &edge.Error{Code: edge.CodeInvalidParams, Message: fmt.Sprintf(
				"prompt %s: argument %q must be a string", name, a.Name)}
		}
		if a.Required && strings.TrimSpace(v) == "" {
			return &edge.Error{Code: edge.CodeInvalidParams, Message: fmt.Sprintf(
				"prompt %s: argument %q is required (%s)", name, a.Name, strings.TrimSuffix(a.Description, "."))}
		}
		if given {
			values[a.Name] = v
		}
	}
	return checkPromptValues(name, values)
}
