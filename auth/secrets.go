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
type secrets struct {
	mu     sync.Mutex
	values []string
}

func newSecrets() *secrets { return &secrets{} }

// add records secret values. A JWT is also recorded part by part, because a
// parser error may quote one segment.
func (s *secrets) add(values ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range values {
		if len(v) < minSecretLen {
			continue
		}
		s.values = append(s.values, v)
		if parts := strings.Split(v, "."); len(parts) == 3 {
			for _, p := range parts {
				if len(p) >= 2*minSecretLen {
					s.values = append(s.values, p)
				}
			}
		}
	}
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
