package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/ratelimit"
	"github.com/companyintel/mcp-server/tools"
	"github.com/companyintel/mcp-server/tools/read"
)

// An export read (issue 36) runs a search again, up to a hundred backend
// pages, and so is bounded three ways before any backend call: the link
// must open (sealed, unexpired, the caller's own); the caller's own limit
// on export reads (ExportLimitKey, --export-limit) must allow it; and a
// slot of this process's cap on reads at once (--max-concurrent-exports)
// must be free, of which one caller holds at most half. A read past the
// cap is refused at once with a retry time, never queued. The rows are
// written as each page arrives: a download and a stdio file stream, and a
// resources/read holds one file, bounded by the cap. Every refusal and
// failure is said in plain words: which limit and when to retry, the
// backend's class and words, never a Go or network error.

// ExportLimitKey is the rate-limit key of export reads, beside the tools'.
const ExportLimitKey = "search_export"

// exportRetry is the wait suggested to a read refused because the
// process's reads are all taken.
const exportRetry = 5 * time.Second

// exportReads runs export reads within their bounds.
type exportReads struct {
	reader  query.Reader
	key     read.Sealer
	limiter tools.Limiter // nil: no per-caller limit
	now     func() time.Time
	log     *slog.Logger
	hint    func() string // says how to fix credentials the backend refused

	cap, perCaller int
	mu             sync.Mutex
	busy           int
	byCaller       map[string]int
}

// DefaultConcurrentExports is the cap on reads at once where none was
// configured (tests and the catalogue).
const DefaultConcurrentExports = 4

func newExportReads(r query.Reader, key read.Sealer, limiter tools.Limiter, concurrent int, now func() time.Time, log *slog.Logger) *exportReads {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if now == nil {
		now = time.Now
	}
	if concurrent <= 0 {
		concurrent = DefaultConcurrentExports
	}
	return &exportReads{reader: r, key: key, limiter: limiter, now: now, log: log,
		cap: concurrent, perCaller: max(1, concurrent/2), byCaller: map[string]int{}}
}

// exportRefusal is an export read refused or failed, in words for the
// person and the model, with what an HTTP answer needs.
type exportRefusal struct {
	class      tools.Class
	msg        string
	status     int
	retryAfter time.Duration
	err        error // for the log only
}

func (e *exportRefusal) Error() string { return e.msg }
func (e *exportRefusal) Unwrap() error { return e.err }

// acquire takes a slot for caller, or says why not.
func (x *exportReads) acquire(caller string) (release func(), _ *exportRefusal) {
	x.mu.Lock()
	defer x.mu.Unlock()
	switch {
	case x.byCaller[caller] >= x.perCaller:
		return nil, &exportRefusal{class: tools.RateLimited, status: http.StatusTooManyRequests, retryAfter: exportRetry,
			msg: fmt.Sprintf("export refused: you are already reading %d exports at once, the most one caller may; nothing was read. "+
				"Retry after %d s, when one has finished", x.perCaller, int(exportRetry.Seconds()))}
	case x.busy >= x.cap:
		return nil, &exportRefusal{class: tools.RateLimited, status: http.StatusServiceUnavailable, retryAfter: exportRetry,
			msg: fmt.Sprintf("export refused: this server is already reading %d exports at once, its limit; nothing was read. Retry after %d s",
				x.cap, int(exportRetry.Seconds()))}
	}
	x.busy++
	x.byCaller[caller]++
	return func() {
		x.mu.Lock()
		defer x.mu.Unlock()
		x.busy--
		if x.byCaller[caller]--; x.byCaller[caller] <= 0 {
			delete(x.byCaller, caller)
		}
	}, nil
}

