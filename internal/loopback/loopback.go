// Package loopback answers one question for every part of the server:
// does a host name or address mean this machine? Credentials may cross
// plain http only to such a host (auth, the token exchange, demo-token), an
// HTTP service that listens only there may run without OAuth (config), its
// Host and Origin checks accept it (edge), and a Redis password may travel
// in clear to it (ratelimit). One rule, so that what configuration lets
// start without OAuth is what the edge then serves as one local user.
package loopback

import (
	"net"
	"strings"
)

// Host reports whether host (without a port; an IPv6 address may keep its
// brackets) names this machine: "localhost" in any case, with or without
// the root's trailing dot, or a loopback IP (127.0.0.0/8, ::1).
//
// Names under .localhost are not: Go's own resolver sends them to DNS
// unless the system's NSS says otherwise, so the name alone does not prove
// where a credential would go.
func Host(host string) bool {
	if strings.EqualFold(strings.TrimSuffix(host, "."), "localhost") {
		return true
	}
	ip := net.ParseIP(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"))
	return ip != nil && ip.IsLoopback()
}

// Addr reports whether a host:port address, such as a listen address
// "127.0.0.1:8080", names only this machine. An empty host (":8080")
// binds every interface, and an address without a port is not one.
func Addr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil || host == "" {
		return false
	}
	return Host(host)
}
