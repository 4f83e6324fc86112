package bench_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"

	"github.com/companyintel/mcp-server/telemetry/otlptest"
)

// BenchmarkTracing is the cost of tracing: the same calls with tracing off
// and on (exporting by OTLP/HTTP to a local receiver, which decodes every
// batch), in one run. ping is the cheapest request (a server span and
// nothing else); search_companies adds the GraphQL client span, the
// traceparent sent to the backend and the trace ids on the audit record.
// Besides ns/op, cpu-ns/op is the CPU the whole process used per call
// (server, backend, receiver and client alike): on a shared machine it
// moves far less than the wall time. The calls carry a client's traceparent in _meta, as a traced client
// sends them (sampled: every span is recorded and exported).
//
//	go test -run '^$' -bench Tracing -benchmem -count 6 ./bench/
func BenchmarkTracing(b *testing.B) {
	answer := recordedAnswer(b)
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Write(answer)
	}))
	defer backend.Close()
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
					s.roundTrip(b, i, calls[call](i))
				}
				b.ReportAllocs()
				id := 1000
				cpu := processCPU(b)
				for b.Loop() {
					id++
					s.roundTrip(b, id, calls[call](id))
				}
				b.ReportMetric(float64(processCPU(b)-cpu)/float64(b.N), "cpu-ns/op")
			})
		}
	}
	if recv.Requests() == 0 {
		b.Fatal("tracing on exported nothing: the comparison would be void")
	}
}

// processCPU is the CPU time this process has used, user and system.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
