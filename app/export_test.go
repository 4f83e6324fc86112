package app

import (
	"context"
	"encoding/base64"
	"encoding/csv"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/graphql"
	"github.com/companyintel/mcp-server/graphql/query"
	"github.com/companyintel/mcp-server/internal/sealed"
	"github.com/companyintel/mcp-server/ratelimit"
	"github.com/companyintel/mcp-server/tools"
	"github.com/companyintel/mcp-server/tools/read"
)

// Issues 36 and 37: export reads are bounded (a limit per caller, a cap on
// reads at once per process), fail in plain words, and end in a file the
// person opens: a download link over HTTP, a file in --export-dir on stdio.

// gatedReader counts the export pages asked of the backend and, while
// hold is open, keeps each read waiting at its first page.
type gatedReader struct {
	query.Reader
	calls   atomic.Int64
	entered chan struct{}
	hold    chan struct{}
}

func (g *gatedReader) SearchCompanies(ctx context.Context, k *string, f []string, b query.Bounds, limit *int, next *string) (*query.CompanyPage, error) {
	g.calls.Add(1)
	if next == nil && g.hold != nil {
		g.entered <- struct{}{}
		<-g.hold
	}
	return g.Reader.SearchCompanies(ctx, k, f, b, limit, next)
}

// exportServer is a server over the shared test backend whose export
// reads go through x.
type exportServer struct {
	t   *testing.T
	s   *server.MCPServer
	x   *exportReads
	key *sealed.Key
}

func backendReader(t *testing.T) query.Reader {
	client := instantRetries(graphql.NewClient(backend(t).URL(), &http.Client{Transport: headers{map[string]string{"x-test-user": "exports"}, http.DefaultTransport}}, 0))
	return query.NewReader(client)
}

func newExportServer(t *testing.T, exportReader query.Reader, limiter tools.Limiter, concurrent int, now func() time.Time, delivery func(*exportReads) read.Delivery) *exportServer {
	key := sealed.RandomKey()
	x := newExportReads(exportReader, key, limiter, concurrent, now, slog.New(slog.DiscardHandler))
	p := Parts{
		Reader:         backendReader(t),
		Limiter:        ratelimit.New(nil),
		Runtime:        tools.Runtime{Logger: slog.New(slog.DiscardHandler)},
		Version:        "test",
		ValidateOutput: true,
		exports:        x,
	}
	if delivery != nil {
		p.Delivery = delivery(x)
	}
	s, _ := NewMCPServer(p)
	return &exportServer{t: t, s: s, x: x, key: key}
}

// export calls search_companies with export: true as caller and returns the
// whole result.
func (e *exportServer) export(caller, args string) map[string]any {
	e.t.Helper()
	s := &session{t: e.t, s: e.s, caller: tools.Caller{ID: caller, AuthMethod: "oidc"}}
	res := s.rpc("tools/call", fmt.Sprintf(`{"name":"search_companies","arguments":%s}`, args))
	require.NotEqual(e.t, true, res["isError"], "%v", res)
	return res
}

// csvLink is the companies://export CSV link of an export answer.
func csvLink(res map[string]any) string {
	for _, c := range list(res["content"]) {
		if l := obj(c); l["type"] == "resource_link" && strings.HasPrefix(l["uri"].(string), read.ExportURIPrefix) && l["mimeType"] == "text/csv" {
			return l["uri"].(string)
		}
	}
	return ""
}

func (e *exportServer) read(caller, uri string) (string, string) {
	s := &session{t: e.t, s: e.s, caller: tools.Caller{ID: caller, AuthMethod: "oidc"}}
	c, refused := s.readResource(uri)
	if refused != "" {
		return "", refused
	}
	return c["text"].(string), ""
}

