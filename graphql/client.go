package graphql

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/Khan/genqlient/graphql"
	segjson "github.com/segmentio/encoding/json"
	"go.opentelemetry.io/otel/trace"
)

// DefaultTimeout bounds every call when the Client is given no timeout.
const DefaultTimeout = 15 * time.Second

// maxBody caps how much of a response is read. The largest legitimate answer
// (100 companies with contacts) is far below it.
const maxBody = 16 << 20

// bodyExcerpt is how much of an unparseable body an Error keeps.
const bodyExcerpt = 512

// Client posts GraphQL operations to one AppSync endpoint. Authentication is
// the job of the http.Client's Transport (see package auth), which sees the
// exact body being sent, as SigV4 signing needs.
//
// Client implements genqlient's graphql.Client, but code outside this package
// should hold a Reader or a Writer, never the Client itself.
type Client struct {
	endpoint string
	http     *http.Client
	timeout  time.Duration
	retry    Retry
	// tracer, when set, makes each request a client span (trace.go).
	tracer trace.Tracer
}

// NewClient returns a Client for endpoint. A nil httpClient means
// http.DefaultClient; a timeout of 0 means DefaultTimeout.
func NewClient(endpoint string, httpClient *http.Client, timeout time.Duration) *Client {
	if httpClient == nil {
		httpClient = http.DefaultClient
	}
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	return &Client{endpoint: endpoint, http: httpClient, timeout: timeout, retry: DefaultRetry}
}

// SetRetry replaces the retry policy (DefaultRetry unless set). Call it
// before the client is used.
func (c *Client) SetRetry(r Retry) { c.retry = r }

// Endpoint returns the URL the client posts to.
func (c *Client) Endpoint() string { return c.endpoint }

// wireResponse is a GraphQL response body in AppSync's shape.
type wireResponse struct {
	Data   json.RawMessage `json:"data"`
	Errors []GraphQLError  `json:"errors"`
}

// MakeRequest implements graphql.Client. Every failure is an *Error. The
// timeout bounds the whole call, retries included (see Retry).
func (c *Client) MakeRequest(ctx context.Context, req *graphql.Request, resp *graphql.Response) error {
	op := req.OpName
	body, err := requestBody(req)
	if err != nil {
		// Variables are built by generated code; failing here is a bug.
		return fmt.Errorf("%s: encoding request: %w", op, err)
	}

	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	attempts := 1
	if retries(req) {
		attempts = max(c.retry.Attempts, 1)
	}
	var kind string
	if c.tracer != nil {
		kind = operationType(req)
	}
	for n := 1; ; n++ {
		err := c.attempt(ctx, op, kind, n, body, resp)
		if err == nil || n >= attempts {
			return withAttempts(err, n)
		}
		d, ok := c.retry.wait(ctx, err, n)
		if !ok || c.retry.sleep(ctx, d) != nil {
			return withAttempts(err, n)
		}
	}
}

// requestBody is json.Marshal(req), byte for byte, with the document and
// the operation name encoded once per operation: the document is most of
// a body (a query with its fragments, several hundred bytes) and the same
// on every call of an operation, while encoding/json reads it byte by byte
// for escapes each time. Only the variables are encoded per call.
func requestBody(req *graphql.Request) ([]byte, error) {
	d, err := encodedDocument(req.Query, req.OpName)
	if err != nil {
		return nil, err
	}
	var vars []byte
	if req.Variables != nil { // omitempty: only a nil interface is left out
		if vars, err = json.Marshal(req.Variables); err != nil {
			return nil, err
		}
	}
	body := make([]byte, 0, len(`{"query":,"variables":,"operationName":}`)+len(d.query)+len(vars)+len(d.opName))
	body = append(body, `{"query":`...)
	body = append(body, d.query...)
	if vars != nil {
		body = append(body, `,"variables":`...)
		body = append(body, vars...)
	}
	body = append(body, `,"operationName":`...)
	body = append(body, d.opName...)
	return append(body, '}'), nil
}

// document is an operation's document and name as JSON strings.
type document struct {
	op            string // the name encoded in opName
	query, opName []byte
}

// documents holds each operation's document, by its text. The documents
// are the generated operations' constants (and Ping's), a fixed set;
// maxDocuments bounds it all the same, past which a document is encoded
// each time.
var (
	documents     sync.Map
	documentCount atomic.Int32
)

const maxDocuments = 256

