package app

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
)

// TestBackendPoolKeepsAConnectionPerConcurrentCall runs rounds of
// concurrent requests through the backend pool and counts the connections
// the backend accepted. With http.DefaultTransport's two idle connections
// per host, every round after the first dialled all but two again (8 + 5×6
// = 38 for six rounds of 8); the pool keeps one per call in flight, so
// later rounds reuse the first round's.
func TestBackendPoolKeepsAConnectionPerConcurrentCall(t *testing.T) {
	const calls, rounds = 8, 6
	var dialled atomic.Int32
	release := make(chan struct{})
	var arrived sync.WaitGroup
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived.Done()
		<-release // hold every call of the round open at once
		_, _ = io.WriteString(w, `{"data":{}}`)
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			dialled.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()

	hc := &http.Client{Transport: newBackendTransport()}
	for range rounds {
		arrived.Add(calls)
		release = make(chan struct{})
		var done sync.WaitGroup
		for range calls {
			done.Go(func() {
				resp, err := hc.Post(srv.URL, "application/json", nil)
				if err != nil {
					t.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				_ = resp.Body.Close()
			})
		}
		arrived.Wait() // all calls of the round are in flight together
		close(release)
		done.Wait()
	}
	// A connection goes back to the pool just after its caller has read
	// the body, so a call of the next round can, rarely, dial before it is
	// back; the bound allows that and still fails the two-idle pool (38).
	if n := dialled.Load(); n > 2*calls {
		t.Fatalf("the backend accepted %d connections for %d rounds of %d concurrent calls; want at most %d", n, rounds, calls, 2*calls)
	}
}
