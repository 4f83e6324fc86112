package appsynclocal

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseFault reads a fault from its text form, as the --fault flag of
// cmd/appsync-local and POST /__faults take it: one of
//
//	latency=250ms   http=502   throttle=2s   malformed   partial[=Company.description]
//
// optionally followed by ",op=<OperationName>" and ",next=<N>", e.g.
// "throttle=2s,op=SearchCompanies,next=1".
func ParseFault(spec string) (Fault, error) {
	parts := strings.Split(strings.TrimSpace(spec), ",")
	kind, value, _ := strings.Cut(strings.TrimSpace(parts[0]), "=")
	f := Fault{Kind: FaultKind(strings.TrimSpace(kind))}
	value = strings.TrimSpace(value)
	var err error
	switch f.Kind {
	case FaultLatency:
		f.Latency, err = time.ParseDuration(value)
	case FaultHTTP:
		f.Status, err = strconv.Atoi(value)
	case FaultThrottle:
		f.RetryAfter = time.Second
		if value != "" {
			f.RetryAfter, err = time.ParseDuration(value)
		}
	case FaultPartial:
		f.Field = value
	case FaultMalformed:
		if value != "" {
			err = fmt.Errorf("malformed takes no value")
		}
	}
	if err != nil {
		return Fault{}, fmt.Errorf("fault %q: %s has a bad value %q", spec, kind, value)
	}
	for _, p := range parts[1:] {
		k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
		if !ok || v == "" {
			return Fault{}, fmt.Errorf("fault %q: option %q needs a value, as in op=SearchCompanies or next=1", spec, k)
		}
		switch k {
		case "op":
			f.Operation = v
		case "next":
			if f.Next, err = strconv.Atoi(v); err != nil {
				return Fault{}, fmt.Errorf("fault %q: next must be a number, got %q", spec, v)
			}
		default:
			return Fault{}, fmt.Errorf("fault %q: unknown option %q (use op= or next=)", spec, k)
		}
	}
	if err := f.validate(); err != nil {
		return Fault{}, fmt.Errorf("fault %q: %w", spec, err)
	}
	return f, nil
}

// String returns f in the form ParseFault reads.
func (f Fault) String() string {
	var b strings.Builder
	b.WriteString(string(f.Kind))
	switch f.Kind {
	case FaultLatency:
		b.WriteString("=" + f.Latency.String())
	case FaultHTTP:
		b.WriteString("=" + strconv.Itoa(f.Status))
	case FaultThrottle:
		b.WriteString("=" + f.RetryAfter.String())
	case FaultPartial:
		if f.Field != "" {
			b.WriteString("=" + f.Field)
		}
	}
	if f.Operation != "" {
		b.WriteString(",op=" + f.Operation)
	}
	if f.Next > 0 {
		b.WriteString(",next=" + strconv.Itoa(f.Next))
	}
	return b.String()
}

// faultJSON is a Fault on the wire: durations as Go duration strings.
type faultJSON struct {
	Kind       FaultKind `json:"kind"`
	Operation  string    `json:"operation,omitempty"`
	Next       int       `json:"next,omitempty"`
	Latency    string    `json:"latency,omitempty"`
	Status     int       `json:"status,omitempty"`
	RetryAfter string    `json:"retryAfter,omitempty"`
	Field      string    `json:"field,omitempty"`
	Spec       string    `json:"spec"`
}

// MarshalJSON writes f with durations such as "250ms", and its text form as
// "spec".
func (f Fault) MarshalJSON() ([]byte, error) {
	j := faultJSON{Kind: f.Kind, Operation: f.Operation, Next: f.Next, Status: f.Status, Field: f.Field, Spec: f.String()}
	if f.Latency != 0 {
		j.Latency = f.Latency.String()
	}
	if f.RetryAfter != 0 {
		j.RetryAfter = f.RetryAfter.String()
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads what MarshalJSON writes; "spec" is ignored.
func (f *Fault) UnmarshalJSON(b []byte) error {
	var j faultJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	out := Fault{Kind: j.Kind, Operation: j.Operation, Next: j.Next, Status: j.Status, Field: j.Field}
	var err error
	if j.Latency != "" {
		if out.Latency, err = time.ParseDuration(j.Latency); err != nil {
			return fmt.Errorf("latency %q is not a duration such as 250ms", j.Latency)
		}
	}
	if j.RetryAfter != "" {
		if out.RetryAfter, err = time.ParseDuration(j.RetryAfter); err != nil {
			return fmt.Errorf("retryAfter %q is not a duration such as 2s", j.RetryAfter)
		}
	}
	*f = out
	return nil
}
