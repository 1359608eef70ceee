import Crypto
import NIOConcurrencyHelpers

/// Each app's HMAC, keyed once: setting a key up (hashing it into the inner and outer pads) costs
/// more than the rest of checking a short request's signature, and every request of an app uses
/// the same key.
final class SigningKeys: Sendable {
    /// `@unchecked`: the HMAC is only copied out, never changed in place; its hash states are
    /// copied on the first write to a shared one.
    private struct Entry: @unchecked Sendable {
        var secret: [UInt8]
        var keyed: HMAC<SHA256>
    }

    private let entries = NIOLockedValueBox([String: Entry]())
    /// Apps remembered at most (all forgotten at once past it: the next requests key them again).
    private static let limit = 10_000

    /// An HMAC-SHA256 keyed with `secret`, ready for the signed text. A changed secret under the
    /// same app id is keyed anew.
    func hmac(appID: String, secret: [UInt8]) -> HMAC<SHA256> {
        if let entry = entries.withLockedValue({ $0[appID] }), entry.secret == secret { return entry.keyed }
        let keyed = HMAC<SHA256>(key: SymmetricKey(data: secret))
        entries.withLockedValue { entries in
            if entries.count >= Self.limit { entries.removeAll() }
            entries[appID] = Entry(secret: secret, keyed: keyed)
        }
        return keyed
    }
}
