package auth

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"
)

// tokenProvider yields the verified token to send with the next request.
type tokenProvider interface {
	// current returns the token to send. An error means there is no token
	// that may be sent at all.
	current(ctx context.Context) (verifiedToken, error)
	// latest returns the token most recently verified, without any I/O.
	latest() verifiedToken
	// problem describes a known issue that is not yet an error, such as a
	// token file replaced by a token that fails verification; "" if none.
	problem() string
}

// staticTokens is OIDC_TOKEN: verified once, sent until the backend refuses
// it. Once it has expired, the hint says so.
type staticTokens struct{ t verifiedToken }

func newStaticTokens(ctx context.Context, v *verifier, raw string) (*staticTokens, error) {
	t, err := v.verify(ctx, raw)
	if err != nil {
		return nil, withRemedy(err, describeSource(fromEnv, oidcSettings{}))
	}
	return &staticTokens{t: t}, nil
}

func (s *staticTokens) current(context.Context) (verifiedToken, error) { return s.t, nil }
func (s *staticTokens) latest() verifiedToken                          { return s.t }
func (s *staticTokens) problem() string                                { return "" }

// fileRetry is how long a token file that failed verification is left alone
// before it is verified again (the failure may have been a JWKS fetch).
const fileRetry = 30 * time.Second

// fileVersion identifies one content of the token file without reading it.
// Sidecars (and Kubernetes projected volumes) replace the file, which changes
// its modification time; checking size too catches same-second rewrites.
type fileVersion struct {
	mod  time.Time
	size int64
}

// fileTokens is OIDC_TOKEN_FILE: the file is checked with a stat on every
// request and re-read when it changed. A new token is verified before it
// replaces the old one; a new token that fails is never sent.
type fileTokens struct {
	path    string
	v       *verifier
	log     *slog.Logger
	secrets *secrets

	mu      sync.Mutex
	cur     verifiedToken
	seen    fileVersion // the version cur came from
	bad     fileVersion // a version that failed verification
	badErr  string
	badAt   time.Time
	missing bool // the file was missing at the last check (logged once)
}

func newFileTokens(ctx context.Context, v *verifier, path string, log *slog.Logger, sec *secrets) (*fileTokens, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, errorf(OIDC, "cannot read OIDC_TOKEN_FILE %s: %s", path, unwrapPathError(err))
	}
	raw, err := readTokenFile(path)
	if err != nil {
		return nil, err
	}
	sec.add(raw)
	t, err := v.verify(ctx, raw)
	if err != nil {
		return nil, withRemedy(err, describeSource(fromFile, oidcSettings{tokenFile: path}))
	}
	warnIfShared(log, path, fi)
	return &fileTokens{path: path, v: v, log: log, secrets: sec, cur: t, seen: versionOf(fi)}, nil
}

// warnIfShared warns when the token file can be read by other users: a
// bearer token is as good as a password until it expires.
func warnIfShared(log *slog.Logger, path string, fi os.FileInfo) {
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		log.Warn(fmt.Sprintf("OIDC_TOKEN_FILE %s can be read by other users (mode %04o); anyone who reads it can act as its subject: chmod 600 it", path, perm))
	}
}

func versionOf(fi os.FileInfo) fileVersion { return fileVersion{mod: fi.ModTime(), size: fi.Size()} }

func (f *fileTokens) current(ctx context.Context) (verifiedToken, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fi, err := os.Stat(f.path)
	if err != nil {
		// Writers that delete and re-create leave a short gap: keep the
		// token we have.
		if !f.missing {
			f.log.Warn("OIDC_TOKEN_FILE cannot be read; still sending the previous token", "path", f.path, "reason", unwrapPathError(err).Error())
			f.missing = true
		}
		return f.cur, nil
	}
	f.missing = false
	ver := versionOf(fi)
	if ver == f.seen || (ver == f.bad && f.v.now().Sub(f.badAt) < fileRetry) {
		return f.cur, nil
	}
	raw, err := readTokenFile(f.path)
	if err == nil && raw == f.cur.raw {
		f.seen = ver
		return f.cur, nil
	}
	if err == nil {
		f.secrets.add(raw)
		var t verifiedToken
		if t, err = f.v.verify(ctx, raw); err == nil {
			warnIfShared(f.log, f.path, fi)
			f.cur, f.seen, f.bad, f.badErr = t, ver, fileVersion{}, ""
			f.log.Info("OIDC token reloaded from OIDC_TOKEN_FILE", "path", f.path, "subject", t.subject, "expires", t.expiry.UTC().Format(time.RFC3339))
			return f.cur, nil
		}
	}
	msg := f.secrets.scrub(message(err))
	if ver != f.bad || msg != f.badErr {
		f.log.Warn("OIDC_TOKEN_FILE changed but the new token was not accepted; still sending the previous token", "path", f.path, "reason", msg)
	}
	f.bad, f.badErr, f.badAt = ver, msg, f.v.now()
	return f.cur, nil
}

func (f *fileTokens) latest() verifiedToken {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.cur
}

func (f *fileTokens) problem() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.badErr == "" {
		return ""
	}
	return "OIDC_TOKEN_FILE was replaced by a token that was not accepted (" + f.badErr + "), so the previous token was sent"
}

// message is the text of an *Error without the "auth oidc: " prefix.
func message(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Msg
	}
	return err.Error()
}

// withRemedy appends what to do to a verification error.
func withRemedy(err error, remedy string) error {
	var e *Error
	if errors.As(err, &e) {
		return &Error{Method: e.Method, Msg: e.Msg + "; " + remedy}
	}
	return err
}

// unwrapPathError drops the path and operation from an *os.PathError: the
// caller names the variable and the path itself.
func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
