package read

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/internal/untrusted"
	"github.com/companyintel/mcp-server/tools"
)

// An export is a whole search result as a file, for a person who wants
// more rows than fit in an answer: search_companies with export: true
// answers a resource_link instead of a page, and one resources/read of it
// returns every row, up to MaxExportRows, as CSV or (the same link ending
// .jsonl) JSON lines.
//
// The link carries the search itself, sealed (authenticated encryption
// under the key every replica shares) together with the caller it was made
// for and its expiry: no state is kept between the call and the read, any
// replica can serve the read, and a link is useless to anyone else. The
// read runs the search again, page by page as the caller (the same
// identity and credentials toward the backend as a tool call), and writes
// each page's rows as it arrives.

// ExportURIPrefix starts every export link; the sealed search and the
// format's extension follow.
const ExportURIPrefix = "companies://export/"

// ExportURITemplate is the links' RFC 6570 template, for the resource
// template the server serves them under.
const ExportURITemplate = ExportURIPrefix + "{export}"

// MaxExportRows bounds an export: a hundred backend pages.
const MaxExportRows = 10_000

// exportTTL is how long a link can be read.
const exportTTL = time.Hour

// exportPurpose binds a sealed token to this use: a token sealed for
// another (a confirmation's state) does not open as an export.
const exportPurpose = "search_companies export v1"

// exportSample is how many rows an export's call reads, to estimate the
// file's size from.
const exportSample = 10

// exportPage is the backend page size an export reads with: the largest.
const exportPage = 100

// The formats, by the link's extension.
const (
	extCSV   = ".csv"
	extJSONL = ".jsonl"
)

// Sealer seals an export's search into its link and opens it when read.
// sealed.Key is one.
type Sealer interface {
	Seal(purpose string, payload []byte) string
	Open(purpose, token string) ([]byte, error)
}

// exportSpec is what a link carries: the search as sent to the backend,
// the columns, whose it is and until when.
type exportSpec struct {
	Caller  string   `json:"c"`
	Expires int64    `json:"e"`
	Keyword string   `json:"k,omitempty"`
	Filters []string `json:"f,omitempty"`
	Exclude []string `json:"x,omitempty"`
	MinEmp  *int     `json:"lo,omitempty"`
	MaxEmp  *int     `json:"hi,omitempty"`
	FromYr  *int     `json:"fa,omitempty"`
	ToYr    *int     `json:"fb,omitempty"`
	Sort    string   `json:"s,omitempty"`
	Fields  []string `json:"p,omitempty"`

	// A download link (DownloadName) also carries its format, and how
	// the caller authenticated, since its request carries no credential:
	// the caller's auth method, and an OAuth user's issuer, subject and
	// scopes, so its rows are read as that same user.
	Format string   `json:"fmt,omitempty"`
	Method string   `json:"am,omitempty"`
	Issuer string   `json:"iss,omitempty"`
	User   string   `json:"sub,omitempty"`
	Scopes []string `json:"scp,omitempty"`
	Scoped bool     `json:"sd,omitempty"`
}

// caller is the caller a link was made for.
func (s exportSpec) caller() tools.Caller {
	return tools.Caller{ID: s.Caller, AuthMethod: s.Method, Issuer: s.Issuer, User: s.User, Scopes: s.Scopes, Scoped: s.Scoped}
}

func (s exportSpec) bounds() query.Bounds {
	return query.Bounds{MinEmployees: s.MinEmp, MaxEmployees: s.MaxEmp, FoundedAfter: s.FromYr, FoundedBefore: s.ToYr,
		Exclude: s.Exclude, Sort: query.CompanySort(s.Sort)}
}

// exportLinks seals spec and returns the CSV and JSON-lines links.
func exportLinks(s Sealer, spec exportSpec) (csvURI, jsonlURI string, err error) {
	b, err := json.Marshal(spec)
	if err != nil {
		return "", "", err
	}
	token := s.Seal(exportPurpose, b)
	return ExportURIPrefix + token + extCSV, ExportURIPrefix + token + extJSONL, nil
}