// encodedDocument is query and op as json.Marshal writes them, from
// documents when they are there.
func encodedDocument(query, op string) (document, error) {
	if d, ok := documents.Load(query); ok && d.(document).op == op {
		return d.(document), nil
	}
	d := document{op: op}
	var err error
	if d.query, err = json.Marshal(query); err != nil {
		return d, err
	}
	if d.opName, err = json.Marshal(op); err != nil {
		return d, err
	}
	if documentCount.Add(1) <= maxDocuments {
		documents.Store(query, d)
	}
	return d, nil
}

// withAttempts records on err how many attempts were made.
func withAttempts(err error, n int) error {
	var e *Error
	if n > 1 && errors.As(err, &e) {
		e.Attempts = n
	}
	return err
}

// attempt sends the request once: the n-th time, an operation of the given
// kind (query or mutation; known only when tracing).
func (c *Client) attempt(ctx context.Context, op, kind string, n int, body []byte, resp *graphql.Response) error {
	hreq, err := http.NewRequestWithContext(withOperation(ctx, op), http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("%s: building request: %w", op, err)
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "application/json")
	if c.tracer == nil {
		_, err = c.exchange(ctx, hreq, op, resp)
		return err
	}
	span := c.startSpan(hreq, op, kind, n)
	status, err := c.exchange(ctx, hreq, op, resp)
	endSpan(span, status, err)
	return err
}

// exchange sends hreq and reads the answer into resp. It returns the HTTP
// status (0 when none came) and the failure, an *Error.
func (c *Client) exchange(ctx context.Context, hreq *http.Request, op string, resp *graphql.Response) (int, error) {
	hresp, err := c.http.Do(hreq)
	if err != nil {
		return 0, networkError(ctx, op, err)
	}
	defer hresp.Body.Close()
	return hresp.StatusCode, read(ctx, hresp, op, resp)
}

// bodies are the buffers answers are read into, reused: io.ReadAll grows
// a new buffer from 512 bytes by doubling, which for a 9 KB search page
// allocated 32 KB, the largest allocation of a call, and a backend that
// streams its answer without a Content-Length leaves nothing to size it
// by. Nothing keeps an answer's bytes once read returns: every decode here
// copies the strings and raw messages it keeps.
var bodies = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledBody is the largest buffer put back in bodies, so that one
// huge answer does not stay in memory for the life of the process.
const maxPooledBody = 1 << 20

// readBody reads at most maxBody bytes of an answer into buf.
func readBody(hresp *http.Response, buf *bytes.Buffer) error {
	if n := hresp.ContentLength; n > 0 && n <= maxBody {
		buf.Grow(int(n) + bytes.MinRead) // room for the read that finds the end
	}
	_, err := buf.ReadFrom(io.LimitReader(hresp.Body, maxBody))
	return err
}

// read reads an answer into resp.
func read(ctx context.Context, hresp *http.Response, op string, resp *graphql.Response) error {
	buf := bodies.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= maxPooledBody {
			buf.Reset()
			bodies.Put(buf)
		}
	}()
	if err := readBody(hresp, buf); err != nil {
		return networkError(ctx, op, err)
	}
	raw := buf.Bytes()

	if hresp.StatusCode/100 == 2 && decodeData(raw, resp.Data) {
		return nil
	}

	e := &Error{Operation: op, StatusCode: hresp.StatusCode, RetryAfter: retryAfter(hresp.Header),
		HeaderErrorType: errorTypeHeader(hresp.Header)}
	var wr wireResponse
	if jerr := json.Unmarshal(raw, &wr); jerr != nil || (wr.Data == nil && wr.Errors == nil) {
		e.Kind = KindMalformed
		if hresp.StatusCode/100 != 2 {
			e.Kind = KindHTTP
		}
		e.Body = excerpt(raw)
		e.Err = jerr
		return e
	}
	e.Errors = wr.Errors
	if hresp.StatusCode/100 != 2 {
		e.Kind = KindHTTP
		if len(wr.Errors) == 0 {
			e.Body = excerpt(raw)
		}
		return e
	}
	hasData := len(wr.Data) > 0 && string(wr.Data) != "null"
	if hasData {
		if jerr := json.Unmarshal(wr.Data, resp.Data); jerr != nil {
			e.Kind = KindMalformed
			e.Body = excerpt(wr.Data)
			e.Err = jerr
			return e
		}
	}
	if len(wr.Errors) > 0 {
		e.Kind = KindGraphQL
		e.PartialData = hasData && rootsPresent(wr.Data)
		return e
	}
	if !hasData {
		e.Kind = KindMalformed
		e.Body = excerpt(raw)
		return e
	}
	return nil
}

