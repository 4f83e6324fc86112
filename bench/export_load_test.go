package bench_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/companyintel/mcp-server/appsynclocal"
)

// BenchmarkExportReadsUnderLoad (issue 36 item 6) is a load test, not a
// timed benchmark: a built server binary over HTTP (loopback, one caller:
// the server's own identity) against appsync-local with 20,000 companies
// behind a proxy that counts the search pages asked; one export of 10,000
// rows (min_employees ≥ 1, every column), then 30 reads of it at once,
// as downloads (the GET link) or as resources/read (companies://export/…).
// It reports the server's RSS before, at its peak (sampled every 10 ms)
// and after, the answers by HTTP status or outcome, and the backend pages.
// Run: go test ./bench -run '^$' -bench ExportReadsUnderLoad -benchtime 1x
func BenchmarkExportReadsUnderLoad(b *testing.B) {
	if runtime.GOOS != "linux" {
		b.Fatal("reads RSS from /proc: linux only")
	}
	srv, err := appsynclocal.Start(appsynclocal.Config{DataDir: b.TempDir(), Companies: 20_000, APIKey: apiKey}, "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { srv.Close() })
	target, _ := url.Parse(srv.URL())
	var pages atomic.Int64
	proxy := &httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) { pr.SetURL(&url.URL{Scheme: target.Scheme, Host: target.Host}) }}
	counting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if bytes.Contains(body, []byte(`"operationName":"SearchCompanies"`)) {
			pages.Add(1)
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		proxy.ServeHTTP(w, r)
	}))
	b.Cleanup(counting.Close)
	bin := filepath.Join(b.TempDir(), "mcp-server")
	build := exec.Command("go", "build", "-trimpath", "-tags", "noembedded", "-o", bin, "./cmd/server")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	for _, run := range []struct {
		name string
		args []string
		via  string
	}{
		{"defaults, downloads", nil, "download"},
		{"defaults, resources/read", nil, "resource"},
		{"no cap (64 at once, 10000/h), downloads", []string{"--max-concurrent-exports", "64", "--export-limit", "10000/h"}, "download"},
		{"no cap (64 at once, 10000/h), resources/read", []string{"--max-concurrent-exports", "64", "--export-limit", "10000/h"}, "resource"},
	} {
		b.Run(run.name, func(b *testing.B) {
			s := startBinary(b, bin, counting.URL+target.Path, run.args)
			file, link := s.export(b)
			before := s.rss()
			start := pages.Load()
			peak := atomic.Int64{}
			stop := make(chan struct{})
			sampled := make(chan struct{})
			go func() {
				defer close(sampled)
				for {
					if r := s.rss(); r > peak.Load() {
						peak.Store(r)
					}
					select {
					case <-stop:
						return
					case <-time.After(10 * time.Millisecond):
					}
				}
			}()
			var mu sync.Mutex
			outcomes := map[string]int{}
			var bytesRead atomic.Int64
			var wg sync.WaitGroup
			t0 := time.Now()
			for range 30 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					o, n := s.read(run.via, file, link)
					bytesRead.Add(n)
					mu.Lock()
					outcomes[o]++
					mu.Unlock()
				}()
			}
			wg.Wait()
			elapsed := time.Since(t0)
			close(stop)
			<-sampled
			time.Sleep(2 * time.Second) // let the runtime return what it can
			after := s.rss()
			b.ReportMetric(float64(before)/1024, "rss-before-MB")
			b.ReportMetric(float64(peak.Load())/1024, "rss-peak-MB")
			b.ReportMetric(float64(after)/1024, "rss-after-MB")
			b.ReportMetric(float64(pages.Load()-start), "backend-pages")
			b.Logf("%s: 30 reads at once in %s: %v; %d bytes read; RSS %d → peak %d → %d KB; %d backend pages",
				run.name, elapsed.Round(time.Millisecond), outcomes, bytesRead.Load(), before, peak.Load(), after, pages.Load()-start)
		})
	}
}

// binServer is the server binary running in HTTP mode.
type binServer struct {
	cmd  *exec.Cmd
	base string
}

var listenAddr = regexp.MustCompile(`starting mcp-server.* addr=(\S+)`)

func startBinary(b *testing.B, bin, endpoint string, args []string) *binServer {
	cmd := exec.Command(bin, append([]string{"--http", "127.0.0.1:0", "--endpoint", endpoint, "--auth", "apikey"}, args...)...)
	cmd.Env = append(os.Environ(), "APPSYNC_API_KEY="+apiKey)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if m := listenAddr.FindStringSubmatch(sc.Text()); m != nil {
			go func() { _, _ = io.Copy(io.Discard, stderr) }()
			return &binServer{cmd: cmd, base: "http://" + m[1]}
		}
	}
	b.Fatal("the server printed no start-up line")
	return nil
}

// rss is the process's resident set, in KB.
func (s *binServer) rss() int64 {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return n
		}
	}
	return 0
}

func (s *binServer) rpc(b *testing.B, body string) map[string]any {
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, s.base+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		b.Fatal(err)
	}
	return out
}

// export asks for the export and returns its download URL and CSV link.
func (s *binServer) export(b *testing.B) (file, link string) {
	res := s.rpc(b, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_companies","arguments":{"min_employees":1,"export":true}}}`)
	r, _ := res["result"].(map[string]any)
	sc, _ := r["structuredContent"].(map[string]any)
	f, _ := sc["file"].(map[string]any)
	if f == nil {
		b.Fatalf("no file in the export answer: %v", res)
	}
	b.Logf("export: %v rows, about %v bytes", f["rows"], f["bytes"])
	for _, c := range r["content"].([]any) {
		if l := c.(map[string]any); l["type"] == "resource_link" && strings.HasPrefix(l["uri"].(string), "companies://export/") && l["mimeType"] == "text/csv" {
			link = l["uri"].(string)
		}
	}
	return f["url"].(string), link
}

// read reads the export once and names the outcome.
func (s *binServer) read(via, file, link string) (string, int64) {
	if via == "download" {
		resp, err := http.Get(file)
		if err != nil {
			return "error", 0
		}
		defer resp.Body.Close()
		n, _ := io.Copy(io.Discard, resp.Body)
		return strconv.Itoa(resp.StatusCode), n
	}
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":%q}}`, link)
	req, _ := http.NewRequest(http.MethodPost, s.base+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "error", 0
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	switch {
	case bytes.Contains(raw, []byte(`"contents"`)):
		return "ok", int64(len(raw))
	case bytes.Contains(raw, []byte("already reading")):
		return "refused: reads at once", 0
	case bytes.Contains(raw, []byte("limited to")):
		return "refused: per-caller limit", 0
	}
	return "other: " + string(raw[:min(len(raw), 120)]), 0
}
