package telemetry

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// Why not otlptracehttp: the official OTLP/HTTP exporter imports the
// collector's service package, and with it all of gRPC and
// golang.org/x/net/trace, whose templates make the linker keep every
// exported method of every type: the release binary grew from 25 MB to
// 44 MB, and every start paid gRPC's package initialisation, tracing on or
// off. Nor the SDK's otlptrace exporter under a client of ours: its
// generated protobuf types cost every start too (otlpproto.go). This
// exporter writes the OTLP bytes itself and posts them, as the OTLP/HTTP
// specification says: one protobuf ExportTraceServiceRequest per batch.

// The exporter's variables, read as the specification defines them (the
// TRACES_ form wins over the general one).
const (
	EnvTimeout     = "OTEL_EXPORTER_OTLP_TIMEOUT"
	EnvCompression = "OTEL_EXPORTER_OTLP_COMPRESSION"
	EnvCertificate = "OTEL_EXPORTER_OTLP_CERTIFICATE"
	EnvClientCert  = "OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE"
	EnvClientKey   = "OTEL_EXPORTER_OTLP_CLIENT_KEY"
)

// defaultExportTimeout bounds one export when OTEL_EXPORTER_OTLP_TIMEOUT
// does not.
const defaultExportTimeout = 10 * time.Second

// maxAnswer bounds how much of a collector's answer is read.
const maxAnswer = 64 << 10

// otlpHTTP exports span batches to an OTLP/HTTP endpoint: the
// sdktrace.SpanExporter under the SDK's batch span processor.
type otlpHTTP struct {
	url     string
	shown   string // url without its query, for messages (redacted)
	headers map[string]string
	gzip    bool
	client  *http.Client
}

// tracesVar returns the TRACES_ form of key if set, else key's.
func tracesVar(get func(string) string, key string) (name, value string) {
	t := strings.Replace(key, "OTEL_EXPORTER_OTLP_", "OTEL_EXPORTER_OTLP_TRACES_", 1)
	if v := get(t); v != "" {
		return t, v
	}
	return key, get(key)
}

// newOTLPHTTP reads the exporter's settings. Every wrong value is an error
// naming its variable.
func newOTLPHTTP(endpoint string, get func(string) string) (*otlpHTTP, error) {
	c := &otlpHTTP{url: endpoint, shown: redacted(endpoint)}
	var err error
	if name, v := tracesVar(get, EnvHeaders); v != "" {
		if c.headers, err = parseHeaders(v); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	timeout := defaultExportTimeout
	if name, v := tracesVar(get, EnvTimeout); v != "" {
		ms, err := strconv.Atoi(v)
		if err != nil || ms <= 0 {
			return nil, fmt.Errorf("%s=%s: give milliseconds, e.g. 10000", name, v)
		}
		timeout = time.Duration(ms) * time.Millisecond
	}
	switch name, v := tracesVar(get, EnvCompression); v {
	case "", "none":
	case "gzip":
		c.gzip = true
	default:
		return nil, fmt.Errorf("%s=%s: use gzip or none", name, v)
	}
	tlsConfig, err := readTLS(get)
	if err != nil {
		return nil, err
	}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.TLSClientConfig = tlsConfig
	c.client = &http.Client{Transport: transport, Timeout: timeout}
	return c, nil
}

// parseHeaders reads "key1=value1,key2=value2", values percent-encoded as
// in W3C Baggage: the form of OTEL_EXPORTER_OTLP_HEADERS and of
// OTEL_RESOURCE_ATTRIBUTES.
func parseHeaders(s string) (map[string]string, error) {
	h := map[string]string{}
	for _, pair := range strings.Split(s, ",") {
		if strings.TrimSpace(pair) == "" {
			continue
		}
		k, v, ok := strings.Cut(pair, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			// The entry may hold a secret: it is not quoted.
			return nil, fmt.Errorf("an entry is not key=value; give key1=value1,key2=value2")
		}
		value, err := url.PathUnescape(strings.TrimSpace(v))
		if err != nil {
			return nil, fmt.Errorf("the value of %s is not valid percent-encoding", k)
		}
		h[k] = value
	}
	return h, nil
}

// readTLS reads the CA and client certificate files, if any.
func readTLS(get func(string) string) (*tls.Config, error) {
	caName, ca := tracesVar(get, EnvCertificate)
	certName, cert := tracesVar(get, EnvClientCert)
	keyName, key := tracesVar(get, EnvClientKey)
	if ca == "" && cert == "" && key == "" {
		return nil, nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if ca != "" {
		pem, err := os.ReadFile(ca)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", caName, err)
		}
		cfg.RootCAs = x509.NewCertPool()
		if !cfg.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("%s: %s holds no PEM certificate", caName, ca)
		}
	}
	if (cert == "") != (key == "") {
		return nil, fmt.Errorf("%s and %s go together: set both or neither", certName, keyName)
	}
	if cert != "" {
		pair, err := tls.LoadX509KeyPair(cert, key)
		if err != nil {
			return nil, fmt.Errorf("%s, %s: %w", certName, keyName, err)
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	return cfg, nil
}

var _ sdktrace.SpanExporter = (*otlpHTTP)(nil)

// Shutdown closes idle connections.
func (c *otlpHTTP) Shutdown(context.Context) error {
	c.client.CloseIdleConnections()
	return nil
}

// ExportSpans posts one batch. A batch the collector refuses is dropped
// (the SDK reports the error, and the server logs it): tracing must never
// hold a call up, and the next batch is tried afresh.
func (c *otlpHTTP) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	body := appendTraceRequest(make([]byte, 0, 512*len(spans)), spans)
	if len(body) == 0 {
		return nil
	}
	if err := c.post(ctx, body); err != nil {
		return fmt.Errorf("traces export: %w", err)
	}
	return nil
}

// post sends one encoded ExportTraceServiceRequest.
func (c *otlpHTTP) post(ctx context.Context, body []byte) error {
	if c.gzip {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		_, _ = zw.Write(body)
		if err := zw.Close(); err != nil {
			return err
		}
		body = buf.Bytes()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	for k, v := range c.headers {
		req.Header.Set(k, v)
	}
	req.Header.Set("Content-Type", "application/x-protobuf")
	if c.gzip {
		req.Header.Set("Content-Encoding", "gzip")
	}
	resp, err := c.client.Do(req)
	if err != nil {
		// url.Error repeats the whole URL, query included; the cause alone
		// is what the operator needs.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return fmt.Errorf("OTLP export to %s: %w", c.shown, err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxAnswer))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("OTLP export to %s: the collector answered %s", c.shown, resp.Status)
	}
	return nil
}

// redacted is an endpoint as logs show it: without its query, which some
// collectors take a key in.
func redacted(endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil {
		return "(unparsable URL)"
	}
	shown := u.Scheme + "://" + u.Host + u.Path
	if u.RawQuery != "" {
		shown += "?…"
	}
	return shown
}
