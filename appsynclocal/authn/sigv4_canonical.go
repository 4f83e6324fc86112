package authn

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// This file computes an AWS Signature Version 4 by hand, following
// https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html
// rather than calling the SDK's signer: a verifier that shares the client's
// code would share its bugs, and the tests sign with the SDK.

// signature computes the hex signature of r for the given credential scope,
// signed headers and exact body.
func signature(secret string, r *http.Request, body []byte, amzDate string, s scope, signedHeaders []string) string {
	creq := canonicalRequest(r, body, signedHeaders)
	sum := sha256.Sum256([]byte(creq))
	stringToSign := strings.Join([]string{sigV4Algorithm, amzDate, s.String(), hex.EncodeToString(sum[:])}, "\n")
	key := hmacSHA256([]byte("AWS4"+secret), s.date)
	key = hmacSHA256(key, s.region)
	key = hmacSHA256(key, s.service)
	key = hmacSHA256(key, s.terminator)
	return hex.EncodeToString(hmacSHA256(key, stringToSign))
}

func hmacSHA256(key []byte, data string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(data))
	return m.Sum(nil)
}

// canonicalRequest is method, URI, query, headers, signed header names and
// the body's SHA-256, one per line.
func canonicalRequest(r *http.Request, body []byte, signedHeaders []string) string {
	sum := sha256.Sum256(body)
	var h strings.Builder
	for _, name := range signedHeaders {
		h.WriteString(name)
		h.WriteByte(':')
		h.WriteString(headerValue(r, name))
		h.WriteByte('\n')
	}
	return strings.Join([]string{
		r.Method,
		canonicalURI(r.URL),
		canonicalQuery(r.URL.Query()),
		h.String(),
		strings.Join(signedHeaders, ";"),
		hex.EncodeToString(sum[:]),
	}, "\n")
}

// headerValue is a signed header's canonical value: values trimmed, inner
// runs of spaces collapsed, joined with commas. Go's server moves Host and
// Content-Length out of the header map, so they are read from the request.
func headerValue(r *http.Request, name string) string {
	switch name {
	case "host":
		return canonicalHost(r)
	case "content-length":
		if v := r.Header.Get("Content-Length"); v != "" {
			return strings.TrimSpace(v)
		}
		return strconv.FormatInt(r.ContentLength, 10)
	}
	vals := r.Header.Values(name)
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = strings.Join(strings.Fields(v), " ")
	}
	return strings.Join(out, ",")
}

// canonicalHost drops a default port, as signers do before signing.
func canonicalHost(r *http.Request) string {
	host, port, err := net.SplitHostPort(r.Host)
	if err != nil {
		return r.Host
	}
	if (port == "80" && r.TLS == nil) || (port == "443" && r.TLS != nil) {
		if strings.Contains(host, ":") {
			return "[" + host + "]"
		}
		return host
	}
	return r.Host
}

// canonicalURI is the escaped path, escaped once more: services other than
// S3 expect the path double-encoded.
func canonicalURI(u *url.URL) string {
	p := u.EscapedPath()
	if p == "" {
		return "/"
	}
	return uriEncode(p, false)
}

// canonicalQuery encodes each name and value, then sorts (encoding first
// matters: the two orders can differ).
func canonicalQuery(q url.Values) string {
	var pairs [][2]string
	for k, vs := range q {
		for _, v := range vs {
			pairs = append(pairs, [2]string{uriEncode(k, true), uriEncode(v, true)})
		}
	}
	// By name, then by value: sorting "name=value" strings would put
	// "a-b=1" before "a=1".
	sort.Slice(pairs, func(i, j int) bool {
		if pairs[i][0] != pairs[j][0] {
			return pairs[i][0] < pairs[j][0]
		}
		return pairs[i][1] < pairs[j][1]
	})
	out := make([]string, len(pairs))
	for i, p := range pairs {
		out[i] = p[0] + "=" + p[1]
	}
	return strings.Join(out, "&")
}

// uriEncode percent-encodes every byte outside RFC 3986's unreserved set,
// and '/' too when encodeSlash is set.
func uriEncode(s string, encodeSlash bool) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '-', c == '_', c == '.', c == '~':
			b.WriteByte(c)
		case c == '/' && !encodeSlash:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}