// Reads past the process's cap, or past half of it for one caller, are
// refused at once with a retry time and without a backend call; the
// caller's limit on export reads refuses the rest, also without one.
func TestExportReadsAreBoundedPerCallerAndPerProcess(t *testing.T) {
	g := &gatedReader{Reader: backendReader(t), entered: make(chan struct{}, 8), hold: make(chan struct{})}
	lim := ratelimit.New(map[string]ratelimit.Limit{ExportLimitKey: {Count: 3, Period: time.Hour}})
	e := newExportServer(t, g, lim, 4, time.Now, nil)
	args := `{"query":"software","fields":["name"],"export":true}`
	links := map[string]string{}
	for _, c := range []string{"ann", "bob", "cat"} {
		links[c] = csvLink(e.export(c, args))
		require.NotEmpty(t, links[c])
	}

	var wg sync.WaitGroup
	results := make(chan string, 8)
	start := func(caller string) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			text, refused := e.read(caller, links[caller])
			results <- caller + ":" + refused + fmt.Sprint(strings.Count(text, "\n"))
		}()
	}
	for _, c := range []string{"ann", "ann", "bob", "bob"} {
		start(c)
		<-g.entered // each holds its slot at its first page
	}
	_, refused := e.read("ann", links["ann"])
	assert.Contains(t, refused, "you are already reading 2 exports at once, the most one caller may; nothing was read. Retry after 5 s")
	_, refused = e.read("cat", links["cat"])
	assert.Contains(t, refused, "this server is already reading 4 exports at once, its limit; nothing was read. Retry after 5 s")
	assert.EqualValues(t, 4, g.calls.Load(), "refused reads asked the backend nothing")

	close(g.hold)
	wg.Wait()
	close(results)
	for r := range results {
		assert.NotContains(t, r, "refused", r)
	}
	// ann's refused read cost her nothing: a third read is allowed, the
	// fourth is past her limit of 3 per hour.
	text, refused := e.read("ann", links["ann"])
	require.Empty(t, refused)
	require.NotEmpty(t, text)
	calls := g.calls.Load()
	_, refused = e.read("ann", links["ann"])
	assert.Contains(t, refused, "export reads are limited to 3 per hour per caller, and yours are spent for now; nothing was read. Retry after")
	assert.Equal(t, calls, g.calls.Load(), "a read past the limit asks the backend nothing")
}

// goInternals are words of Go's and the network's that no answer shows.
var goInternals = []string{"dial tcp", "connect:", "127.0.0.1", "*errors", "context deadline", "EOF", "redis:", "%!"}

// With the limit store down, or the backend down, an export read says so
// in plain words, with the next step, and no network error.
func TestExportReadFailuresArePlain(t *testing.T) {
	ln := closedAddr(t)
	store := ratelimit.NewRedis(&redis.Options{Addr: ln}, map[string]ratelimit.Limit{ExportLimitKey: {Count: 5, Period: time.Hour}},
		ratelimit.WithTimeout(200*time.Millisecond))
	t.Cleanup(func() { _ = store.Close() })
	g := &gatedReader{Reader: backendReader(t)}
	e := newExportServer(t, g, store, 4, time.Now, nil)
	link := csvLink(e.export("ann", `{"query":"software","export":true}`))
	_, refused := e.read("ann", link)
	assert.Contains(t, refused, "export refused: the rate-limit store is unavailable (Redis refused the connection)")
	assert.Contains(t, refused, "Try again in 5 s")
	for _, w := range goInternals {
		assert.NotContains(t, refused, w)
	}
	assert.Zero(t, g.calls.Load())

	down := query.NewReader(instantRetries(graphql.NewClient("http://"+ln+"/graphql", http.DefaultClient, time.Second)))
	e = newExportServer(t, down, nil, 4, time.Now, nil)
	link = csvLink(e.export("ann", `{"query":"software","export":true}`))
	_, refused = e.read("ann", link)
	assert.Contains(t, refused, "export failed [backend_unreachable] after 0 rows: the data API could not be reached")
	for _, w := range goInternals {
		assert.NotContains(t, refused, w)
	}
}

