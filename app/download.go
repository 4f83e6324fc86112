package app

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/companyintel/mcp-server/internal/oauth/exchange"
	"github.com/companyintel/mcp-server/tools"
	"github.com/companyintel/mcp-server/tools/read"
)

// An export ends in a file the person can open (issue 37): over HTTP a
// download URL on the service's public URL, which a browser opens with a
// plain GET and no token; on stdio, where the server runs on the person's
// machine, a CSV file written in the directory the operator named
// (--export-dir), returned as a file:// link, and no file anywhere without
// one. The answer tells the model the rows and the size and that the link
// is the person's, so that it does not read the file into its context.

// downloadPrefix is the path downloads are served under, beside /mcp.
const downloadPrefix = "/exports/"

// downloadTimeout bounds one download: a hundred backend pages.
const downloadTimeout = 2 * time.Minute

// httpDelivery makes download links: the sealed name (the search, its
// caller, its expiry) under base, the public URL's directory + /exports/.
// Nothing is read until the link is opened.
type httpDelivery struct {
	base string
	now  func() time.Time
}

// downloadBase is where download links live for the public URL pub: beside
// its /mcp ("https://host/team/mcp" → "https://host/team/exports/").
func downloadBase(pub *url.URL) string {
	u := *pub
	u.Path = path.Join(path.Dir(pub.Path), downloadPrefix) + "/"
	u.RawPath, u.RawQuery, u.Fragment = "", "", ""
	return u.String()
}

// Deliver implements read.Delivery.
func (h httpDelivery) Deliver(_ context.Context, d read.Download) (read.File, string, error) {
	now := h.now()
	name, expires := d.Name(now, read.DownloadTTL)
	return read.File{
		URL: h.base + name, Name: read.FileName(d.Query, now, ".csv"), MIME: "text/csv",
		Rows: d.Rows, Bytes: d.EstimatedBytes(), BytesEstimated: true, Expires: expires.UTC().Format(time.RFC3339),
	}, "", nil
}

// noFile is the delivery of a stdio server without --export-dir: none.
type noFile struct{}

func (noFile) Deliver(context.Context, read.Download) (read.File, string, error) {
	return read.File{}, "this server has no export directory (its operator can start it with --export-dir DIR to have files written there)", nil
}

// dirDelivery writes the export's CSV in the operator's directory, through
// an os.Root so that nothing is written outside it, under a name the
// server makes, created exclusively (never over an existing file) and
// readable by its owner only. The write is an export read: it spends the
// caller's export limit and a slot of the cap.
type dirDelivery struct {
	root *os.Root
	dir  string
	x    *exportReads
	now  func() time.Time
}

// openExportDir opens the --export-dir directory.
func openExportDir(dir string, x *exportReads) (*dirDelivery, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("--export-dir %s cannot be opened: %w", dir, err)
	}
	return &dirDelivery{root: root, dir: dir, x: x, now: time.Now}, nil
}

