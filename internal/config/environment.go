package config

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/companyintel/mcp-server/tools"
)

// EnvVar is one environment variable the server reads.
type EnvVar struct {
	Name, Meaning string
}

// Environment lists every variable the server reads, for --help and the
// README. A test checks it against the source, so a variable cannot be read
// without being listed.
var Environment = []EnvVar{
	{"APPSYNC_ENDPOINT", "AppSync GraphQL URL, as --endpoint"},
	{"MCP_EMBEDDED", "true to start the embedded backend, as --embedded"},
	{"MCP_DATA_DIR", "embedded backend's data directory, as --data-dir"},
	{"MCP_COMPANIES", "embedded backend's company count, as --companies"},
	{"MCP_AUTH", "force one auth method, as --auth"},
	{"ALLOW_MUTATIONS", "write tools to enable, as --allow-mutations"},
	{"HIDE_DISABLED_TOOLS", "true to hide disabled write tools, as --hide-disabled-tools"},
	{"MCP_FEEDBACK_TOOL", "true to serve report_missing_capability, as --feedback-tool"},
	{"MCP_SCHEMA_EXTENSIONS", "auto, on or off: whether the backend has the schema extensions, as --schema-extensions"},
	{"RATE_LIMITS", "TOOL=COUNT/PERIOD specs, comma-separated, as --rate-limit"},
	{"ERROR_CLASSES", "TYPE=CLASS specs, comma-separated, as --error-class"},
	{"REDIS_URL", "Redis for rate limits shared by replicas, as --redis-url"},
	{"MCP_HTTP_ADDR", "serve Streamable HTTP at this address, as --http"},
	{"MCP_PUBLIC_URL", "the URL clients use for /mcp (the token audience), as --public-url"},
	{"MCP_OAUTH_ISSUERS", "OAuth issuer URLs, comma-separated, as --oauth-issuer"},
	{"MCP_READ_SCOPE, MCP_WRITE_SCOPE", "scopes for read and write tools, as --read-scope and --write-scope"},
	{"MCP_UPSTREAM_AUTH", "exchange or service, as --upstream-auth"},
	{"MCP_ALLOWED_ORIGINS, MCP_ALLOWED_HOSTS", "comma-separated, as --allowed-origins and --allowed-hosts"},
	{"MCP_EXCHANGE_CLIENT_ID, MCP_EXCHANGE_CLIENT_SECRET", "the client the server authenticates to the issuer with for token exchange"},
	{"MCP_EXCHANGE_AUDIENCE", "the backend's audience exchanged tokens are issued for (AppSync's OIDC client id)"},
	{"MCP_EXCHANGE_TOKEN_URL", "the token endpoint for exchange (default: the issuer's, from its metadata)"},
	{"CONFIRM_WRITES", "off, ask or required: a person confirms each write, as --confirm-writes"},
	{"CONFIRM_STATE_KEY", "base64 of 32 random bytes (or file:PATH) sealing pending confirmations, shared by replicas, as --confirm-state-key"},
	{"MCP_MAX_ANSWER_BYTES", "the most bytes one tool answer may carry, as --max-answer-bytes"},
	{"LOG_FORMAT", "text or json, as --log-format"},
	{"LOG_LEVEL", "debug, info, warn or error, as --log-level"},
	{"OIDC_ISSUER", "OIDC issuer URL (https, or http on loopback)"},
	{"OIDC_AUDIENCE", "audience the AppSync API expects (default OIDC_CLIENT_ID)"},
	{"OIDC_TOKEN", "a JWT to send"},
	{"OIDC_TOKEN_FILE", "a file holding a JWT, re-read when it changes (keep it mode 0600)"},
	{"OIDC_REFRESH_TOKEN", "refresh token, with OIDC_CLIENT_ID"},
	{"OIDC_CLIENT_ID", "OAuth client id (refresh token or client credentials)"},
	{"OIDC_CLIENT_SECRET", "OAuth client secret"},
	{"OIDC_SCOPES", "scopes to ask the token endpoint for, space- or comma-separated"},
	{"APPSYNC_API_KEY", "AppSync API key, sent as x-api-key (last in the chain)"},
	{"AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN", "AWS credentials for SigV4"},
	{"AWS_PROFILE, AWS_REGION, AWS_DEFAULT_REGION, AWS_CONFIG_FILE, AWS_SHARED_CREDENTIALS_FILE", "AWS profile and region (read by the AWS SDK)"},
	{"AWS_ROLE_ARN, AWS_WEB_IDENTITY_TOKEN_FILE, AWS_CONTAINER_CREDENTIALS_*", "web identity and container roles (read by the AWS SDK)"},
	{"OTEL_EXPORTER_OTLP_ENDPOINT", "OTLP/HTTP collector base URL (/v1/traces is appended); tracing is off unless it or the next is set"},
	{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTLP/HTTP URL for traces, used as given (wins over the above)"},
	{"OTEL_EXPORTER_OTLP_HEADERS", "headers for the collector, key=value,… (then the endpoint must be https, or http on loopback)"},
	{"OTEL_EXPORTER_OTLP_TIMEOUT, OTEL_EXPORTER_OTLP_COMPRESSION", "export timeout in ms (default 10000); gzip or none"},
	{"OTEL_EXPORTER_OTLP_CERTIFICATE, OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE, OTEL_EXPORTER_OTLP_CLIENT_KEY", "PEM files: the collector's CA, and a client certificate and key for mTLS"},
	{"OTEL_EXPORTER_OTLP_TRACES_*", "each OTEL_EXPORTER_OTLP_ setting above for traces only; wins over the general one"},
	{"OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf, the only one served (grpc and http/json are refused)"},
	{"OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES", "service.name (default mcp-server) and other resource attributes of the spans"},
	{"OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG", "sampler (default parentbased_always_on: a client's sampled flag is kept) and its ratio"},
	{"OTEL_TRACES_EXPORTER", "otlp (default) or none to turn tracing off"},
	{"OTEL_SDK_DISABLED", "true turns tracing off"},
	{"OTEL_BSP_*", "batch span processor bounds: delay, queue and batch sizes (read by the OpenTelemetry SDK)"},
	{"GOGC", "Go's garbage collector target; when unset, a stdio server uses 400 until it has answered its first request after the handshake, then Go's default (100)"},
}

// PrintUsage writes every flag with its built-in default, then every
// environment variable the server reads: the part of --help that is
// configuration (the command line adds its commands above it). catalogue
// is as for Parse.
func PrintUsage(w io.Writer, catalogue []tools.Facts) {
	var c Config
	fs, _ := newFlagSet(&c, catalogue)
	fmt.Fprintln(w, "Flags:")
	PrintDefaults(w, fs)
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Environment (a flag given explicitly wins; for the comma-separated lists, the two add up):")
	for _, v := range Environment {
		fmt.Fprintf(w, "  %s\n    \t%s\n", v.Name, v.Meaning)
	}
}

// PrintDefaults is flag.PrintDefaults with each flag written as people
// write it, and as every message and document here does: --name, so that
// `--help | grep -e --name` finds its line.
func PrintDefaults(w io.Writer, fs *flag.FlagSet) {
	var b strings.Builder
	out := fs.Output()
	fs.SetOutput(&b)
	fs.PrintDefaults()
	fs.SetOutput(out)
	for line := range strings.SplitAfterSeq(b.String(), "\n") {
		if rest, ok := strings.CutPrefix(line, "  -"); ok {
			line = "  --" + rest
		}
		_, _ = io.WriteString(w, line)
	}
}
