import Foundation
import HTTPTypes
import Hummingbird

/// Where a request comes from, for counting failed logins: the connection's peer, or, when the
/// peer is a proxy the operator trusts (`serve --trusted-proxy`), the client its
/// `X-Forwarded-For` names last (the address that proxy itself saw). From anyone else the header
/// is ignored: a client could write any address into it.
enum ClientAddress {
    /// The source of `request`, arriving from `peer` (nil under the in-process test client: "local").
    static func source(_ request: Request, peer: String?, trustedProxies: [String]) -> String {
        let peer = peer ?? "local"
        guard trustedProxies.contains(peer), let forwarded = request.headers[values: .xForwardedFor].last else {
            return peer
        }
        let last = forwarded.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        return last.isEmpty || last.utf8.count > 64 ? peer : last
    }
}

extension HTTPField.Name {
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
}
