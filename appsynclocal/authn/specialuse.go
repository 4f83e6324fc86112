package authn

import "net/netip"

// addrClass is what an address is to a document fetch: public, one the
// policy may allow (loopback, private), or special-use and never fetched.
type addrClass int

const (
	addrPublic addrClass = iota
	addrLoopback
	addrPrivate
	addrSpecial
)

// The special-purpose address registries (RFC 6890 and the IANA IPv4 and
// IPv6 Special-Purpose Address Registries as of 2026), by what the policy
// may do with them. An address in none of them is public; an IPv6 address
// outside 2000::/3 (the only block IANA allocates for global unicast) is
// special whatever it is.
var (
	loopbackPrefixes = prefixes("127.0.0.0/8", "::1/128")
	// privatePrefixes may be allowed for an intranet's clients
	// (ClientDocumentPolicy.AllowPrivate).
	privatePrefixes = prefixes(
		"10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", // RFC 1918
		"100.64.0.0/10",  // RFC 6598 shared address space (carrier-grade NAT)
		"169.254.0.0/16", // RFC 3927 link-local (cloud metadata services)
		"fc00::/7",       // RFC 4193 unique local
		"fe80::/10",      // RFC 4291 link-local
	)
	// specialPrefixes are never fetched from: nobody serves a client's
	// document there, and several reach something other than what the
	// address says (a translator, a relay, a tunnel).
	specialPrefixes = prefixes(
		"0.0.0.0/8",         // RFC 791 "this network"
		"192.0.0.0/24",      // RFC 6890 IETF protocol assignments (DS-Lite, PCP, TURN, NAT64 discovery)
		"192.0.2.0/24",      // RFC 5737 TEST-NET-1
		"192.31.196.0/24",   // RFC 7535 AS112-v4
		"192.52.193.0/24",   // RFC 7450 AMT
		"192.88.99.0/24",    // RFC 7526 6to4 relay anycast
		"192.175.48.0/24",   // RFC 7534 direct delegation AS112
		"198.18.0.0/15",     // RFC 2544 benchmarking
		"198.51.100.0/24",   // RFC 5737 TEST-NET-2
		"203.0.113.0/24",    // RFC 5737 TEST-NET-3
		"224.0.0.0/4",       // RFC 5771 multicast
		"240.0.0.0/4",       // RFC 1112 reserved, and 255.255.255.255 broadcast
		"::/128",            // unspecified
		"::/96",             // RFC 4291 IPv4-compatible (deprecated)
		"64:ff9b::/96",      // RFC 6052 NAT64 well-known prefix
		"64:ff9b:1::/48",    // RFC 8215 local-use NAT64
		"100::/64",          // RFC 6666 discard-only
		"2001::/23",         // RFC 2928 IETF protocol assignments: Teredo 2001::/32, benchmarking 2001:2::/48, AMT, AS112, ORCHID 2001:10::/28, ORCHIDv2 2001:20::/28
		"2001:db8::/32",     // RFC 3849 documentation
		"2002::/16",         // RFC 3056 6to4
		"2620:4f:8000::/48", // RFC 7534 direct delegation AS112
		"3fff::/20",         // RFC 9637 documentation
		"5f00::/16",         // RFC 9602 SRv6 SIDs
		"fec0::/10",         // RFC 3879 site-local (deprecated)
		"ff00::/8",          // RFC 4291 multicast
		"::ffff:0:0:0/96",   // RFC 6145 IPv4-translated
	)
	globalUnicast6 = netip.MustParsePrefix("2000::/3")
)

func prefixes(s ...string) []netip.Prefix {
	out := make([]netip.Prefix, len(s))
	for n, p := range s {
		out[n] = netip.MustParsePrefix(p)
	}
	return out
}

func inAny(list []netip.Prefix, ip netip.Addr) bool {
	for _, p := range list {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// classify says what an address is. An IPv4-mapped IPv6 address is the
// IPv4 address it carries (it is where a dial goes).
func classify(ip netip.Addr) addrClass {
	ip = ip.Unmap()
	switch {
	case !ip.IsValid() || ip.Zone() != "":
		return addrSpecial
	case inAny(loopbackPrefixes, ip):
		return addrLoopback
	case inAny(specialPrefixes, ip):
		return addrSpecial
	case inAny(privatePrefixes, ip):
		return addrPrivate
	case ip.Is6() && !globalUnicast6.Contains(ip):
		return addrSpecial
	}
	return addrPublic
}
