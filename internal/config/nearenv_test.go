package config

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A variable meant for the server but misnamed is warned about, naming the
// variable it was meant for: a missing letter, a transposition, another
// case, a prefix added or left off.
func TestAVariableCloseToOneOfTheServersIsNamed(t *testing.T) {
	for name, want := range map[string]string{
		"ALLOW_MUTATION":      "ALLOW_MUTATIONS",
		"ALOW_MUTATIONS":      "ALLOW_MUTATIONS",
		"allow_mutations":     "ALLOW_MUTATIONS",
		"MCP_ALLOW_MUTATIONS": "ALLOW_MUTATIONS",
		"MCP_ALLOW_MUTATION":  "ALLOW_MUTATIONS",
		"HTTP_ADDR":           "MCP_HTTP_ADDR",
		"MCP_HTTP_ADRR":       "MCP_HTTP_ADDR",
		"LOG_LEVL":            "LOG_LEVEL",
		"MCP_LOG_LEVEL":       "LOG_LEVEL",
		"MCP_REDIS_URL":       "REDIS_URL",
		"APPSYNC_ENDPIONT":    "APPSYNC_ENDPOINT",
		"RATE_LIMIT":          "RATE_LIMITS",
		"OIDC_SCOPE":          "OIDC_SCOPES",
		"OIDC_TOKEN_FIEL":     "OIDC_TOKEN_FILE",
		"OTEL_SERVICE_NAM":    "OTEL_SERVICE_NAME",
		"MCP_OAUTH_ISSUER":    "MCP_OAUTH_ISSUERS",
		"CONFIRM_WRITE":       "CONFIRM_WRITES",
		"MCP_EMBEDED":         "MCP_EMBEDDED",
	} {
		got := EnvironmentWarnings([]string{name + "=true"})
		if assert.Len(t, got, 1, name) {
			assert.Equal(t, EnvWarning{Name: name, Nearest: want}, got[0])
		}
	}
	w := EnvironmentWarnings([]string{"ALLOW_MUTATION=true"})[0].String()
	assert.Equal(t, "ALLOW_MUTATION is set but this server does not read it; did you mean ALLOW_MUTATIONS? (mcp-server --help lists every variable)", w)
}

// The server's own variables, the families it reads whole, the AWS SDK's
// and everything unrelated found in a shell, a container or a pod are left
// alone.
func TestUnrelatedVariablesAreNotWarnedAbout(t *testing.T) {
	environ := []string{
		"PATH=/usr/bin", "HOME=/root", "USER=me", "LOGNAME=me", "SHELL=/bin/sh", "TERM=xterm", "LANG=C.UTF-8", "LC_ALL=C",
		"PWD=/", "OLDPWD=/", "SHLVL=1", "HOSTNAME=pod-1", "TZ=UTC", "TMPDIR=/tmp", "EDITOR=vi", "PAGER=less", "DISPLAY=:0",
		"SSH_AUTH_SOCK=/x", "XDG_RUNTIME_DIR=/run", "XDG_CACHE_HOME=/c", "DBUS_SESSION_BUS_ADDRESS=x", "COLORTERM=truecolor",
		"GOPATH=/go", "GOROOT=/go", "GOFLAGS=-mod=mod", "GOCACHE=/c", "GOMODCACHE=/m", "GOPROXY=off", "GOOS=linux",
		"GOARCH=amd64", "GOMAXPROCS=2", "GOMEMLIMIT=1GiB", "GODEBUG=x=1", "GOTOOLCHAIN=local", "CGO_ENABLED=0", "GOGC=100",
		"HTTP_PROXY=x", "HTTPS_PROXY=x", "NO_PROXY=x", "http_proxy=x", "https_proxy=x", "no_proxy=x", "SSL_CERT_FILE=x",
		"SSL_CERT_DIR=x", "CI=true", "GITHUB_ACTIONS=true", "GITHUB_TOKEN=x", "RUNNER_OS=Linux", "NODE_ENV=production",
		"DEBUG=1", "REDIS_HOST=r", "REDIS_PORT=tcp://10.0.0.1:6379", "REDIS_PASSWORD=x", "DATABASE_URL=x", "LOG_FILE=x",
		"KUBERNETES_SERVICE_HOST=10.0.0.1", "KUBERNETES_SERVICE_PORT=443", "KUBERNETES_PORT=tcp://10.0.0.1:443",
		"COMPANY_INTEL_MCP_PORT=tcp://10.0.0.2:8080", "COMPANY_INTEL_MCP_SERVICE_HOST=10.0.0.2",
		"MCP_PORT=tcp://10.0.0.3:80", "MCP_SERVICE_HOST=10.0.0.3", "MCP_PORT_80_TCP_ADDR=10.0.0.3",
		"AWS_ACCESS_KEY=x", "AWS_SECRET_KEY=x", "AWS_SDK_LOAD_CONFIG=1", "AWS_CA_BUNDLE=x", "AWS_EC2_METADATA_DISABLED=true",
		"AWS_REGOIN=eu-west-1", "AWS_CONTAINER_CREDENTIALS_FULL_URI=x", "AWS_STS_REGIONAL_ENDPOINTS=regional",
		"OTEL_EXPORTER_OTLP_TRACES_HEADERS=x", "OTEL_BSP_MAX_QUEUE_SIZE=1", "OTEL_METRICS_EXPORTER=none",
		"OTEL_LOGS_EXPORTER=none", "OTEL_PROPAGATORS=tracecontext", "OTEL_LOG_LEVEL=info",
		"OTEL_EXPORTER_OTLP_METRICS_ENDPOINT=x", "OTEL_SERVICE_VERSION=1",
		"APPSYNC_ENDPOINT=x", "ALLOW_MUTATIONS=true", "MCP_HTTP_ADDR=:8080", "LOG_LEVEL=info", "OIDC_TOKEN_FILE=/t",
		"MCP_READ_SCOPE=a", "MCP_WRITE_SCOPE=b", "MCP_EXCHANGE_CLIENT_SECRET=x", "GOGC=off",
		"=C:=C:\\", "NOEQUALS",
	}
	assert.Empty(t, EnvironmentWarnings(environ))
}

// One warning per variable, in the order the environment lists them.
func TestEnvironmentWarningsInOrder(t *testing.T) {
	got := EnvironmentWarnings([]string{"LOG_LEVL=debug", "PATH=/bin", "ALLOW_MUTATION=1", "LOG_LEVL=info"})
	assert.Equal(t, []EnvWarning{{"LOG_LEVL", "LOG_LEVEL"}, {"ALLOW_MUTATION", "ALLOW_MUTATIONS"}}, got)
}