// A download link opens with a plain GET (no token) and returns every row
// once, with the file's type and name; it stops working after its
// lifetime, and for any change to it.
func TestDownloadLinkOpensWithAPlainGETUnchangedAndUntilItExpires(t *testing.T) {
	clk := &fakeClock{t: time.Now()}
	mux := http.NewServeMux()
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	g := &gatedReader{Reader: backendReader(t)}
	e := newExportServer(t, g, nil, 4, clk.Now, func(*exportReads) read.Delivery {
		return httpDelivery{base: ts.URL + downloadPrefix, now: clk.Now}
	})
	mux.Handle("GET "+downloadPrefix+"{name}", downloads(e.x))

	res := e.export("ann", `{"min_employees":1,"fields":["name","city"],"export":true}`)
	sc := obj(res["structuredContent"])
	file := obj(sc["file"])
	require.NotNil(t, file, "%v", sc)
	url := file["url"].(string)
	require.True(t, strings.HasPrefix(url, ts.URL+downloadPrefix), url)
	rows := int(file["rows"].(float64))
	assert.Equal(t, int(sc["total"].(float64)), rows)
	assert.Greater(t, rows, 1000)
	assert.Equal(t, true, file["bytes_estimated"])
	assert.Equal(t, clk.Now().Add(read.DownloadTTL).UTC().Truncate(time.Second).Format(time.RFC3339), file["expires_at"])

	get := func(u string) (*http.Response, string) {
		resp, err := http.Get(u)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp, string(b)
	}
	resp, body := get(url)
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	assert.Equal(t, "text/csv; charset=utf-8", resp.Header.Get("Content-Type"))
	assert.Regexp(t, `^attachment; filename="companies-\d{8}-\d{4}\.csv"$`, resp.Header.Get("Content-Disposition"))
	assert.Equal(t, "no-store", resp.Header.Get("Cache-Control"))
	assert.Equal(t, "no-referrer", resp.Header.Get("Referrer-Policy"))
	records, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	require.NoError(t, err)
	assert.Equal(t, []string{"id", "name", "city"}, records[0])
	seen := map[string]bool{}
	for _, r := range records[1:] {
		assert.False(t, seen[r[0]], "row %s twice", r[0])
		seen[r[0]] = true
	}
	assert.Len(t, seen, rows, "every row once")
	est := file["bytes"].(float64)
	assert.InDelta(t, float64(len(body)), est, float64(len(body))/4, "the estimate is within a quarter of the size")

	// Any change to the link is refused before any backend call.
	calls := g.calls.Load()
	name := strings.TrimPrefix(url, ts.URL+downloadPrefix)
	token := strings.TrimSuffix(name, ".csv")
	flip := func(s string, i int) string {
		c := byte('A')
		if s[i] == 'A' {
			c = 'B'
		}
		return s[:i] + string(c) + s[i+1:]
	}
	for label, u := range map[string]string{
		"a character changed":        ts.URL + downloadPrefix + flip(token, len(token)/2) + ".csv",
		"the last character changed": ts.URL + downloadPrefix + flip(token, len(token)-1) + ".csv",
		"cut short":                  ts.URL + downloadPrefix + token[:len(token)-4] + ".csv",
		"another format":             ts.URL + downloadPrefix + token + ".jsonl",
		"no format":                  ts.URL + downloadPrefix + token,
		"a query added":              url + "?x=1",
		"an empty query added":       url + "?",
		"a character percent-coded":  ts.URL + downloadPrefix + "%" + fmt.Sprintf("%02X", token[0]) + token[1:] + ".csv",
		"a slash added":              url + "/",
		"the export link's token":    ts.URL + downloadPrefix + strings.TrimSuffix(strings.TrimPrefix(csvLink(res), read.ExportURIPrefix), ".csv") + ".csv",
	} {
		resp, body := get(u)
		assert.Equal(t, http.StatusNotFound, resp.StatusCode, "%s: %s", label, body)
	}
	assert.Equal(t, calls, g.calls.Load(), "no refused link reached the backend")

	clk.Add(read.DownloadTTL - time.Second)
	resp, _ = get(url)
	assert.Equal(t, http.StatusOK, resp.StatusCode, "still open just before its lifetime ends")
	clk.Add(2 * time.Second)
	resp, body = get(url)
	assert.Equal(t, http.StatusGone, resp.StatusCode)
	assert.Equal(t, "This download link has expired. Ask for the export again for a new link.\n", body)
}

