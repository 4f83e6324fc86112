// Package views holds the MCP Apps views (the io.modelcontextprotocol/ui
// extension, SEP-1865): three self-contained HTML documents that hosts
// supporting the extension render for the tools that link them in their
// _meta.ui.resourceUri — search results, a company profile and a collection.
// A view reaches nothing itself: it gets the tool's result from the host and
// calls tools only through the host, so the server's gate, scopes, limits
// and confirmation apply to it as to a model.
//
// The documents are built from web/ (go generate ./views) and embedded.
package views

import (
	"embed"
	"fmt"
)

// MIMEType is the extension's media type for an HTML view.
const MIMEType = "text/html;profile=mcp-app"

// Extension is the extension's identifier in capabilities.
const Extension = "io.modelcontextprotocol/ui"

// The views' URIs, which the tools' _meta.ui.resourceUri name.
const (
	SearchURI     = "ui://search"
	ProfileURI    = "ui://profile"
	CollectionURI = "ui://collection"
)

// View is one view as a resource.
type View struct {
	URI         string
	Name        string
	Title       string
	Description string
	file        string
}

//go:embed dist/search.html dist/profile.html dist/collection.html
var dist embed.FS

// All are the three views, in the order resources/list shows them.
var All = []View{
	{URI: SearchURI, Name: "search_view", Title: "Companies table",
		Description: "The view of search_companies and ai_search results for hosts with MCP Apps: a sortable table with the filters applied and a button for the next page.",
		file:        "dist/search.html"},
	{URI: ProfileURI, Name: "profile_view", Title: "Company profile",
		Description: "The view of get_company for hosts with MCP Apps: the facts, contacts with their confidence, and the website.",
		file:        "dist/profile.html"},
	{URI: CollectionURI, Name: "collection_view", Title: "Collection",
		Description: "The view of get_collection_items for hosts with MCP Apps: the collection's companies, a Remove button per row (remove_from_collection) and a form that adds more (add_to_collection).",
		file:        "dist/collection.html"},
}

// HTML returns the view's document.
func (v View) HTML() (string, error) {
	b, err := dist.ReadFile(v.file)
	if err != nil {
		return "", fmt.Errorf("view %s: %w", v.URI, err)
	}
	return string(b), nil
}
