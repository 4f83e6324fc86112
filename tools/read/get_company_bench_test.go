package read

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/tools"
)

// oneCompany is a Reader that answers every GetCompany with the same
// profile, so that the benchmark measures the pipeline, not a backend.
type oneCompany struct {
	query.Reader
	c *query.Company
}

func (r oneCompany) GetCompany(context.Context, string) (*query.Company, error) { return r.c, nil }

// benchProfile is a profile as appsync-local answers one (the shape of the
// HTTP benchmark's cmp_000001: no contacts yet, so the note is written).
const benchProfile = `{"id":"cmp_000001","name":"Brightwater Analytics GmbH","domain":"brightwater-analytics.example",` +
	`"website":"https://www.brightwater-analytics.example","description":"Brightwater Analytics builds data platforms for ` +
	`mid-sized manufacturers: demand forecasting, supplier risk scoring and plant-floor dashboards, sold as a subscription ` +
	`with on-site onboarding. Customers include machine builders & logistics firms.","country":"Germany","countryCode":"DE",` +
	`"city":"Hamburg","categories":["Software","Data & Analytics","Manufacturing"],"employeeCount":240,"foundedYear":2011,` +
	`"updatedAt":"2026-11-01T00:00:00Z","contacts":[]}`

// BenchmarkGetCompanyCall is one get_company call through the tool
// pipeline as the HTTP mode runs it (local caller, no rate limit, the
// text audit log the server writes by default), without the edge or the
// backend: validation, the run, both renderings and the audit record.
//
//	go test -run '^$' -bench GetCompanyCall -benchmem ./tools/read/
func BenchmarkGetCompanyCall(b *testing.B) {
	var c query.Company
	if err := json.Unmarshal([]byte(benchProfile), &c); err != nil {
		b.Fatal(err)
	}
	// As internal/config.NewLogger writes text: no time attribute.
	logger := slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey && len(groups) == 0 {
				return slog.Attr{}
			}
			return a
		},
	}))
	rt := &tools.Runtime{Logger: logger}
	st := rt.ServerTool(NewGetCompany(oneCompany{c: &c}))
	ctx := tools.WithCaller(context.Background(), tools.Caller{ID: "local", AuthMethod: "apikey"})
	req := mcp.CallToolRequest{}
	req.Params.Name = "get_company"
	req.Params.RawArguments = json.RawMessage(`{"id":"cmp_000001"}`)
	b.ReportAllocs()
	for b.Loop() {
		res, err := st.Handler(ctx, req)
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
}