// On stdio with --export-dir, the export's CSV is written in that
// directory, created exclusively and readable by its owner only, and
// nowhere else; without one, no file is written and the answer says why.
func TestStdioExportWritesItsFileInTheExportDirectoryOnly(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	t.Chdir(outside) // a relative write would land here
	e := newExportServer(t, backendReader(t), nil, 4, time.Now, func(x *exportReads) read.Delivery {
		dd, err := openExportDir(dir, x)
		require.NoError(t, err)
		t.Cleanup(func() { _ = dd.root.Close() })
		return dd
	})
	res := e.export("it", `{"query":"software","fields":["name"],"export":true}`)
	sc := obj(res["structuredContent"])
	file := obj(sc["file"])
	require.NotNil(t, file, "%v", sc)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1)
	name := entries[0].Name()
	assert.Regexp(t, `^companies-software-\d{8}-\d{4}-[a-z0-9]{6}\.csv$`, name)
	path := filepath.Join(dir, name)
	assert.Equal(t, "file://"+filepath.ToSlash(path), file["url"])
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	assert.EqualValues(t, fi.Size(), file["bytes"], "the size of the file written")
	assert.Nil(t, file["bytes_estimated"])
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	records, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
	require.NoError(t, err)
	assert.EqualValues(t, len(records)-1, file["rows"])
	assert.EqualValues(t, sc["total"], file["rows"])
	out, err := os.ReadDir(outside)
	require.NoError(t, err)
	assert.Empty(t, out, "nothing written anywhere else")
	assert.Contains(t, sc["note"], "written to a file for the user: file://")

	// Without an export directory: no file, and the answer says why.
	e = newExportServer(t, backendReader(t), nil, 4, time.Now, func(*exportReads) read.Delivery { return noFile{} })
	sc = obj(e.export("it", `{"query":"software","export":true}`)["structuredContent"])
	assert.Nil(t, sc["file"])
	assert.Contains(t, sc["note"], "No file was made for the user: this server has no export directory (its operator can start it with --export-dir DIR")
	out, err = os.ReadDir(outside)
	require.NoError(t, err)
	assert.Empty(t, out)
}

// A client that follows the answer's advice puts into the model's context
// only what is meant for it (the text, and links whose audience includes
// the assistant, which it would read) and hands the user's links to the
// user: the file stays out of the context, whatever its size, and the
// answer still tells the model the rows and the size.
func TestAClientFollowingTheExportAnswerReadsNoFileIntoContext(t *testing.T) {
	clk := &fakeClock{t: time.Now()}
	e := newExportServer(t, backendReader(t), nil, 4, clk.Now, func(*exportReads) read.Delivery {
		return httpDelivery{base: "https://mcp.example.com/exports/", now: clk.Now}
	})
	res := e.export("ann", `{"min_employees":1,"export":true}`)

	var contextBytes int
	var forUser []string
	for _, c := range list(res["content"]) {
		item := obj(c)
		switch item["type"] {
		case "text":
			contextBytes += len(item["text"].(string))
		case "resource_link":
			audience := strs(obj(item["annotations"])["audience"])
			if len(audience) == 0 || strings.Contains(strings.Join(audience, ","), "assistant") {
				text, refused := e.read("ann", item["uri"].(string))
				require.Empty(t, refused)
				contextBytes += len(text)
				continue
			}
			forUser = append(forUser, item["uri"].(string))
		}
	}
	sc := obj(res["structuredContent"])
	file := obj(sc["file"])
	note := sc["note"].(string)
	t.Logf("%d bytes in context for a file of %v rows, about %v bytes", contextBytes, file["rows"], file["bytes"])
	assert.Less(t, contextBytes, 8000, "only the answer's text reached the context")
	assert.Greater(t, file["bytes"].(float64), float64(100_000))
	assert.Contains(t, forUser, file["url"])
	assert.Contains(t, note, fmt.Sprintf("%d rows, about", int(file["rows"].(float64))))
	assert.Contains(t, note, "Give the user this link")
	assert.Contains(t, note, "Do not read it into this conversation")
}

// closedAddr is a loopback address nothing listens on.
func closedAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	return addr
}

