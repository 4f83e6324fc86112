package bench_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/companyintel/mcp-server/internal/ops/telemetry/otlptest"
)

// BenchmarkTracing is the cost of tracing: the same calls with tracing off
// and on (exporting by OTLP/HTTP to a local receiver, which decodes every
// batch), in one run. ping is the cheapest request (a server span and
// nothing else); search_companies adds the GraphQL client span, the
// traceparent sent to the backend and the trace ids on the audit record.
// Besides ns/op, cpu-ns/op is the CPU the whole process used per call
// (server, backend, receiver and client alike): on a shared machine it
// moves far less than the wall time. The calls carry a client's
// traceparent in _meta, as a traced client sends them (sampled: every span
// is recorded and exported). Run it several times in a row and compare
// each on/off pair (BENCHMARKS.md):
//
//	go test -c -o /tmp/bench.test ./bench && cd bench &&
//	for i in 1 2 3 4 5 6 7 8; do /tmp/bench.test -test.run '^$' -test.bench Tracing -test.benchmem -test.benchtime 3000x; done
func BenchmarkTracing(b *testing.B) {
	backend := recordedBackend(b)
	recv := otlptest.Start(b)

	const meta = `"_meta":{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}`
	calls := map[string]func(id int) string{
		"ping": func(id int) string {
			return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping","params":{%s}}`, id, meta)
		},
		"search": func(id int) string {
			return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"search_companies","arguments":{"query":"software","country":"US","limit":20},%s}}`, id, meta)
		},
	}
	for _, call := range []string{"ping", "search"} {
		for _, tracing := range []string{"off", "on"} {
			b.Run(call+"/tracing="+tracing, func(b *testing.B) {
				env := map[string]string{}
				if tracing == "on" {
					env["OTEL_EXPORTER_OTLP_ENDPOINT"] = recv.URL
				}
				s, stop := runServerEnv(b, backend.URL+"/graphql", env)
				defer stop()
				for i := 1; i <= 50; i++ { // warm the connection and lazy state
					if ans := s.roundTrip(b, i, calls[call](i)); call == "search" && !bytes.Contains(ans, []byte(`"companies":[{`)) {
						b.Fatalf("the search found nothing; the benchmark needs a page of results: %.500s", ans)
					}
				}
				b.ReportAllocs()
				id := 1000
				cpu := startCPU()
				for b.Loop() {
					id++
					s.roundTrip(b, id, calls[call](id))
				}
				cpu.report(b)
			})
		}
	}
	if recv.Requests() == 0 {
		b.Fatal("tracing on exported nothing: the comparison would be void")
	}
}