// decodeData decodes the common answer, data and no errors, into dst in
// one pass, and reports whether raw was such an answer. Every other answer
// (errors, null or missing data, anything that does not decode) is left to
// attempt's careful path, which decodes it again from the start and says
// exactly what was wrong, so this path changes no outcome.
//
// Decoding the envelope with data kept raw and then the data would pass
// over the data four times (the validity check and the decode of each
// Unmarshal); this passes twice. The search answers are the largest reads:
// decoding them was a third of the server's CPU per search call, so this
// one decode uses github.com/segmentio/encoding/json, a drop-in for
// encoding/json that decodes the same answers in about half the time.
// FuzzDecodeDataAgreesWithEncodingJSON holds it to encoding/json's result
// whenever it takes an answer; whatever it refuses, encoding/json decides.
func decodeData(raw []byte, dst any) bool {
	target := reflect.ValueOf(dst)
	if target.Kind() != reflect.Pointer || target.IsNil() {
		return false // genqlient always passes a pointer to its response
	}
	// encoding/json decodes into the pointer an interface holds; data null
	// sets the interface to nil.
	env := struct {
		Data   any            `json:"data"`
		Errors []GraphQLError `json:"errors"`
	}{Data: dst}
	if segjson.Unmarshal(raw, &env) != nil || len(env.Errors) > 0 || env.Data == nil {
		return false
	}
	// Data missing leaves dst as it was, zero: the careful path calls that
	// malformed. (Data that decodes to zero takes the careful path too.)
	return !target.Elem().IsZero()
}

// causeReset is the Cause of a connection that broke before the answer was
// complete: the one network failure worth another attempt.
const causeReset = "connection reset before the answer was complete"

// networkError names what went wrong below HTTP without exposing the Go error,
// whose text carries addresses and type names.
func networkError(ctx context.Context, op string, err error) error {
	e := &Error{Operation: op, Err: err}
	var dnsErr *net.DNSError
	var netErr net.Error
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded):
		e.Kind, e.Cause = KindTimeout, "timeout: no answer before the deadline"
	case errors.Is(ctx.Err(), context.Canceled):
		e.Kind, e.Cause = KindCanceled, "canceled by the caller"
	case errors.As(err, &dnsErr):
		e.Kind, e.Cause = KindUnreachable, "DNS lookup failed for "+dnsErr.Name
	case errors.Is(err, syscall.ECONNREFUSED):
		e.Kind, e.Cause = KindUnreachable, "connection refused"
	case errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		e.Kind, e.Cause = KindUnreachable, causeReset
	case errors.As(err, &netErr) && netErr.Timeout():
		e.Kind, e.Cause = KindTimeout, "timeout: no answer before the deadline"
	default:
		e.Kind, e.Cause = KindUnreachable, "connection failed"
	}
	return e
}

// rootsPresent reports whether every root field of data is non-null. Each
// operation here selects one root field; when it is null the errors took it,
// and nothing that arrived is worth keeping.
func rootsPresent(data json.RawMessage) bool {
	var roots map[string]json.RawMessage
	if json.Unmarshal(data, &roots) != nil || len(roots) == 0 {
		return false
	}
	for _, v := range roots {
		if len(v) == 0 || string(v) == "null" {
			return false
		}
	}
	return true
}

// errorTypeHeader reads x-amzn-ErrorType, which AWS services set as
// "Type:detail" or "Type"; only the type is kept.
func errorTypeHeader(h http.Header) string {
	t, _, _ := strings.Cut(h.Get("x-amzn-ErrorType"), ":")
	return strings.TrimSpace(t)
}

// retryAfter reads a Retry-After header given in seconds.
func retryAfter(h http.Header) time.Duration {
	s, err := strconv.Atoi(h.Get("Retry-After"))
	if err != nil || s < 0 {
		return 0
	}
	return time.Duration(s) * time.Second
}

// excerpt keeps the start of a body, cut on a rune boundary.
func excerpt(b []byte) string {
	if len(b) > bodyExcerpt {
		b = b[:bodyExcerpt]
		for len(b) > 0 && !utf8.Valid(b) {
			b = b[:len(b)-1]
		}
		return string(b) + "…"
	}
	return string(b)
}
