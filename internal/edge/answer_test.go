package edge

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// post sends body to url as an MCP client does, with hdr added.
func post(t *testing.T, url, body string, hdr map[string]string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// readBody reads all of r.
func readBody(t *testing.T, r io.Reader) string {
	t.Helper()
	b, err := io.ReadAll(r)
	require.NoError(t, err)
	return string(b)
}

func TestHTTPStreamedAnswerKeepsTheIdAndPassesNotifications(t *testing.T) {
	// When a tool sends a notification mid-call, mcp-go answers as an event
	// stream. This inner handler writes such a stream itself, split across
	// writes mid-event, because mcp-go v1.2.1 drops a mid-call notification
	// about one call in fifty: its forwarder can take the notification off
	// the session channel, then find the request done once it gets the lock
	// (server/streamable_http.go, handlePost's forwarder and drainLoop), so a
	// test through it could not tell our edge's fault from that race.
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := readBody(t, r.Body)
		require.Contains(t, body, `"id":`+string(edgeID), "mcp-go sees the edge's id")
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		for _, chunk := range []string{
			"event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/pro",
			"gress\",\"params\":{\"progress\":1,\"progressToken\":1}}\n\n",
			"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":" + string(edgeID) + ",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"done\"}]}}\n\n",
		} {
			_, _ = io.WriteString(w, chunk)
			w.(http.Flusher).Flush()
		}
	})
	h := httptest.NewServer(ReadMessage(0, httpEdge(nil, nil, nil, inner)))
	defer h.Close()

	resp := post(t, h.URL, `{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"tools/call","params":{"name":"talk"}}`,
		map[string]string{"MCP-Protocol-Version": "2025-11-25"})
	require.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	events := strings.Split(strings.TrimSpace(readBody(t, resp.Body)), "\n\n")
	require.Len(t, events, 2, "%q", events)
	assert.Equal(t, `event: message
data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1,"progressToken":1}}`, events[0])
	assert.Equal(t, `event: message
data: {"jsonrpc":"2.0","id":123456789012345678901234567890,"result":{"content":[{"type":"text","text":"done"}]}}`, events[1])
}

// The buffers a JSON answer is held and rewritten in are reused from one
// request to the next: each answer must be exactly its own, whatever the
// one before it held, a longer answer or an error, and with many at once.
func TestEachAnswerIsItsOwnWhenBuffersAreReused(t *testing.T) {
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		msg, _ := MessageFrom(r.Context())
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		n := len(msg.Frame.ID.Text())
		if n%3 == 0 {
			_, _ = fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32602,"message":"bad %d"}}`+"\n", msg.Frame.ID.Raw(), n)
			return
		}
		// mcp-go writes in two parts here, to hold a body across writes.
		_, _ = fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"text":"%s`, msg.Frame.ID.Raw(), strings.Repeat("R\\u0026D ", n))
		_, _ = io.WriteString(w, `"}}`+"\n")
	})
	h := ReadMessage(0, httpEdge(nil, nil, nil, inner))
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 200 {
				id := strings.Repeat("1", 1+(i*7+g)%15) // lengths up and down, exact as float64
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/mcp",
					strings.NewReader(`{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{"name":"x"}}`)))
				want := `{"jsonrpc":"2.0","id":` + id + `,"result":{"text":"` + strings.Repeat("R&D ", len(id)) + `"}}` + "\n"
				if len(id)%3 == 0 {
					want = `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32602,"message":"bad ` + strconv.Itoa(len(id)) + `"}}` + "\n"
				}
				if got := rec.Body.String(); got != want {
					t.Errorf("id %s: got %q, want %q", id, got, want)
					return
				}
			}
		})
	}
	wg.Wait()
}
