package app

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/companyintel/mcp-server/tools"
	"github.com/companyintel/mcp-server/views"
)

// viewMeta is the _meta of every view, listed and read (MCP Apps,
// UIResourceMeta): an empty CSP, so the host lets the view load nothing and
// connect nowhere (the view carries its script and style inline and gets its
// data from the host), and a border, since the view paints its own
// background.
var viewMeta = map[string]any{"ui": map[string]any{"csp": map[string]any{}, "prefersBorder": true}}

// ViewsStatus says where this server's views show; the status resource
// carries it.
type ViewsStatus struct {
	Extension string            `json:"extension"`
	Views     map[string]string `json:"views" jsonschema:"Tool name: the ui:// resource its results are shown with."`
	ShownBy   string            `json:"shown_by"`
}

// viewsStatus is what the status resource says about the views: which of
// the tools served link one, read from their definitions.
func viewsStatus(served []tools.Tool) ViewsStatus {
	st := ViewsStatus{Extension: views.Extension, Views: map[string]string{},
		ShownBy: "Hosts that support MCP Apps (" + views.Extension + "), such as Claude on the web and desktop, ChatGPT, " +
			"VS Code Copilot, Microsoft 365 Copilot, Cursor and Goose, show these tools' results as tables and forms. " +
			"Every other client gets the same text and structured answers as without them."}
	for _, t := range served {
		if m := t.Definition().Meta; m != nil {
			if ui, ok := m.AdditionalFields["ui"].(map[string]any); ok {
				if uri, ok := ui["resourceUri"].(string); ok {
					st.Views[t.Name()] = uri
				}
			}
		}
	}
	return st
}

// viewResources are the three views as ui:// resources. They are listed, not
// only linked from the tools, so an operator can enumerate and inspect them
// (the MCP Inspector lists them); clients without the extension ignore them.
func viewResources() []server.ServerResource {
	var out []server.ServerResource
	for _, v := range views.All {
		r := mcp.NewResource(v.URI, v.Name,
			mcp.WithResourceTitle(v.Title),
			mcp.WithResourceDescription(v.Description),
			mcp.WithMIMEType(views.MIMEType))
		r.Meta = mcp.NewMetaFromMap(viewMeta)
		out = append(out, server.ServerResource{
			Resource: r,
			Handler: func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
				html, err := v.HTML()
				if err != nil {
					return nil, err
				}
				return []mcp.ResourceContents{mcp.TextResourceContents{URI: v.URI, MIMEType: views.MIMEType, Text: html, Meta: viewMeta}}, nil
			},
		})
	}
	return out
}
