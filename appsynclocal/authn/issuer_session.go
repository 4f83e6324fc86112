package authn

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// Consent forms are single-use on the server: each carries a nonce, spent
// on the first post that verifies, whatever it decides and whoever posts
// it. The spent nonces are kept until their form would have expired
// anyway; the key that authenticates forms is new at each start, so a form
// from before a restart does not verify after it.
const maxSpentForms = 100000

// errFormSpent is a consent form posted a second time.
var errFormSpent = errors.New("form spent")

// errTooManyForms is answered when the spent nonces fill their bound.
var errTooManyForms = errors.New("too many sign-ins in progress")

type spentForms struct {
	mu    sync.Mutex
	until map[string]time.Time // nonce -> when its form expires
}

// spend marks a form's nonce as used, or reports that it already was.
func (s *spentForms) spend(nonce string, expiry, now time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.until == nil {
		s.until = map[string]time.Time{}
	}
	if _, ok := s.until[nonce]; ok {
		return errFormSpent
	}
	if len(s.until) >= maxSpentForms {
		for n, t := range s.until {
			if !now.Before(t) {
				delete(s.until, n)
			}
		}
	}
	if len(s.until) >= maxSpentForms {
		// Failing closed: a nonce that cannot be remembered is not
		// accepted, or it could be replayed.
		return errTooManyForms
	}
	s.until[nonce] = expiry
	return nil
}

// The sign-in session: after a person approves as a demo user, this
// browser is signed in as that user for sessionTTL. The consent page then
// offers that user only, says so, and offers to sign out: an application's
// step-up (a new authorization asking for more) can no longer be approved
// as someone else by a person who just clicks Approve.
const (
	sessionCookie = "authorize_session"
	sessionTTL    = 12 * time.Hour
)

type sessionClaims struct {
	User   string `json:"u"`
	Expiry int64  `json:"e"`
}

func (i *Issuer) sessionMAC(payload string) string {
	m := hmac.New(sha256.New, i.sessionKey)
	m.Write([]byte(payload))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// setSession signs this browser in as user.
func (i *Issuer) setSession(w http.ResponseWriter, user string) {
	b, _ := json.Marshal(sessionClaims{User: user, Expiry: i.now().Add(sessionTTL).Unix()})
	payload := base64.RawURLEncoding.EncodeToString(b)
	http.SetCookie(w, &http.Cookie{
		Name: sessionCookie, Value: payload + "." + i.sessionMAC(payload), Path: i.cookiePath(),
		MaxAge: int(sessionTTL.Seconds()), HttpOnly: true, Secure: strings.HasPrefix(i.url, "https://"),
		// Lax, not Strict: an application opens the consent page from
		// elsewhere (a top-level navigation), and the page must know who
		// is signed in then. Posts come from the page itself.
		SameSite: http.SameSiteLaxMode,
	})
}

// clearSession signs this browser out.
func (i *Issuer) clearSession(w http.ResponseWriter) {
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: "", Path: i.cookiePath(), MaxAge: -1,
		HttpOnly: true, Secure: strings.HasPrefix(i.url, "https://"), SameSite: http.SameSiteLaxMode})
}

// sessionUser is the user this browser is signed in as, or "".
func (i *Issuer) sessionUser(r *http.Request) string {
	c, err := r.Cookie(sessionCookie)
	if err != nil {
		return ""
	}
	payload, mac, ok := strings.Cut(c.Value, ".")
	if !ok || !hmac.Equal([]byte(mac), []byte(i.sessionMAC(payload))) {
		return ""
	}
	b, err := base64.RawURLEncoding.DecodeString(payload)
	var sc sessionClaims
	if err != nil || json.Unmarshal(b, &sc) != nil || !i.now().Before(time.Unix(sc.Expiry, 0)) || !slices.Contains(i.userList, sc.User) {
		return ""
	}
	return sc.User
}
