package edge

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// discard is a ResponseWriter that keeps the headers and drops the body.
type discard struct{ h http.Header }

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) Write(p []byte) (int, error) { return len(p), nil }
func (d *discard) WriteHeader(int)             {}

// BenchmarkHTTPEdgeAnswer is the edge's part of one tools/call on HTTP:
// the body read and parsed once, then mcp-go's answer (here a fixed one of
// get_company's size, written as mcp-go writes it, HTML escapes included)
// rewritten with the client's id and stdio's spelling of <, > and &.
//
//	go test -run '^$' -bench HTTPEdgeAnswer -benchmem ./internal/edge
func BenchmarkHTTPEdgeAnswer(b *testing.B) {
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_company","arguments":{"id":"cmp_000001"}}}`
	profile := `{"company":{"id":"cmp_000001","name":"Brightwater Analytics GmbH","domain":"brightwater-analytics.example",` +
		`"description":"` + strings.Repeat(`Data platforms for manufacturers \u0026 logistics firms. `, 6) + `",` +
		`"categories":["Software","Data \u0026 Analytics"],"employee_count":240,"contacts":[]},"note":"No contacts yet."}`
	text := strings.Repeat(`Brightwater Analytics GmbH (cmp_000001)\ndomain: brightwater-analytics.example\n`, 8)
	answer := []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + text +
		`"}],"structuredContent":` + profile + `}}` + "\n")
	inner := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(answer)
	})
	h := ReadMessage(0, httpEdge(nil, nil, nil, inner))
	b.SetBytes(int64(len(answer)))
	b.ReportAllocs()
	for b.Loop() {
		r := httptest.NewRequest(http.MethodPost, "/mcp", bytes.NewReader([]byte(body)))
		h.ServeHTTP(&discard{h: http.Header{}}, r)
	}
}