// ErrExport is a link that cannot be read: not made by this service,
// altered, expired or made for someone else. Which it was is said only
// when that helps the caller and no one else.
var ErrExport = errors.New("export link")

// ErrExpired is a link that opened but whose lifetime is over (it also
// matches ErrExport).
var ErrExpired = fmt.Errorf("%w: expired", ErrExport)

// Export writes the rows of the export at uri to w, reading the backend
// page by page as the caller in ctx, and returns the content's MIME type
// and how many rows it wrote. now is the clock the expiry is checked with.
// A link that does not open, has expired or is another caller's is refused
// before any backend call.
func Export(ctx context.Context, r query.Reader, s Sealer, now time.Time, uri string, w io.Writer) (mime string, rows int, err error) {
	o, err := OpenExport(ctx, s, now, uri)
	if err != nil {
		return "", 0, err
	}
	rows, err = o.Write(ctx, r, w)
	return o.MIME, rows, err
}

// Opened is an export whose link opened: its search, its format and whose
// it is. Write reads its rows.
type Opened struct {
	spec exportSpec
	// MIME is the file's content type: text/csv or application/jsonl.
	MIME string
	// Ext is the file name's extension, with its dot.
	Ext string
}

// Caller is whom the export was made for: the caller its rows are read as.
func (o Opened) Caller() tools.Caller { return o.spec.caller() }

// OpenExport checks an export link (companies://export/…) for the caller in
// ctx, without any backend call.
func OpenExport(ctx context.Context, s Sealer, now time.Time, uri string) (Opened, error) {
	rest, ok := strings.CutPrefix(uri, ExportURIPrefix)
	if !ok || s == nil {
		return Opened{}, fmt.Errorf("%w: %s is not an export of this server", ErrExport, tools.Excerpt(uri))
	}
	o, err := open(s, exportPurpose, now, rest, "call search_companies with export: true for a new one")
	if err != nil {
		return o, err
	}
	caller, _ := tools.CallerFrom(ctx)
	if caller.ID != o.spec.Caller {
		return Opened{}, fmt.Errorf("%w: it was made for another caller; call search_companies with export: true for your own", ErrExport)
	}
	return o, nil
}

// open opens name (a sealed token and a format's extension) for purpose.
func open(s Sealer, purpose string, now time.Time, name, again string) (Opened, error) {
	o := Opened{}
	token := name
	switch {
	case strings.HasSuffix(name, extCSV):
		token, o.MIME, o.Ext = strings.TrimSuffix(name, extCSV), "text/csv", extCSV
	case strings.HasSuffix(name, extJSONL):
		token, o.MIME, o.Ext = strings.TrimSuffix(name, extJSONL), "application/jsonl", extJSONL
	default:
		return o, fmt.Errorf("%w: the link ends in neither %s nor %s; use the link search_companies gave", ErrExport, extCSV, extJSONL)
	}
	b, err := s.Open(purpose, token)
	if err == nil {
		err = json.Unmarshal(b, &o.spec)
	}
	if err != nil || o.spec.Format != "" && o.spec.Format != o.Ext {
		return Opened{}, fmt.Errorf("%w: it was altered, cut short or not made by this service; %s", ErrExport, again)
	}
	if now.Unix() > o.spec.Expires {
		return Opened{}, fmt.Errorf("%w at %s; %s", ErrExpired, time.Unix(o.spec.Expires, 0).UTC().Format(time.RFC3339), again)
	}
	return o, nil
}

