package app

import (
	"bytes"
	"context"
	"io"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTracingLinksNoGRPC: the release build links the OpenTelemetry SDK but
// not the collector's service package, which would bring all of gRPC and
// golang.org/x/net/trace (+19 MB, and gRPC's package initialisation on
// every start, tracing on or off: internal/ops/telemetry/otlphttp.go says why). The SDK
// being there shows the check looks in the right place.
func TestTracingLinksNoGRPC(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-tags", "noembedded", module+"/cmd/server").Output()
	require.NoError(t, err)
	all := strings.Fields(string(out))
	assert.Contains(t, all, "go.opentelemetry.io/otel/sdk/trace")
	for _, p := range all {
		for _, f := range []string{"google.golang.org/grpc", "golang.org/x/net/trace", "go.opentelemetry.io/proto/otlp/collector"} {
			if p == f || strings.HasPrefix(p, f+"/") {
				t.Errorf("the server links %s", p)
			}
		}
	}
}

// TestTelemetryKnowsNoMCPServerOrTools: tracing is one job, below the
// assembly: it reads a request's method, id and params, never mcp-go's
// server or the tools.
func TestTelemetryKnowsNoMCPServerOrTools(t *testing.T) {
	all := deps(t, "internal/ops/telemetry")
	for _, f := range []string{"github.com/mark3labs/mcp-go/server", "github.com/mark3labs/mcp-go/mcp", module + "/tools", module + "/app"} {
		assert.NotContains(t, all, f)
	}
}

// TestAWrongTracingSettingStopsStartUp: an OTEL_* variable that is set but
// cannot be honoured is a misconfiguration (exit code 2, naming it), never
// a server that quietly runs untraced.
func TestAWrongTracingSettingStopsStartUp(t *testing.T) {
	env := map[string]string{
		"APPSYNC_API_KEY":             "da2-test",
		"OTEL_EXPORTER_OTLP_ENDPOINT": "http://localhost:4317",
		"OTEL_EXPORTER_OTLP_PROTOCOL": "grpc",
	}
	getenv := func(k string) string { return env[k] }
	cfg, err := ParseConfig([]string{"--endpoint", "http://127.0.0.1:1/graphql"}, getenv, io.Discard)
	require.NoError(t, err)
	var stderr bytes.Buffer
	err = Run(context.Background(), cfg, Stdio{In: strings.NewReader(""), Out: io.Discard, Err: &stderr}, getenv)
	require.Error(t, err)
	assert.True(t, IsMisconfiguration(err))
	assert.Contains(t, err.Error(), "OTEL_EXPORTER_OTLP_PROTOCOL=grpc")
	assert.NotContains(t, stderr.String(), "starting mcp-server")
}