// Deliver implements read.Delivery.
func (dd *dirDelivery) Deliver(ctx context.Context, d read.Download) (read.File, string, error) {
	caller, _ := tools.CallerFrom(ctx)
	base := strings.TrimSuffix(read.FileName(d.Query, dd.now(), ".csv"), ".csv")
	var f *os.File
	var name string
	var err error
	for range 5 {
		name = base + "-" + strings.ToLower(rand.Text()[:6]) + ".csv"
		f, err = dd.root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if !errors.Is(err, os.ErrExist) {
			break
		}
	}
	if err != nil {
		dd.x.log.Warn("export file not created", "dir", dd.dir, "error", err.Error())
		return read.File{}, "", &tools.Error{Class: tools.BackendError, Err: err,
			Message: "the export file could not be created in the server's export directory; nothing was written. Tell the operator to check --export-dir (it must exist and be writable)"}
	}
	rows, n, err := dd.x.write(ctx, caller, d.Opened(), f, "file")
	if cerr := f.Close(); err == nil && cerr != nil {
		err = &exportRefusal{class: tools.BackendError, msg: "the export file could not be written completely in the server's export directory (is the disk full?)", err: cerr}
	}
	if err != nil {
		_ = dd.root.Remove(name) // a partial file is no file
		return read.File{}, "", toolError(err)
	}
	p := filepath.Join(dd.dir, name)
	return read.File{URL: (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String(), Name: name, MIME: "text/csv", Rows: rows, Bytes: n}, "", nil
}

// toolError is an export read's failure as a tool's error.
func toolError(err error) error {
	var r *exportRefusal
	if !errors.As(err, &r) {
		return err
	}
	return &tools.Error{Class: r.class, Message: r.msg, Retryable: r.retryAfter > 0, RetryAfter: r.retryAfter, Err: r.err}
}

// downloads serves GET /exports/{name}: a download link's CSV (or JSON
// lines), streamed as the backend's pages arrive, to whoever holds the
// link. The link is the capability: it opens only unaltered (any change
// to its path, an added query, another encoding of it is refused), until
// its expiry, and reads as the caller it was made for. The name is never
// logged in full.
func downloads(x *exportReads) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := r.PathValue("name")
		refuse := func(status int, msg string, retry time.Duration) {
			h := w.Header()
			h.Set("Cache-Control", "no-store")
			if retry > 0 {
				h.Set("Retry-After", strconv.Itoa(int((retry+time.Second-1)/time.Second)))
			}
			http.Error(w, msg, status)
		}
		if r.RequestURI != downloadPrefix+name || strings.ContainsAny(name, "/%?") {
			x.log.Info("export download refused", "name", redactName(name), "reason", "not the link as made")
			refuse(http.StatusNotFound, "This download link is not valid: it was changed. Ask for the export again for a new link.", 0)
			return
		}
		o, err := read.OpenDownload(x.key, x.now(), name)
		if err != nil {
			x.log.Info("export download refused", "name", redactName(name), "reason", err.Error())
			if errors.Is(err, read.ErrExpired) {
				refuse(http.StatusGone, "This download link has expired. Ask for the export again for a new link.", 0)
				return
			}
			refuse(http.StatusNotFound, "This download link is not valid: it was changed, cut short or not made by this service. Ask for the export again for a new link.", 0)
			return
		}
		caller := o.Caller()
		ctx, cancel := context.WithTimeout(r.Context(), downloadTimeout)
		defer cancel()
		if caller.Scoped {
			// No bearer token comes with a download: the user's backend
			// token is the one the exchange cached for their call.
			ctx = exchange.WithSubject(ctx, exchange.Subject{Issuer: caller.Issuer, Subject: caller.User, Scopes: caller.Scopes})
		}
		_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(downloadTimeout + 5*time.Second))
		lw := &lazyHeaders{w: w, start: func(h http.Header) {
			h.Set("Content-Type", o.MIME+"; charset=utf-8")
			h.Set("Content-Disposition", `attachment; filename="`+o.FileName(x.now())+`"`)
			h.Set("Cache-Control", "no-store")
			h.Set("X-Content-Type-Options", "nosniff")
			h.Set("Referrer-Policy", "no-referrer")
			h.Set("X-Robots-Tag", "noindex")
		}}
		_, _, err = x.write(ctx, caller, o, lw, "download")
		if err == nil {
			if !lw.started { // no byte yet (cannot happen for a CSV: it has a header)
				lw.begin()
			}
			return
		}
		if lw.started {
			// Part of the file went out: cut the connection, so that the
			// browser shows a failed download rather than a short file.
			panic(http.ErrAbortHandler)
		}
		var re *exportRefusal
		if errors.As(err, &re) {
			refuse(re.status, re.msg, re.retryAfter)
			return
		}
		refuse(http.StatusBadGateway, "The export failed; ask for it again.", 0)
	})
}

// redactName keeps the start of a download name, for logs: enough to tell
// two apart, too little to open one.
func redactName(name string) string {
	if len(name) <= 8 {
		return "…"
	}
	return name[:8] + "…"
}

// lazyHeaders sends the success headers with the first byte, so that a
// failure before any row is an error answer of its own.
type lazyHeaders struct {
	w       http.ResponseWriter
	start   func(http.Header)
	started bool
}

func (l *lazyHeaders) begin() {
	l.started = true
	l.start(l.w.Header())
	l.w.WriteHeader(http.StatusOK)
}

func (l *lazyHeaders) Write(p []byte) (int, error) {
	if !l.started {
		l.begin()
	}
	return l.w.Write(p)
}