// Over HTTP the answer's download URL is on the service's URL, beside
// /mcp, and opens with a plain GET and no token; the start-up line and the
// log never hold a link in full.
func TestHTTPExportAnswersADownloadURLBesideMCP(t *testing.T) {
	s := newAuthStack(t)
	srv, err := startHTTP(t, serviceEnv(t, s, "dora"), "--endpoint", s.srv.URL())
	require.NoError(t, err)
	c := connectMCP(t, srv.base+"/mcp", "2026-07-28", nil)
	got, isErr := callTool(t, c, "search_companies", map[string]any{"query": "software", "export": true})
	require.False(t, isErr, "%v", got)
	file := obj(got["file"])
	url, _ := file["url"].(string)
	require.True(t, strings.HasPrefix(url, srv.base+downloadPrefix), "%v", got)
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, string(body))
	assert.Equal(t, int(file["rows"].(float64))+1, strings.Count(string(body), "\n"), "the header and every row")
	name := strings.TrimPrefix(url, srv.base+downloadPrefix)
	assert.Contains(t, srv.logs.String(), "via=download")
	assert.NotContains(t, srv.logs.String(), name[8:20], "the link is never logged in full")
}

// With OAuth and token exchange, a download (which carries no token) reads
// as the user whose call made the link: through the backend token their
// call obtained, never without one, and the user's own token never
// reaches the backend.
func TestOAuthDownloadReadsAsTheUserWhoseCallMadeTheLink(t *testing.T) {
	s := newOAuthStack(t)
	srv := s.start(t, s.exchangeEnv())
	alice := bearerHeader(s.token(t, srv.base, "alice", readOnly...))
	c := connectMCP(t, srv.base+"/mcp", "2026-07-28", alice)
	got, isErr := callTool(t, c, "search_companies", map[string]any{"min_employees": 1, "fields": []string{"name"}, "export": true})
	require.False(t, isErr, "%v", got)
	url := obj(got["file"])["url"].(string)
	before := len(s.rec.Auth())
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, string(body))
	assert.Equal(t, int(obj(got["file"])["rows"].(float64))+1, strings.Count(string(body), "\n"))
	sent := s.rec.Auth()[before:]
	require.NotEmpty(t, sent)
	for _, h := range sent {
		assert.NotEmpty(t, h, "every page went with the user's exchanged token")
		assert.NotContains(t, alice["Authorization"], h, "the user's own token never reaches the backend")
	}
	assert.Contains(t, srv.logs.String(), `caller="`+s.iss.URL()+` alice"`)

	// Another replica (the same key) holds no backend token for alice:
	// the download is refused in plain words, and nothing is sent.
	key := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("e", 32)))
	env := s.exchangeEnv()
	env["CONFIRM_STATE_KEY"] = key
	a, b := s.start(t, env), s.start(t, env)
	c = connectMCP(t, a.base+"/mcp", "2026-07-28", bearerHeader(s.token(t, a.base, "alice", readOnly...)))
	got, isErr = callTool(t, c, "search_companies", map[string]any{"query": "software", "export": true})
	require.False(t, isErr, "%v", got)
	url = strings.Replace(obj(got["file"])["url"].(string), a.base, b.base, 1)
	before = len(s.rec.Auth())
	resp, err = http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err = io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, http.StatusBadGateway, resp.StatusCode)
	assert.Contains(t, string(body), "no backend token is held for this user any more (their sign-in ended or the server restarted); nothing was sent. Ask for the export again")
	for _, w := range goInternals {
		assert.NotContains(t, string(body), w)
	}
	assert.Len(t, s.rec.Auth(), before, "nothing reached the backend")
}

// The stdio server started by app.Run with --export-dir writes an
// export's file there and answers its file:// link.
func TestStdioRunWithExportDirWritesTheFileThere(t *testing.T) {
	s := newAuthStack(t)
	dir := t.TempDir()
	r, err := start(t, s, serviceEnv(t, s, "dora"), "--export-dir", dir)
	require.NoError(t, err)
	got, isErr := r.call("search_companies", `{"query":"software","fields":["name"],"export":true}`)
	require.False(t, isErr, "%v", got)
	file := obj(got["file"])
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1)
	assert.Equal(t, "file://"+filepath.ToSlash(filepath.Join(dir, entries[0].Name())), file["url"])
	b, err := os.ReadFile(filepath.Join(dir, entries[0].Name()))
	require.NoError(t, err)
	assert.Equal(t, int(file["rows"].(float64))+1, strings.Count(string(b), "\n"))
}
