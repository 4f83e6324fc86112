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

// Export writes the rows of the export at uri to w, reading the backend
// page by page as the caller in ctx, and returns the content's MIME type
// and how many rows it wrote. now is the clock the expiry is checked with.
// A link that does not open, has expired or is another caller's is refused
// before any backend call.
func Export(ctx context.Context, r query.Reader, s Sealer, now time.Time, uri string, w io.Writer) (mime string, rows int, err error) {
	spec, mime, err := openExport(ctx, s, now, uri)
	if err != nil {
		return "", 0, err
	}
	cols := tools.AllColumns
	if len(spec.Fields) > 0 {
		cols = tools.ParseColumns(spec.Fields)
	}
	write := jsonlRow
	if mime == "text/csv" {
		cw := csv.NewWriter(w)
		defer cw.Flush()
		if err := cw.Write(csvHeader(cols)); err != nil {
			return mime, 0, err
		}
		write = func(_ io.Writer, s tools.Summary, cols tools.Columns) error { return cw.Write(csvRow(s, cols)) }
	}
	var next *string
	limit := exportPage
	for rows < MaxExportRows {
		page, err := r.SearchCompanies(ctx, tools.OptionalString(spec.Keyword), spec.Filters, spec.bounds(), &limit, next)
		if err != nil {
			return mime, rows, err
		}
		if b := spec.bounds(); b.Refined() && searchTakesNoBounds(r) {
			return mime, rows, fmt.Errorf("%w: the data API cannot apply this search's exclusions or sort, so the file would hold other companies than the search named; export without them", ErrExport)
		}
		for i := range page.Items {
			if rows == MaxExportRows {
				break
			}
			if err := write(w, summaryFrom(&page.Items[i], tools.DetailSummary), cols); err != nil {
				return mime, rows, err
			}
			rows++
		}
		if page.NextToken == nil || *page.NextToken == "" || len(page.Items) == 0 {
			break
		}
		next = page.NextToken
	}
	return mime, rows, nil
}

// openExport checks a link and returns its search and MIME type.
func openExport(ctx context.Context, s Sealer, now time.Time, uri string) (exportSpec, string, error) {
	var spec exportSpec
	rest, ok := strings.CutPrefix(uri, ExportURIPrefix)
	if !ok || s == nil {
		return spec, "", fmt.Errorf("%w: %s is not an export of this server", ErrExport, tools.Excerpt(uri))
	}
	token, mime := rest, ""
	switch {
	case strings.HasSuffix(rest, extCSV):
		token, mime = strings.TrimSuffix(rest, extCSV), "text/csv"
	case strings.HasSuffix(rest, extJSONL):
		token, mime = strings.TrimSuffix(rest, extJSONL), "application/jsonl"
	default:
		return spec, "", fmt.Errorf("%w: the link ends in neither %s nor %s; use the link search_companies gave", ErrExport, extCSV, extJSONL)
	}
	b, err := s.Open(exportPurpose, token)
	if err == nil {
		err = json.Unmarshal(b, &spec)
	}
	if err != nil {
		return spec, "", fmt.Errorf("%w: it was altered, cut short or not made by this service; call search_companies with export: true for a new one", ErrExport)
	}
	caller, _ := tools.CallerFrom(ctx)
	if caller.ID != spec.Caller {
		return spec, "", fmt.Errorf("%w: it was made for another caller; call search_companies with export: true for your own", ErrExport)
	}
	if now.Unix() > spec.Expires {
		return spec, "", fmt.Errorf("%w: it expired at %s; call search_companies with export: true for a new one", ErrExport,
			time.Unix(spec.Expires, 0).UTC().Format(time.RFC3339))
	}
	return spec, mime, nil
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
// resource_link content and in the note.
type exportAnswer struct {
	csv, jsonl string
}

// ResourceLinks implements tools.Linked.
func (e exportAnswer) ResourceLinks() []mcp.ResourceLink {
	if e.csv == "" {
		return nil
	}
	return []mcp.ResourceLink{
		mcp.NewResourceLink(e.csv, "companies.csv", "The search's companies as CSV, one row each.", "text/csv"),
		mcp.NewResourceLink(e.jsonl, "companies.jsonl", "The same rows as JSON lines.", "application/jsonl"),
	}
}

// exportNote says what the links hold and how to read them.
func exportNote(total int, atLeast bool, csvURI string) string {
	rows := fmt.Sprintf("all %s companies", tools.Count(total, atLeast))
	if total > MaxExportRows || atLeast && total >= MaxExportRows {
		rows = fmt.Sprintf("the first %d of %s companies (narrow the search for the rest)", MaxExportRows, tools.Count(total, atLeast))
	}
	return fmt.Sprintf("Export of %s, in this search's order: read the resource_link %s (CSV; the same link ending .jsonl gives JSON lines). "+
		"Only you can read it, for %s; it is read from the data when opened.", rows, csvURI, exportTTL)
}
