package telemetry

import (
	"bytes"
	"context"
	"log/slog"
	"runtime/pprof"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"

	"github.com/companyintel/mcp-server/internal/ops/telemetry/otlptest"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// sdkGoroutines counts goroutines running the SDK's code (its batch span
// processor's loop): none may exist while tracing is off.
func sdkGoroutines(t *testing.T) int {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, pprof.Lookup("goroutine").WriteTo(&buf, 2))
	return strings.Count(buf.String(), "go.opentelemetry.io/otel/sdk/trace.")
}

func TestTracingIsOffWithoutATracesEndpoint(t *testing.T) {
	cases := map[string]map[string]string{
		"nothing set": {},
		"everything but an endpoint": {
			EnvServiceName: "x", EnvSampler: "always_on", EnvHeaders: "api-key=secret",
			"OTEL_EXPORTER_OTLP_METRICS_ENDPOINT": "http://localhost:4318/v1/metrics",
		},
		"OTEL_SDK_DISABLED":         {EnvEndpoint: "http://localhost:4318", EnvDisabled: "TRUE"},
		"OTEL_TRACES_EXPORTER=none": {EnvEndpoint: "http://localhost:4318", EnvExporter: "none"},
	}
	for name, vars := range cases {
		t.Run(name, func(t *testing.T) {
			tr, err := New(context.Background(), Settings{Getenv: env(vars)})
			require.NoError(t, err)
			assert.Nil(t, tr, "tracing off is a nil *Tracing: no provider, no exporter")
			assert.Zero(t, sdkGoroutines(t), "a goroutine of the SDK is running")
			assert.NoError(t, tr.Shutdown(), "Shutdown is safe on nil")
		})
	}
}

func TestEndpointsAsTheSpecificationReadsThem(t *testing.T) {
	cases := []struct {
		vars map[string]string
		want string
	}{
		{map[string]string{EnvEndpoint: "http://localhost:4318"}, "http://localhost:4318/v1/traces"},
		{map[string]string{EnvEndpoint: "https://otlp.example.com/base/"}, "https://otlp.example.com/base/v1/traces"},
		{map[string]string{EnvTracesEndpoint: "https://otlp.example.com/custom", EnvEndpoint: "http://localhost:4318"}, "https://otlp.example.com/custom"},
		// Plain http to a collector on the cluster network: spans hold no
		// secrets, and no headers are sent.
		{map[string]string{EnvEndpoint: "http://otel-collector.observability:4318"}, "http://otel-collector.observability:4318/v1/traces"},
		// Headers over http on loopback are fine.
		{map[string]string{EnvEndpoint: "http://127.0.0.1:4318", EnvHeaders: "x-key=secret"}, "http://127.0.0.1:4318/v1/traces"},
	}
	for _, c := range cases {
		cfg, on, err := readConfig(env(c.vars))
		require.NoError(t, err, "%v", c.vars)
		assert.True(t, on)
		assert.Equal(t, c.want, cfg.endpoint, "%v", c.vars)
	}
}

// TestWrongSettingsStopStartUpNamingTheVariable: a setting that is there
// but cannot be honoured is refused, never replaced by a default, and the
// refusal never quotes a header's value.
func TestWrongSettingsStopStartUpNamingTheVariable(t *testing.T) {
	const ep = "http://localhost:4318"
	cases := map[string]struct {
		vars  map[string]string
		names string
	}{
		"exporter":               {map[string]string{EnvEndpoint: ep, EnvExporter: "zipkin"}, EnvExporter},
		"grpc":                   {map[string]string{EnvEndpoint: ep, EnvProtocol: "grpc"}, EnvProtocol},
		"traces grpc":            {map[string]string{EnvEndpoint: ep, "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "http/json"}, "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"},
		"no scheme":              {map[string]string{EnvEndpoint: "localhost:4318"}, "OTLP endpoint"},
		"headers in clear":       {map[string]string{EnvEndpoint: "http://collector.example.com:4318", EnvHeaders: "api-key=s3cr3t"}, EnvHeaders},
		"traces headers":         {map[string]string{EnvEndpoint: "http://collector.example.com:4318", "OTEL_EXPORTER_OTLP_TRACES_HEADERS": "api-key=s3cr3t"}, EnvHeaders},
		"password in URL":        {map[string]string{EnvEndpoint: "https://user:s3cr3t@collector.example.com"}, EnvHeaders},
		"sampler":                {map[string]string{EnvEndpoint: ep, EnvSampler: "jaeger_remote"}, EnvSampler},
		"sampler ratio":          {map[string]string{EnvEndpoint: ep, EnvSampler: "traceidratio", EnvSamplerArg: "1.5"}, EnvSamplerArg},
		"resource":               {map[string]string{EnvEndpoint: ep, EnvResourceAttributes: "s3cr3t"}, EnvResourceAttributes},
		"timeout":                {map[string]string{EnvEndpoint: ep, EnvTimeout: "10s"}, EnvTimeout},
		"compression":            {map[string]string{EnvEndpoint: ep, EnvCompression: "zstd"}, EnvCompression},
		"headers":                {map[string]string{EnvEndpoint: ep, EnvHeaders: "s3cr3t"}, EnvHeaders},
		"client cert alone":      {map[string]string{EnvEndpoint: ep, EnvClientCert: "/nonexistent.pem"}, EnvClientKey},
		"CA file missing":        {map[string]string{EnvEndpoint: ep, EnvCertificate: "/nonexistent/ca.pem"}, EnvCertificate},
		"traces timeout":         {map[string]string{EnvEndpoint: ep, "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT": "-1"}, "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT"},
		"endpoint not http(s)":   {map[string]string{EnvTracesEndpoint: "grpc://localhost:4317"}, "OTLP endpoint"},
		"endpoint without host":  {map[string]string{EnvTracesEndpoint: "http:///v1/traces"}, "OTLP endpoint"},
		"key in query, not http": {map[string]string{EnvTracesEndpoint: "grpc://localhost:4317?api-key=s3cr3t"}, "OTLP endpoint"},
		"key in query, in clear": {map[string]string{EnvTracesEndpoint: "http://collector.example.com:4318/v1/traces?api-key=s3cr3t",
			EnvHeaders: "x=y"}, EnvHeaders},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			tr, err := New(context.Background(), Settings{Getenv: env(c.vars)})
			require.Error(t, err)
			assert.Nil(t, tr)
			assert.Contains(t, err.Error(), c.names)
			assert.NotContains(t, err.Error(), "s3cr3t")
			assert.Zero(t, sdkGoroutines(t))
		})
	}
}

