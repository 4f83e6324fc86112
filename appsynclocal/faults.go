package appsynclocal

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"
)

// FaultKind names what a fault does to a request.
type FaultKind string

// The kinds of fault.
const (
	// FaultLatency delays the answer by Fault.Latency. It combines with any
	// other fault.
	FaultLatency FaultKind = "latency"
	// FaultHTTP answers Fault.Status instead of running the request: 502 and
	// 504 with an HTML body as a load balancer would, other statuses with
	// AppSync-shaped JSON.
	FaultHTTP FaultKind = "http"
	// FaultThrottle answers 429 with AppSync's throttling error and a
	// Retry-After header of Fault.RetryAfter.
	FaultThrottle FaultKind = "throttle"
	// FaultMalformed runs the request and answers 200 with the body cut in
	// half: not valid JSON.
	FaultMalformed FaultKind = "malformed"
	// FaultPartial runs the request and fails one nullable field, so the
	// answer has data and an error with that field's path.
	FaultPartial FaultKind = "partial"
)

// Fault is one injected misbehaviour. Build one with Latency, HTTPError,
// Throttle, Malformed or PartialError, then narrow it with For and ForNext.
type Fault struct {
	Kind FaultKind
	// Operation limits the fault to requests with this GraphQL operation
	// name ("SearchCompanies"); "" matches every request.
	Operation string
	// Next limits the fault to the next N matching requests; 0 means every
	// matching request until the fault is cleared.
	Next int
	// Latency is the delay of a FaultLatency.
	Latency time.Duration
	// Status is the HTTP status of a FaultHTTP.
	Status int
	// RetryAfter is the Retry-After of a FaultThrottle (whole seconds,
	// rounded up; at least 1).
	RetryAfter time.Duration
	// Field is the field a FaultPartial fails, as "Type.field"
	// ("Company.description"). "" fails the first nullable field below the
	// root, on the first item of any list.
	Field string
}

// Latency delays answers by d.
func Latency(d time.Duration) Fault { return Fault{Kind: FaultLatency, Latency: d} }

// HTTPError answers with status instead of running the request.
func HTTPError(status int) Fault { return Fault{Kind: FaultHTTP, Status: status} }

// Throttle answers 429 with AppSync's throttling error and Retry-After.
func Throttle(retryAfter time.Duration) Fault {
	return Fault{Kind: FaultThrottle, RetryAfter: retryAfter}
}

// Malformed answers 200 with a truncated, unparseable body.
func Malformed() Fault { return Fault{Kind: FaultMalformed} }

// PartialError fails one field ("Type.field", or "" for the first nullable
// one), so the answer carries partial data and an error with a path.
func PartialError(field string) Fault { return Fault{Kind: FaultPartial, Field: field} }

// For limits f to requests with the given operation name.
func (f Fault) For(operation string) Fault { f.Operation = operation; return f }

// ForNext limits f to the next n matching requests.
func (f Fault) ForNext(n int) Fault { f.Next = n; return f }

// validate reports what is wrong with f, in words for whoever set it.
func (f Fault) validate() error {
	switch {
	case f.Next < 0:
		return errors.New("next must not be negative")
	case f.Kind == FaultLatency && (f.Latency <= 0 || f.Latency > 10*time.Minute):
		return errors.New("latency must be between 1ns and 10m")
	case f.Kind == FaultHTTP && (f.Status < 400 || f.Status > 599):
		return errors.New("status must be an HTTP error status, 400 to 599")
	case f.Kind == FaultThrottle && f.RetryAfter < 0:
		return errors.New("retry-after must not be negative")
	case f.Kind == FaultPartial && f.Field != "" && strings.Count(f.Field, ".") != 1:
		return errors.New(`field must be "Type.field", such as "Company.description"`)
	}
	switch f.Kind {
	case FaultLatency, FaultHTTP, FaultThrottle, FaultMalformed, FaultPartial:
		return nil
	}
	return fmt.Errorf("unknown fault kind %q: use latency, http, throttle, malformed or partial", f.Kind)
}

// Faults holds the faults switched on. It is safe for concurrent use: tests
// switch faults while requests are in flight.
type Faults struct {
	mu     sync.Mutex
	active []*Fault
}

// Add switches a fault on. Faults apply in the order added: every matching
// latency fault adds its delay, and the first matching fault of another kind
// decides the answer.
func (fs *Faults) Add(f Fault) error {
	if err := f.validate(); err != nil {
		return err
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.active = append(fs.active, &f)
	return nil
}

// Clear switches every fault off.
func (fs *Faults) Clear() {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.active = nil
}

// List returns the faults switched on, with what remains of their Next.
func (fs *Faults) List() []Fault {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	out := make([]Fault, len(fs.active))
	for i, f := range fs.active {
		out[i] = *f
	}
	return out
}

// plan is what the faults do to one request.
type plan struct {
	delay  time.Duration
	answer *Fault // nil: answer normally
}

// take matches the faults against a request for operation and consumes one
// use of each fault that matched.
func (fs *Faults) take(operation string) plan {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	var p plan
	kept := fs.active[:0]
	for _, f := range fs.active {
		matches := f.Operation == "" || f.Operation == operation
		use := matches && (f.Kind == FaultLatency || p.answer == nil)
		if use {
			if f.Kind == FaultLatency {
				p.delay += f.Latency
			} else {
				copied := *f
				p.answer = &copied
			}
			if f.Next > 0 {
				f.Next--
				if f.Next == 0 {
					continue // used up
				}
			}
		}
		kept = append(kept, f)
	}
	for i := len(kept); i < len(fs.active); i++ {
		fs.active[i] = nil
	}
	fs.active = kept
	return p
}

// writeFaultAnswer answers for a FaultHTTP or FaultThrottle.
func writeFaultAnswer(w http.ResponseWriter, f *Fault) {
	switch {
	case f.Kind == FaultThrottle:
		secs := int((f.RetryAfter + time.Second - 1) / time.Second)
		w.Header().Set("Retry-After", fmt.Sprint(max(1, secs)))
		writeErrors(w, http.StatusTooManyRequests, errorThrottled, "Rate exceeded")
	case f.Status == http.StatusBadGateway || f.Status == http.StatusGatewayTimeout:
		// What sits in front of a service answers these, and not in JSON.
		text := http.StatusText(f.Status)
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(f.Status)
		fmt.Fprintf(w, "<html>\r\n<head><title>%d %s</title></head>\r\n<body>\r\n<center><h1>%d %s</h1></center>\r\n</body>\r\n</html>\r\n",
			f.Status, text, f.Status, text)
	default:
		errorType, message := "InternalFailureException", "An internal failure occurred (injected fault)."
		switch {
		case f.Status == http.StatusServiceUnavailable:
			errorType, message = "ServiceUnavailableException", "Service unavailable; try again later (injected fault)."
		case f.Status < 500:
			errorType, message = "BadRequestException", http.StatusText(f.Status)+" (injected fault)."
		}
		writeErrors(w, f.Status, errorType, message)
	}
}
