import Foundation
import HTTPTypes
import Hummingbird

/// Where a request comes from, for counting failed logins: the connection's peer, or, when the
/// peer is a proxy the operator trusts (`serve --trusted-proxy`), the client the proxies'
/// `X-Forwarded-For` names. From anyone else the header is ignored: a client could write any
/// address into it.
enum ClientAddress {
    /// The source of `request`, arriving from `peer` (nil under the in-process test client: "local").
    static func source(_ request: Request, peer: String?, trustedProxies: [String]) -> String {
        source(peer: peer, forwardedFor: request.headers[values: .xForwardedFor], trustedProxies: trustedProxies)
    }

    /// The source of a request from `peer` with these `X-Forwarded-For` values. Each proxy appends
    /// the address it saw, so the header is read from its end: past the trusted proxies, the first
    /// address is the client (what comes before it, the client wrote itself). A value that is not
    /// an address stops the walk at the proxy that sent it. An IPv6 client counts as its /64, the
    /// network one host is given, so that changing the low bits is not a fresh source.
    ///
    ///     source(peer: "10.0.0.1", forwardedFor: ["203.0.113.66, 198.51.100.7"], trustedProxies: ["10.0.0.1"])
    ///     // "198.51.100.7"
    static func source(peer: String?, forwardedFor: [String], trustedProxies: [String]) -> String {
        let trusted = Set(trustedProxies.map(canonical))
        var client = canonical(peer ?? "local")
        if trusted.contains(client) {
            for hop in forwardedFor.flatMap({ $0.split(separator: ",") }).reversed() {
                guard let address = parsed(hop.trimmingCharacters(in: .whitespaces)) else { break }
                client = address.text
                if !trusted.contains(client) { break }
            }
        }
        return parsed(client)?.network ?? client
    }

    /// An IP address read by `inet_pton`: an IPv4 address (also when written IPv4-mapped, as a
    /// dual-stack socket reports it) or an IPv6 one.
    private enum Address {
        case v4(in_addr)
        case v6(in6_addr)

        /// The address written one way only, so that `::1` and `0:0:0:0:0:0:0:1` compare equal.
        var text: String {
            var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            switch self {
            case .v4(var address): inet_ntop(AF_INET, &address, &buffer, socklen_t(buffer.count))
            case .v6(var address): inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count))
            }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }

        /// The source a login failure is counted for: an IPv4 address, or an IPv6 address's /64.
        var network: String {
            guard case .v6(var address) = self else { return text }
            withUnsafeMutableBytes(of: &address) { bytes in
                for index in 8..<16 { bytes[index] = 0 }
            }
            return Address.v6(address).text + "/64"
        }
    }

    private static func parsed(_ text: String) -> Address? {
        // The longest IPv6 text (an IPv4-mapped one) is 45 characters.
        guard (1...45).contains(text.utf8.count) else { return nil }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return .v4(v4) }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            var mapped = in_addr()
            withUnsafeMutableBytes(of: &mapped) { $0.copyBytes(from: bytes[12..<16]) }
            return .v4(mapped)
        }
        return .v6(v6)
    }

    /// `text` written one way if it is an address; otherwise as it is ("local").
    private static func canonical(_ text: String) -> String { parsed(text)?.text ?? text }
}

extension HTTPField.Name {
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
}