func TestSamplers(t *testing.T) {
	for name, want := range map[string]string{
		"":                         "ParentBased{root:AlwaysOnSampler",
		"always_on":                "AlwaysOnSampler",
		"always_off":               "AlwaysOffSampler",
		"parentbased_always_off":   "ParentBased{root:AlwaysOffSampler",
		"traceidratio":             "AlwaysOnSampler", // no ratio: all
		"parentbased_traceidratio": "ParentBased{root:AlwaysOnSampler",
	} {
		s, err := sampler(name, "")
		require.NoError(t, err, name)
		assert.Contains(t, s.Description(), want, name)
	}
	s, err := sampler("traceidratio", "0.25")
	require.NoError(t, err)
	assert.Contains(t, s.Description(), "TraceIDRatioBased{0.25}")
}

// TestSpansReachTheCollectorWhenTracingStops: New against a local OTLP
// receiver, one server span, Shutdown: the span is at the receiver when
// Shutdown returns, with the resource and the configured headers, gzipped.
func TestSpansReachTheCollectorWhenTracingStops(t *testing.T) {
	recv := otlptest.Start(t)
	var logs bytes.Buffer
	tr, err := New(context.Background(), Settings{
		Getenv: env(map[string]string{
			EnvEndpoint: recv.URL, EnvHeaders: "x-api-key=a%20key", EnvCompression: "gzip",
			EnvServiceName: "svc-test", EnvResourceAttributes: "deployment.environment=test",
		}),
		ServiceVersion: "v9.9.9",
		Logger:         slog.New(slog.NewTextHandler(&logs, nil)),
	})
	require.NoError(t, err)
	require.NotNil(t, tr)
	assert.Equal(t, recv.URL+"/v1/traces", tr.Endpoint())
	tr.SetTargets("search_companies")

	_, span := tr.StartServer(context.Background(), Request{Method: "tools/call", ID: "1", Transport: Pipe,
		Params: []byte(`{"name":"search_companies","arguments":{"query":"x"}}`)})
	Finish(span, Outcome{})
	require.NoError(t, tr.Shutdown())

	spans := recv.Spans()
	require.Len(t, spans, 1, "the span was exported by the time Shutdown returned")
	assert.Equal(t, "tools/call search_companies", spans[0].Name)
	assert.Equal(t, tracepb.Span_SPAN_KIND_SERVER, spans[0].Kind)
	assert.Equal(t, "svc-test", spans[0].Service)
	assert.Equal(t, "a key", recv.Header().Get("x-api-key"))
	assert.Equal(t, "gzip", recv.Header().Get("Content-Encoding"))
	assert.Empty(t, logs.String(), "the export succeeded: nothing to report")
	assert.Zero(t, sdkGoroutines(t), "Shutdown stopped the batch processor")
}

func TestAFailedExportIsLoggedNotFatal(t *testing.T) {
	recv := otlptest.Start(t)
	var logs bytes.Buffer
	tr, err := New(context.Background(), Settings{
		// A path the receiver answers 404: the collector refuses the batch.
		Getenv: env(map[string]string{EnvTracesEndpoint: recv.URL + "/wrong"}),
		Logger: slog.New(slog.NewTextHandler(&logs, nil)),
	})
	require.NoError(t, err)
	_, span := tr.StartServer(context.Background(), Request{Method: "ping", Transport: Pipe})
	Finish(span, Outcome{})
	require.NoError(t, tr.Shutdown(), "the batch processor reports export errors to the handler, not to Shutdown")
	assert.Equal(t, 1, recv.Requests())
	assert.Contains(t, logs.String(), "level=WARN")
	assert.Contains(t, logs.String(), "the collector answered 404 Not Found")
}

func TestAQueryInTheEndpointIsNeverShown(t *testing.T) {
	recv := otlptest.Start(t)
	var logs bytes.Buffer
	tr, err := New(context.Background(), Settings{
		Getenv: env(map[string]string{EnvTracesEndpoint: recv.URL + "/elsewhere?api_key=s3cr3t"}),
		Logger: slog.New(slog.NewTextHandler(&logs, nil)),
	})
	require.NoError(t, err)
	assert.Equal(t, recv.URL+"/elsewhere?…", tr.Endpoint())
	_, span := tr.StartServer(context.Background(), Request{Method: "ping", Transport: Pipe})
	Finish(span, Outcome{})
	require.NoError(t, tr.Shutdown())
	assert.Contains(t, logs.String(), "404", "the refused export is logged")
	assert.NotContains(t, logs.String(), "s3cr3t")
}
