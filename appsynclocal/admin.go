package appsynclocal

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
)

// serveFaults is the fault switchboard for processes that cannot call
// Backend.Faults, such as end-to-end tests driving a separately started
// cmd/appsync-local:
//
//	GET    /__faults  lists the faults switched on
//	POST   /__faults  adds one: JSON {"kind":"throttle","retryAfter":"2s","operation":"SearchCompanies","next":1}
//	                  or the text form, e.g. throttle=2s,op=SearchCompanies,next=1
//	DELETE /__faults  switches every fault off
//
// It answers only to loopback callers: faults are for tests, and a backend
// reachable from elsewhere must not be switchable from there.
func (b *Backend) serveFaults(w http.ResponseWriter, r *http.Request) {
	if !fromLoopback(r) {
		writeAdminError(w, http.StatusForbidden, "/__faults answers only to loopback callers")
		return
	}
	switch r.Method {
	case http.MethodGet:
	case http.MethodPost:
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 64<<10))
		if err != nil {
			writeAdminError(w, http.StatusRequestEntityTooLarge, "the fault is larger than 64 KiB")
			return
		}
		var f Fault
		if body = bytes.TrimSpace(body); bytes.HasPrefix(body, []byte("{")) {
			err = json.Unmarshal(body, &f)
		} else {
			f, err = ParseFault(string(body))
		}
		if err == nil {
			err = b.faults.Add(f)
		}
		if err != nil {
			writeAdminError(w, http.StatusBadRequest, err.Error())
			return
		}
		b.log.Info("fault switched on", "fault", f.String())
	case http.MethodDelete:
		b.faults.Clear()
		b.log.Info("faults cleared")
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		writeAdminError(w, http.StatusMethodNotAllowed, "use GET, POST or DELETE")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"faults": b.faults.List()})
}

// fromLoopback reports whether the request came from this machine.
func fromLoopback(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func writeAdminError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}
