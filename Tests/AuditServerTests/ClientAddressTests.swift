import Testing

@testable import AuditServer

/// The source failed logins are counted by: a client cannot choose it, and one host cannot
/// become many by changing its address within its own network.
@Suite("Client address")
struct ClientAddressTests {
    @Test("with no peer (the in-process client) the source is local")
    func noPeer() {
        #expect(ClientAddress.source(peer: nil, forwardedFor: [], trustedProxies: []) == "local")
    }

    @Test("an untrusted peer's X-Forwarded-For is ignored: a client cannot pick its source")
    func untrustedHeaderIgnored() {
        let source = ClientAddress.source(
            peer: "192.0.2.1", forwardedFor: ["198.51.100.7"], trustedProxies: ["192.0.2.9"])
        #expect(source == "192.0.2.1")
    }

    @Test("from a trusted proxy the client is the last address not itself a trusted proxy")
    func trustedProxyChain() {
        let proxies = ["10.0.0.1", "10.0.0.2"]
        // The client may write anything first; only what the proxies appended counts.
        let headers = ["203.0.113.66, 198.51.100.7", "10.0.0.2"]
        #expect(
            ClientAddress.source(peer: "10.0.0.1", forwardedFor: headers, trustedProxies: proxies) == "198.51.100.7")
        #expect(
            ClientAddress.source(peer: "10.0.0.1", forwardedFor: ["198.51.100.7"], trustedProxies: proxies)
                == "198.51.100.7")
    }

    @Test("a trusted proxy is recognised however its address is written")
    func proxyAddressForms() {
        #expect(
            ClientAddress.source(peer: "::1", forwardedFor: ["198.51.100.7"], trustedProxies: ["0:0:0:0:0:0:0:1"])
                == "198.51.100.7")
        #expect(
            ClientAddress.source(peer: "::ffff:10.0.0.1", forwardedFor: ["198.51.100.7"], trustedProxies: ["10.0.0.1"])
                == "198.51.100.7")
    }

    @Test("an IPv6 host counts as its /64: changing the low bits of its address is not a new source")
    func ipv6Prefix() {
        let one = ClientAddress.source(peer: "2001:db8:1:2::1", forwardedFor: [], trustedProxies: [])
        let same = ClientAddress.source(peer: "2001:db8:1:2:abcd:ef01:2345:6789", forwardedFor: [], trustedProxies: [])
        let other = ClientAddress.source(peer: "2001:db8:1:3::1", forwardedFor: [], trustedProxies: [])
        #expect(one == same)
        #expect(one != other)
        #expect(ClientAddress.source(peer: "::ffff:192.0.2.1", forwardedFor: [], trustedProxies: []) == "192.0.2.1")
    }

    @Test(
        "a forwarded value that is not an address leaves the proxy as the source",
        arguments: [
            "", "unknown", "198.51.100.7:443", String(repeating: "1", count: 5000), "198.51.100.7\n",
        ])
    func badForwardedValue(value: String) {
        #expect(
            ClientAddress.source(peer: "10.0.0.1", forwardedFor: [value], trustedProxies: ["10.0.0.1"]) == "10.0.0.1")
    }
}
