package auth

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/companyintel/mcp-server/internal/loopback"
)

// Credentials never cross plain http, except to this machine: a token, an
// API key or a SigV4 signature sent in clear to another host can be read and
// replayed by anyone on the path. Loopback is allowed for the embedded
// backend, local issuers and tests.

// CheckSecureURL checks that credentials may be sent to raw: an absolute
// https URL with a host, or http to a loopback host. The error says what is
// wrong in a phrase; the caller names the setting and gives an example.
func CheckSecureURL(raw string) error {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		// Not quoted: what fails to parse may be a secret pasted in the
		// wrong place.
		return errors.New("the value is not a URL")
	}
	return checkSecure(u)
}

// shown is u as a refusal quotes it: without a user name, password, query
// or fragment, any of which may carry a secret (a key in the query string
// is how some APIs and collectors are reached).
func shown(u *url.URL) string {
	c := *u
	c.User = nil
	c.RawQuery, c.ForceQuery = "", false
	c.Fragment, c.RawFragment = "", ""
	if c.Opaque != "" {
		// "user:pass@host" parses as scheme "user" with an opaque rest.
		c.Opaque = "…"
	}
	s := c.String()
	if u.RawQuery != "" {
		s += "?…"
	}
	return s
}

func checkSecure(u *url.URL) error {
	switch {
	case u.Scheme == "":
		return fmt.Errorf("%q has no scheme", shown(u))
	case u.Scheme != "https" && u.Scheme != "http":
		return fmt.Errorf("%q has scheme %s; only https is accepted", shown(u), u.Scheme)
	case u.Host == "" || u.Hostname() == "":
		return fmt.Errorf("%q has no host", shown(u))
	case u.User != nil:
		return fmt.Errorf("%s://%s… carries a user name or password in the URL; remove it", u.Scheme, u.Hostname())
	case u.Scheme == "http" && !loopback.Host(u.Hostname()):
		return fmt.Errorf("%q is plain http to %s, which would send credentials in clear; use https (plain http is accepted only for localhost, 127.0.0.0/8 and ::1)", shown(u), u.Hostname())
	}
	return nil
}

// refuseInsecure is the transports' last check before credentials are added
// to a request: it returns an *Error, and nothing is sent.
func refuseInsecure(m Method, u *url.URL) error {
	if err := checkSecure(u); err != nil {
		return errorf(m, "credentials not sent: %s", err)
	}
	return nil
}
