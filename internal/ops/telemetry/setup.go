package telemetry

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/go-logr/logr"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/companyintel/mcp-server/auth"
)

// ShutdownTimeout bounds the flush of the spans still queued when the
// server stops (end of input, SIGTERM): a collector that is down must not
// hold the exit up.
const ShutdownTimeout = 5 * time.Second

// instrumentation names this server's tracer, as the scope of its spans.
const instrumentation = "github.com/companyintel/mcp-server"

// Settings are what New needs besides the environment.
type Settings struct {
	// Getenv reads the environment (os.Getenv in the server).
	Getenv func(string) string
	// ServiceVersion is the server's version, for service.version.
	ServiceVersion string
	// Logger receives the SDK's own errors (an export that failed).
	Logger *slog.Logger
}

// Tracing is tracing switched on: the SDK's provider, exporting by OTLP over
// HTTP in batches. A nil *Tracing is tracing off.
type Tracing struct {
	endpoint   string
	provider   *sdktrace.TracerProvider
	tracer     trace.Tracer
	propagator propagation.TextMapPropagator
	// targets are the tools and prompts served, the only names that go
	// into span names (SetTargets).
	targets map[string]bool
}

// The OpenTelemetry environment variables the server reads, through
// Settings.Getenv (the batch processor's OTEL_BSP_* are read by the SDK).
const (
	EnvDisabled           = "OTEL_SDK_DISABLED"
	EnvExporter           = "OTEL_TRACES_EXPORTER"
	EnvEndpoint           = "OTEL_EXPORTER_OTLP_ENDPOINT"
	EnvTracesEndpoint     = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"
	EnvProtocol           = "OTEL_EXPORTER_OTLP_PROTOCOL"
	EnvHeaders            = "OTEL_EXPORTER_OTLP_HEADERS"
	EnvServiceName        = "OTEL_SERVICE_NAME"
	EnvResourceAttributes = "OTEL_RESOURCE_ATTRIBUTES"
	EnvSampler            = "OTEL_TRACES_SAMPLER"
	EnvSamplerArg         = "OTEL_TRACES_SAMPLER_ARG"
	defaultServiceName    = "mcp-server"
)

// config is the tracing configuration read from the environment.
type config struct {
	endpoint string // the full URL spans are posted to
	sampler  sdktrace.Sampler
	service  string
	resource []attribute.KeyValue // OTEL_RESOURCE_ATTRIBUTES
}

// New sets tracing up from the environment. It returns nil, and starts
// nothing, when tracing is off: no endpoint set, OTEL_SDK_DISABLED=true or
// OTEL_TRACES_EXPORTER=none. A setting that is there but wrong is an error
// that names it, so that start-up stops rather than running untraced.
func New(ctx context.Context, s Settings) (*Tracing, error) {
	cfg, on, err := readConfig(s.Getenv)
	if err != nil || !on {
		return nil, err
	}
	client, err := newOTLPHTTP(cfg.endpoint, func(k string) string { return strings.TrimSpace(s.Getenv(k)) })
	if err != nil {
		return nil, err
	}
	routeErrors(s.Logger)
	res, err := resource.New(ctx,
		resource.WithTelemetrySDK(),
		resource.WithAttributes(cfg.resource...),
		resource.WithAttributes(attribute.String("service.name", cfg.service), attribute.String("service.version", s.ServiceVersion)),
	)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", EnvResourceAttributes, err)
	}
	tp := sdktrace.NewTracerProvider(
		sdktrace.WithBatcher(client),
		sdktrace.WithResource(res),
		sdktrace.WithSampler(cfg.sampler),
	)
	return newTracing(cfg.endpoint, tp), nil
}

// newTracing wraps a provider; tests give it one that records in memory.
func newTracing(endpoint string, tp *sdktrace.TracerProvider) *Tracing {
	return &Tracing{
		endpoint:   endpoint,
		provider:   tp,
		tracer:     tp.Tracer(instrumentation),
		propagator: propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}),
	}
}

// Endpoint is the URL spans are exported to, without its query (which
// may hold a key): for the start-up line.
func (t *Tracing) Endpoint() string { return redacted(t.endpoint) }

// Tracer is the tracer for spans of this server's own (the GraphQL
// client's).
func (t *Tracing) Tracer() trace.Tracer { return t.tracer }

// SetTargets names the tools and prompts the server serves: a span is
// named after its tool or prompt only when it is one of these, so that a
// client cannot fill a tracing backend with names of its choosing. Call it
// before serving.
func (t *Tracing) SetTargets(names ...string) {
	t.targets = make(map[string]bool, len(names))
	for _, n := range names {
		t.targets[n] = true
	}
}

// Shutdown exports the spans still queued and stops the exporter, waiting
// at most ShutdownTimeout. Safe on a nil *Tracing.
func (t *Tracing) Shutdown() error {
	if t == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), ShutdownTimeout)
	defer cancel()
	if err := t.provider.Shutdown(ctx); err != nil {
		return fmt.Errorf("flushing traces: %w", err)
	}
	return nil
}

