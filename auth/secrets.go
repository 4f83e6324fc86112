package auth

import (
	"errors"
	"strings"
	"sync"
)

// redacted replaces a secret found in a message.
const redacted = "[redacted]"

// minSecretLen keeps short values (such as "true") out of the scrub list,
// where they would mangle unrelated words; no real secret is that short.
const minSecretLen = 8

// secrets remembers every secret value Resolve read, so that error messages
// built from library errors (which we do not control) can be scrubbed before
// they reach a user or a log. This is the second line of defence: the first
// is never formatting a secret into a message.
//
// The list is bounded: what was read at start-up (keys, client secrets,
// refresh tokens, the first token) is kept for the life of the process;
// tokens obtained later, which rotate every hour or so, are kept in a ring of
// the most recent maxRotating values, so that a server running for months
// does not scan an ever longer list on every message.
type secrets struct {
	mu       sync.Mutex
	values   []string // values[:pinned] are kept for good; the rest rotate
	pinned   int
	isPinned bool
	next     int // the rotating slot to overwrite next, once full
}

// maxRotating bounds the secrets recorded after start-up: about eight
// tokens with their segments.
const maxRotating = 32

func newSecrets() *secrets { return &secrets{} }

// pin keeps every value recorded so far for good: they were configured.
func (s *secrets) pin() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pinned, s.isPinned = len(s.values), true
}

// add records secret values. A JWT is also recorded part by part, because a
// parser error may quote one segment.
func (s *secrets) add(values ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range values {
		if len(v) < minSecretLen {
			continue
		}
		s.record(v)
		if parts := strings.Split(v, "."); len(parts) == 3 {
			for _, p := range parts {
				if len(p) >= 2*minSecretLen {
					s.record(p)
				}
			}
		}
	}
}

// record adds one value unless it is known, overwriting the oldest rotating
// value once the ring is full.
func (s *secrets) record(v string) {
	for _, known := range s.values {
		if known == v {
			return
		}
	}
	if !s.isPinned || len(s.values)-s.pinned < maxRotating {
		s.values = append(s.values, v)
		return
	}
	s.values[s.pinned+s.next] = v
	s.next = (s.next + 1) % maxRotating
}

// len is how many values are recorded.
func (s *secrets) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.values)
}

// scrub replaces every recorded secret in msg.
func (s *secrets) scrub(msg string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range s.values {
		msg = strings.ReplaceAll(msg, v, redacted)
	}
	return msg
}

// scrubError returns err with its message scrubbed. An *Error keeps its type;
// ErrNoCredentials is returned as is; anything else becomes a plain error
// without a chain, because an unwrapped library error could still print a
// secret.
func (s *secrets) scrubError(err error) error {
	var ae *Error
	switch {
	case err == nil || errors.Is(err, ErrNoCredentials):
		return err
	case errors.As(err, &ae):
		return &Error{Method: ae.Method, Msg: s.scrub(ae.Msg)}
	default:
		return errors.New(s.scrub(err.Error()))
	}
}
