package authn

import (
	"net"
	"net/netip"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSpecialUseAddressesAreNeverFetched: every special-purpose range of
// the IPv4 and IPv6 registries (RFC 6890 and after) is refused whatever the
// policy allows, in the dialer's Control function, which runs on the
// resolved address before a connection is attempted (so a name re-bound to
// such an address is refused too). Loopback and private ranges follow the
// policy; public addresses pass.
func TestSpecialUseAddressesAreNeverFetched(t *testing.T) {
	open := &clientDocuments{policy: ClientDocumentPolicy{Open: true, AllowLoopback: true, AllowPrivate: true}}
	closed := &clientDocuments{policy: ClientDocumentPolicy{Open: true}}
	for _, a := range []string{
		"0.0.0.0", "0.1.2.3", // this network
		"192.0.0.9", "192.0.0.170", // IETF protocol assignments, NAT64 discovery
		"192.0.2.1", "198.51.100.7", "203.0.113.9", // documentation
		"198.18.0.1", "198.19.255.254", // benchmarking
		"192.31.196.1", "192.52.193.1", "192.88.99.1", "192.175.48.1", // AS112, AMT, 6to4 relay
		"224.0.0.1", "239.255.255.250", "240.0.0.1", "255.255.255.255", // multicast, reserved, broadcast
		"::", "::2", "::a00:1", // unspecified, IPv4-compatible
		"::ffff:192.0.2.1", "::ffff:0:7f00:1", // mapped documentation, IPv4-translated
		"64:ff9b::7f00:1", "64:ff9b::808:808", "64:ff9b:1::a00:1", // NAT64, both prefixes
		"100::1",                         // discard-only
		"2001::1", "2001:0:4136:e378::1", // Teredo
		"2001:2::1",                // benchmarking
		"2001:10::1", "2001:20::1", // ORCHID, ORCHIDv2
		"2001:db8::1", "3fff::1", // documentation
		"2002:7f00:1::1", "2002:c0a8:101::1", // 6to4 (of 127.0.0.1, of 192.168.1.1)
		"2620:4f:8000::1", "5f00::1", // AS112, SRv6
		"fec0::1", "ff02::1", "4000::1", "e000::1", // site-local, multicast, unallocated
		"fe80::1%eth0", // zoned
	} {
		ip := netip.MustParseAddr(a)
		assert.Equal(t, addrSpecial, classify(ip), a)
		assert.Error(t, open.checkAddr(ip), a)
		assert.Error(t, open.control(net.JoinHostPort(a, "443"), nil), "refused before connecting: %s", a)
	}
	for _, a := range []string{"10.1.2.3", "172.16.0.1", "172.31.255.1", "192.168.1.1", "100.64.0.1", "169.254.169.254",
		"fc00::1", "fd12:3456::1", "fe80::1", "::ffff:10.0.0.1", "::ffff:169.254.169.254"} {
		ip := netip.MustParseAddr(a)
		assert.Equal(t, addrPrivate, classify(ip), a)
		assert.NoError(t, open.checkAddr(ip), a)
		assert.Error(t, closed.control(net.JoinHostPort(a, "443"), nil), a)
	}
	for _, a := range []string{"127.0.0.1", "127.200.0.1", "::1", "::ffff:127.0.0.1"} {
		ip := netip.MustParseAddr(a)
		assert.Equal(t, addrLoopback, classify(ip), a)
		assert.NoError(t, open.checkAddr(ip), a)
		assert.Error(t, closed.control(net.JoinHostPort(a, "443"), nil), a)
	}
	for _, a := range []string{"8.8.8.8", "1.1.1.1", "192.0.1.1", "198.20.0.1", "100.128.0.1", "172.32.0.1",
		"2606:4700:4700::1111", "2a00:1450:4001::1", "2001:4860::8888", "::ffff:8.8.8.8"} {
		ip := netip.MustParseAddr(a)
		assert.Equal(t, addrPublic, classify(ip), a)
		assert.NoError(t, closed.control(net.JoinHostPort(a, "443"), nil), a)
	}
}
