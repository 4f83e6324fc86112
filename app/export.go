package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/tools"
	"github.com/companyintel/mcp-server/tools/read"
)

// exportResource serves search_companies' export links
// (companies://export/…csv or …jsonl): one read runs the sealed search
// again as the caller reading it, through the same Reader and so the same
// identity toward the backend as a tool call, and returns every row up to
// read.MaxExportRows. Before any backend call the link must open under key,
// be unexpired and be the reader's own, and the read spends a token of
// search_companies' rate limit for the caller, as a call would.
func exportResource(r query.Reader, key read.Sealer, limiter tools.Limiter, now func() time.Time, log *slog.Logger) server.ServerResourceTemplate {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return server.ServerResourceTemplate{
		Template: mcp.NewResourceTemplate(read.ExportURITemplate, "search_export",
			mcp.WithTemplateDescription("A search_companies result as a file (CSV, or JSON lines for a link ending .jsonl), "+
				"up to 10,000 rows; links come from search_companies with export: true and open only for their caller, for an hour."),
			mcp.WithTemplateMIMEType("text/csv")),
		Handler: func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			uri := req.Params.URI
			caller, ok := tools.CallerFrom(ctx)
			if !ok {
				return nil, errors.New("export: no caller identity; the server is misconfigured")
			}
			if limiter != nil {
				d, err := limiter.Allow(ctx, "search_companies", caller.ID)
				if err != nil {
					return nil, fmt.Errorf("export: the rate limit store could not be read: %w", err)
				}
				if !d.Allowed {
					return nil, fmt.Errorf("export: search_companies' rate limit (%s) is spent for now; retry after %d s", d.Limit, d.RetryAfterSeconds())
				}
			}
			var b strings.Builder
			start := time.Now()
			mime, rows, err := read.Export(ctx, r, key, now(), uri, &b)
			log.Info("export read", "caller", caller.ID, "rows", rows, "bytes", b.Len(), "duration", time.Since(start).Round(time.Millisecond).String(),
				"ok", err == nil)
			if err != nil {
				if errors.Is(err, read.ErrExport) {
					return nil, err
				}
				e := tools.Classify(err, "", caller.AuthMethod)
				return nil, fmt.Errorf("export failed [%s] after %d rows: %s", e.Class, rows, e.Message)
			}
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: uri, MIMEType: mime, Text: b.String()}}, nil
		},
	}
}