// Write writes the export's rows to w as they arrive, page by page (the
// whole file is never held), reading the backend as the caller in ctx, and
// returns how many rows it wrote.
func (o Opened) Write(ctx context.Context, r query.Reader, w io.Writer) (rows int, err error) {
	spec := o.spec
	cols := tools.AllColumns
	if len(spec.Fields) > 0 {
		cols = tools.ParseColumns(spec.Fields)
	}
	write := jsonlRow
	if o.MIME == "text/csv" {
		cw := csv.NewWriter(w)
		defer func() {
			// A failed export writes nothing more: a failure before the
			// first page leaves w untouched (the header is still in the
			// buffer), so it can be an answer of its own.
			if err == nil {
				cw.Flush()
				err = cw.Error()
			}
		}()
		if err := cw.Write(csvHeader(cols)); err != nil {
			return 0, err
		}
		write = func(_ io.Writer, s tools.Summary, cols tools.Columns) error { return cw.Write(csvRow(s, cols)) }
	}
	var next *string
	limit := exportPage
	for rows < MaxExportRows {
		page, err := r.SearchCompanies(ctx, tools.OptionalString(spec.Keyword), spec.Filters, spec.bounds(), &limit, next)
		if err != nil {
			return rows, err
		}
		if b := spec.bounds(); b.Refined() && searchTakesNoBounds(r) {
			return rows, fmt.Errorf("%w: the data API cannot apply this search's exclusions or sort, so the file would hold other companies than the search named; export without them", ErrExport)
		}
		for i := range page.Items {
			if rows == MaxExportRows {
				break
			}
			if err := write(w, summaryFrom(&page.Items[i], tools.DetailSummary), cols); err != nil {
				return rows, err
			}
			rows++
		}
		if page.NextToken == nil || *page.NextToken == "" || len(page.Items) == 0 {
			break
		}
		next = page.NextToken
	}
	return rows, nil
}