// readConfig reads the standard variables. on is false when tracing is
// off.
func readConfig(getenv func(string) string) (cfg config, on bool, err error) {
	get := func(k string) string { return strings.TrimSpace(getenv(k)) }
	if strings.EqualFold(get(EnvDisabled), "true") {
		return cfg, false, nil
	}
	switch e := strings.ToLower(get(EnvExporter)); e {
	case "", "otlp":
	case "none":
		return cfg, false, nil
	default:
		return cfg, false, fmt.Errorf("%s=%s: this server exports traces only by OTLP; set otlp, or none to turn tracing off", EnvExporter, e)
	}
	switch {
	case get(EnvTracesEndpoint) != "":
		cfg.endpoint = get(EnvTracesEndpoint)
	case get(EnvEndpoint) != "":
		// The base URL: the signal's path is appended, as the
		// specification says for this variable.
		cfg.endpoint = strings.TrimSuffix(get(EnvEndpoint), "/") + "/v1/traces"
	default:
		return cfg, false, nil
	}
	_, headers := tracesVar(get, EnvHeaders)
	if err := checkEndpoint(cfg.endpoint, headers != ""); err != nil {
		return cfg, false, err
	}
	if k, p := tracesVar(get, EnvProtocol); p != "" && p != "http/protobuf" {
		return cfg, false, fmt.Errorf("%s=%s: this server exports OTLP as http/protobuf; set that (or leave it unset) and point the endpoint at the collector's HTTP port (usually 4318)", k, p)
	}
	if cfg.sampler, err = sampler(get(EnvSampler), get(EnvSamplerArg)); err != nil {
		return cfg, false, err
	}
	if v := get(EnvResourceAttributes); v != "" {
		pairs, err := parseHeaders(v)
		if err != nil {
			return cfg, false, fmt.Errorf("%s: %w", EnvResourceAttributes, err)
		}
		for k, v := range pairs {
			cfg.resource = append(cfg.resource, attribute.String(k, v))
		}
	}
	cfg.service = get(EnvServiceName)
	if cfg.service == "" {
		cfg.service = defaultServiceName
		for _, kv := range cfg.resource {
			if kv.Key == "service.name" {
				cfg.service = kv.Value.AsString()
			}
		}
	}
	return cfg, true, nil
}

// checkEndpoint refuses an endpoint that is not an http(s) URL with a host,
// and one that would carry credentials in clear. Spans themselves hold no
// secrets (see the package doc), so plain http to a collector on the
// cluster network is accepted; but OTLP headers usually hold a vendor's API
// key, and credentials never cross plain http except to this machine.
func checkEndpoint(raw string, headers bool) error {
	u, err := url.Parse(raw)
	switch {
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "":
		// Shown without its query, which may hold a collector's key.
		return fmt.Errorf("OTLP endpoint %q: give an http or https URL with a host, e.g. http://localhost:4318", redacted(raw))
	case u.User != nil:
		return fmt.Errorf("OTLP endpoint %s://%s…: it carries a user name or password; put credentials in %s instead", u.Scheme, u.Hostname(), EnvHeaders)
	case headers:
		// The check reads scheme and host only; its message quotes the URL,
		// so it is given the URL without the query.
		bare := *u
		bare.RawQuery, bare.Fragment = "", ""
		if err := auth.CheckSecureURL(bare.String()); err != nil {
			return fmt.Errorf("OTLP endpoint with %s set: %w", EnvHeaders, err)
		}
	}
	return nil
}

// sampler reads OTEL_TRACES_SAMPLER and its argument, as the SDK would,
// but refuses a wrong value instead of falling back quietly.
func sampler(name, arg string) (sdktrace.Sampler, error) {
	ratio := func() (sdktrace.Sampler, error) {
		if arg == "" {
			return sdktrace.AlwaysSample(), nil
		}
		r, err := strconv.ParseFloat(arg, 64)
		if err != nil || r < 0 || r > 1 {
			return nil, fmt.Errorf("%s=%s: give a ratio from 0 to 1, e.g. 0.25", EnvSamplerArg, arg)
		}
		return sdktrace.TraceIDRatioBased(r), nil
	}
	switch strings.ToLower(name) {
	case "", "parentbased_always_on":
		return sdktrace.ParentBased(sdktrace.AlwaysSample()), nil
	case "always_on":
		return sdktrace.AlwaysSample(), nil
	case "always_off":
		return sdktrace.NeverSample(), nil
	case "parentbased_always_off":
		return sdktrace.ParentBased(sdktrace.NeverSample()), nil
	case "traceidratio":
		return ratio()
	case "parentbased_traceidratio":
		s, err := ratio()
		if err != nil {
			return nil, err
		}
		return sdktrace.ParentBased(s), nil
	}
	return nil, fmt.Errorf("%s=%s: use always_on, always_off, traceidratio, parentbased_always_on (the default), parentbased_always_off or parentbased_traceidratio", EnvSampler, name)
}

// errorLogger is where the SDK's errors go: the latest server's logger. The
// SDK has one process-wide error handler, and tests run several servers.
var errorLogger atomic.Pointer[slog.Logger]

// routeErrors sends the SDK's errors and its internal log to logger, as
// structured lines on stderr, instead of the standard library's logger.
func routeErrors(logger *slog.Logger) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if errorLogger.Swap(logger) != nil {
		return
	}
	otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) {
		if l := errorLogger.Load(); l != nil && err != nil {
			l.Warn("tracing: the OpenTelemetry SDK reported an error", "err", err.Error())
		}
	}))
	otel.SetLogger(logr.FromSlogHandler(discardBelowWarn{}))
}

// discardBelowWarn passes the SDK's internal log to errorLogger at warn
// and above; its info and debug lines are for the SDK's own developers.
type discardBelowWarn struct{}

func (discardBelowWarn) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelWarn }

func (discardBelowWarn) Handle(ctx context.Context, r slog.Record) error {
	if l := errorLogger.Load(); l != nil {
		return l.Handler().Handle(ctx, r)
	}
	return nil
}

func (h discardBelowWarn) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h discardBelowWarn) WithGroup(string) slog.Handler      { return h }