// admit spends the caller's export-read token and takes a slot, in that
// order of cheapness; the link was already opened.
func (x *exportReads) admit(ctx context.Context, caller string) (release func(), err error) {
	if x.limiter != nil {
		d, err := x.limiter.Allow(ctx, ExportLimitKey, caller)
		if err != nil {
			cause := "it could not be reached"
			if se, ok := errors.AsType[*ratelimit.StoreError](err); ok {
				cause = se.Cause
			}
			return nil, &exportRefusal{class: tools.LimitStoreUnavailable, status: http.StatusServiceUnavailable, retryAfter: ratelimit.StoreRetryAfter, err: err,
				msg: fmt.Sprintf("export refused: the rate-limit store is unavailable (%s), and export reads have a limit per caller, so this one is refused "+
					"rather than read unlimited; nothing was read. Try again in %d s", cause, int(ratelimit.StoreRetryAfter.Seconds()))}
		}
		if !d.Allowed {
			return nil, &exportRefusal{class: tools.RateLimited, status: http.StatusTooManyRequests, retryAfter: d.RetryAfter,
				msg: fmt.Sprintf("export refused: export reads are limited to %s per caller, and yours are spent for now; nothing was read. Retry after %d s",
					d.Limit, d.RetryAfterSeconds())}
		}
	}
	release, refusal := x.acquire(caller)
	if refusal != nil {
		// Nothing was read: the caller's token is given back.
		if r, ok := x.limiter.(tools.Refunder); ok {
			_ = r.Refund(ctx, ExportLimitKey, caller)
		}
		return nil, refusal
	}
	return release, nil
}

// write reads o's rows into w as caller, within the bounds, and logs the
// read. written reports whether any byte reached w (after which a failure
// can no longer be an answer of its own).
func (x *exportReads) write(ctx context.Context, caller tools.Caller, o read.Opened, w io.Writer, via string) (rows int, bytes int64, err error) {
	release, err := x.admit(ctx, caller.ID)
	if err != nil {
		x.log.Info("export read", "via", via, "caller", caller.ID, "outcome", "refused", "reason", err.Error())
		return 0, 0, err
	}
	defer release()
	cw := &countWriter{w: w}
	start := time.Now()
	rows, err = o.Write(tools.WithCaller(ctx, caller), x.reader, cw)
	outcome := "ok"
	if err != nil {
		err = x.failure(err, caller, rows)
		outcome = "failed"
	}
	x.log.Info("export read", "via", via, "caller", caller.ID, "outcome", outcome, "rows", rows, "bytes", cw.n,
		"duration", time.Since(start).Round(time.Millisecond).String())
	return rows, cw.n, err
}

// failure says a read's failure in plain words: the backend's class and
// words (tools.Classify never shows a Go or network error), or why the
// link could not be served.
func (x *exportReads) failure(err error, caller tools.Caller, rows int) error {
	if errors.Is(err, read.ErrExport) {
		return &exportRefusal{class: tools.InvalidArguments, status: http.StatusConflict, msg: err.Error(), err: err}
	}
	if errors.Is(err, errClientGone) {
		return &exportRefusal{class: tools.BackendError, status: 499, msg: "export stopped: the download was closed", err: err}
	}
	hint := ""
	if x.hint != nil {
		hint = x.hint()
	}
	e := tools.Classify(err, hint, caller.AuthMethod)
	r := &exportRefusal{class: e.Class, status: http.StatusBadGateway, retryAfter: e.RetryAfter, err: err,
		msg: fmt.Sprintf("export failed [%s] after %d rows: %s", e.Class, rows, e.Message)}
	if e.Class == tools.BackendTimeout {
		r.status = http.StatusGatewayTimeout
	}
	return r
}

// errClientGone is a download whose reader went away.
var errClientGone = errors.New("the client closed the download")

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	if err != nil {
		err = fmt.Errorf("%w: %w", errClientGone, err)
	}
	return n, err
}

// resource serves search_companies' export links (companies://export/…csv
// or …jsonl) as a resources/read: for programs, as the answer says. The
// read runs the sealed search again as the caller reading it, through the
// same Reader and so the same identity toward the backend as a tool call,
// and returns every row up to read.MaxExportRows.
func (x *exportReads) resource() server.ServerResourceTemplate {
	return server.ServerResourceTemplate{
		Template: mcp.NewResourceTemplate(read.ExportURITemplate, "search_export",
			mcp.WithTemplateDescription("A search_companies result as a file (CSV, or JSON lines for a link ending .jsonl), "+
				"up to 10,000 rows, for programs; links come from search_companies with export: true and open only for their caller, for an hour."),
			mcp.WithTemplateMIMEType("text/csv")),
		Handler: func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			uri := req.Params.URI
			caller, ok := tools.CallerFrom(ctx)
			if !ok {
				return nil, errors.New("export: no caller identity; the server is misconfigured")
			}
			o, err := read.OpenExport(ctx, x.key, x.now(), uri)
			if err != nil {
				return nil, err
			}
			var b strings.Builder
			if _, _, err := x.write(ctx, caller, o, &b, "resource"); err != nil {
				return nil, err
			}
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: uri, MIMEType: o.MIME, Text: b.String()}}, nil
		},
	}
}