// columnNames lists the columns of cols, with the id first.
func columnNames(cols tools.Columns) []string {
	out := []string{"id"}
	for i, n := range tools.ColumnNames {
		if cols&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return out
}

func csvHeader(cols tools.Columns) []string { return columnNames(cols) }

// csvRow is one company as CSV fields; the categories are joined by "; ".
// A cell that would start a formula starts with a single quote instead.
func csvRow(s tools.Summary, cols tools.Columns) []string {
	row := []string{s.ID}
	num := func(p *int) string {
		if p == nil {
			return ""
		}
		return strconv.Itoa(*p)
	}
	for i := range tools.ColumnNames {
		switch c := tools.Columns(1 << i); {
		case cols&c == 0:
		case c == tools.ColName:
			row = append(row, s.Name)
		case c == tools.ColDomain:
			row = append(row, s.Domain)
		case c == tools.ColCountry:
			row = append(row, s.CountryCode)
		case c == tools.ColCity:
			row = append(row, s.City)
		case c == tools.ColCategories:
			row = append(row, strings.Join(s.Categories, "; "))
		case c == tools.ColEmployees:
			row = append(row, num(s.EmployeeCount))
		case c == tools.ColFounded:
			row = append(row, num(s.FoundedYear))
		case c == tools.ColDescription:
			row = append(row, s.Description())
		}
	}
	// No cell starts a spreadsheet formula (OWASP's CSV-injection rule).
	for i := range row {
		row[i] = untrusted.CSVCell(row[i])
	}
	return row
}

// jsonlRow writes one company as a line of JSON, the summary's fields and
// the whole description.
func jsonlRow(w io.Writer, s tools.Summary, cols tools.Columns) error {
	p := s.Project(cols)
	var b []byte
	var err error
	if cols&tools.ColDescription != 0 && s.Description() != "" {
		b, err = json.Marshal(struct {
			tools.Summary
			Description string `json:"description"`
		}{p, s.Description()})
	} else {
		b, err = json.Marshal(p)
	}
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// exportAnswer is search_companies' answer to export: true: the links, as
// resource_link content and in the note. Every link is marked for the user
// (annotations.audience), not for the model: a host that honours it keeps
// the file out of the model's context.
type exportAnswer struct {
	csv, jsonl string
	bytes      int64 // the CSV's estimated size
	file       File  // the person's file, if one was made
}

// ResourceLinks implements tools.Linked.
func (e exportAnswer) ResourceLinks() []mcp.ResourceLink {
	if e.csv == "" {
		return nil
	}
	forUser := func(l mcp.ResourceLink) mcp.ResourceLink {
		l.Annotations = &mcp.Annotations{Audience: []mcp.Role{mcp.RoleUser}}
		return l
	}
	var out []mcp.ResourceLink
	if e.file.URL != "" {
		l := mcp.NewResourceLink(e.file.URL, e.file.Name, fmt.Sprintf("The export for the user to open: %d rows, %s of CSV. "+
			"Give the user this link; do not read it into the conversation.", e.file.Rows, sizeWords(e.file.Bytes, e.file.BytesEstimated)), e.file.MIME)
		if !e.file.BytesEstimated {
			l.Size = &e.file.Bytes
		}
		out = append(out, forUser(l))
	}
	size := sizeWords(e.bytes, true)
	return append(out,
		forUser(mcp.NewResourceLink(e.csv, "companies.csv", "The rows as CSV, for programs ("+size+"); not for the conversation.", "text/csv")),
		forUser(mcp.NewResourceLink(e.jsonl, "companies.jsonl", "The same rows as JSON lines, for programs; not for the conversation.", "application/jsonl")))
}

// sizeWords says a size in bytes for a person: "about 820 KB".
func sizeWords(n int64, estimated bool) string {
	var s string
	switch {
	case n >= 1<<20:
		s = fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		s = fmt.Sprintf("%d KB", (n+512)>>10)
	default:
		s = fmt.Sprintf("%d bytes", n)
	}
	if estimated {
		return "about " + s
	}
	return s
}

// estimateRow is the average CSV size of a row of companies (the search's
// first page) with the export's columns; 200 bytes when there are none.
func estimateRow(companies []tools.Summary, fields []string) int64 {
	if len(companies) == 0 {
		return 200
	}
	cols := tools.AllColumns
	if len(fields) > 0 {
		cols = tools.ParseColumns(fields)
	}
	var n countingWriter
	cw := csv.NewWriter(&n)
	for _, c := range companies {
		_ = cw.Write(csvRow(c, cols))
	}
	cw.Flush()
	return (n.n + int64(len(companies)) - 1) / int64(len(companies))
}

// countingWriter counts what is written to it.
type countingWriter struct{ n int64 }

func (c *countingWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// exportNote says what the export holds, for whom each link is, and that
// none of it is to be read into the conversation.
func exportNote(total int, atLeast bool, csvURI string, file *File, why string) string {
	rows := fmt.Sprintf("all %s companies", tools.Count(total, atLeast))
	if total > MaxExportRows || atLeast && total >= MaxExportRows {
		rows = fmt.Sprintf("the first %d of %s companies (narrow the search for the rest)", MaxExportRows, tools.Count(total, atLeast))
	}
	programs := fmt.Sprintf("Programs can read the same rows from the resource_link %s (ending .jsonl: JSON lines; only you, for %s).", csvURI, exportTTL)
	if file == nil {
		return fmt.Sprintf("Export of %s, in this search's order. No file was made for the user: %s. %s "+
			"It is read from the data when opened; do not read it into this conversation.", rows, why, programs)
	}
	size := sizeWords(file.Bytes, file.BytesEstimated)
	if file.Expires != "" {
		return fmt.Sprintf("Export of %s, in this search's order: %d rows, %s of CSV, for the user to open. "+
			"Give the user this link to open or download in a browser: %s — anyone with it can open it until %s (%s), so share it only with the user. "+
			"Do not read it into this conversation. %s", rows, file.Rows, size, file.URL, file.Expires, DownloadTTL, programs)
	}
	return fmt.Sprintf("Export of %s, in this search's order, written to a file for the user: %s (%d rows, %s of CSV). "+
		"Give the user this link; do not read the file into this conversation. %s", rows, file.URL, file.Rows, size, programs)
}

// downloadPurpose binds a sealed download name to its use: an export link
// (companies://export/…) does not open as a download, nor the reverse.
const downloadPurpose = "search_companies download v1"

// DownloadTTL is how long a download link opens: long enough to click it,
// short enough that a link copied somewhere stops working soon.
const DownloadTTL = 15 * time.Minute

// Download is an export as the file a person opens, before anything is
// read: what a Delivery makes into a download link or a file.
type Download struct {
	spec   exportSpec
	reader query.Reader
	sealer Sealer
	// Rows is how many rows the file will hold (the search's total, up to
	// MaxExportRows); RowsAtLeast says the total was a lower bound.
	Rows        int
	RowsAtLeast bool
	// RowBytes estimates one row's size in the CSV, from the companies of
	// the search's first page.
	RowBytes int
	// Query is the search's keywords, for a file name.
	Query string
}

// Name returns the download's sealed file name (a token and ".csv"), which
// opens with OpenDownload until now+ttl, for the same caller.
func (d Download) Name(now time.Time, ttl time.Duration) (name string, expires time.Time) {
	spec := d.spec
	expires = now.Add(ttl).Truncate(time.Second)
	spec.Expires, spec.Format = expires.Unix(), extCSV
	b, _ := json.Marshal(spec) // plain fields: cannot fail
	return d.sealer.Seal(downloadPurpose, b) + extCSV, expires
}

// Write writes the CSV file to w, page by page as the backend answers,
// reading as the caller in ctx, and returns how many rows it wrote.
func (d Download) Write(ctx context.Context, w io.Writer) (rows int, err error) {
	return d.Opened().Write(ctx, d.reader, w)
}

// EstimatedBytes is the CSV's size, estimated from RowBytes.
func (d Download) EstimatedBytes() int64 {
	return int64(d.Rows*d.RowBytes) + int64(len(strings.Join(csvHeader(d.cols()), ","))+1)
}

func (d Download) cols() tools.Columns {
	if len(d.spec.Fields) > 0 {
		return tools.ParseColumns(d.spec.Fields)
	}
	return tools.AllColumns
}

// OpenDownload checks a download link's file name (a token and its
// extension) without any backend call. The request that carries it has no
// credential: the link itself is the capability, and Caller says whom its
// rows are read as.
func OpenDownload(s Sealer, now time.Time, name string) (Opened, error) {
	if s == nil {
		return Opened{}, fmt.Errorf("%w: this server makes no download links", ErrExport)
	}
	o, err := open(s, downloadPurpose, now, name, "ask for the export again for a new link")
	if err == nil && o.spec.Format == "" {
		return Opened{}, fmt.Errorf("%w: it was altered, cut short or not made by this service; ask for the export again for a new link", ErrExport)
	}
	return o, err
}

// A File is an export delivered for the person: a download URL (HTTP) or a
// file:// link to a file written in the operator's directory (stdio).
type File struct {
	// URL opens the file: https://…/exports/… or file:///….
	URL string `json:"url"`
	// Name is the file's name, as saved.
	Name string `json:"name"`
	// MIME is its content type.
	MIME string `json:"mime_type"`
	// Rows is how many companies it holds (rows after the header).
	Rows int `json:"rows"`
	// Bytes is its size: exact for a file written, estimated for a
	// download read when opened (BytesEstimated).
	Bytes          int64 `json:"bytes"`
	BytesEstimated bool  `json:"bytes_estimated,omitempty"`
	// Expires is when a download link stops working (RFC 3339); empty
	// for a file, which stays until someone deletes it.
	Expires string `json:"expires_at,omitempty"`
}

// A Delivery makes a Download into the file a person opens. A File with no
// URL and a nil error means this server delivers no file (stdio without an
// export directory), and why says so in the answer's note. On stdio it is
// the export's long part (every page is read and written): a task can run
// it later.
type Delivery interface {
	Deliver(ctx context.Context, d Download) (f File, why string, err error)
}

// FileName is a file name for an export of a search with keywords query,
// made at t, with ext: "companies-warehouse-robotics-20261203-1015.csv".
// Only ASCII letters, digits and hyphens come from the query.
func FileName(query string, t time.Time, ext string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(query) {
		if b.Len() >= 40 {
			break
		}
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	slug := strings.Trim(b.String(), "-")
	name := "companies-"
	if slug != "" {
		name += slug + "-"
	}
	return name + t.UTC().Format("20060102-1504") + ext
}

// FileName is the name a download of o is saved under.
func (o Opened) FileName(t time.Time) string { return FileName(o.spec.Keyword, t, o.Ext) }

// Opened is the download as an opened CSV export.
func (d Download) Opened() Opened { return Opened{spec: d.spec, MIME: "text/csv", Ext: extCSV} }
