import Crypto
import NIOConcurrencyHelpers

/// Remembers the transaction ids seen inside the signature window, per app, so a captured
/// request cannot be sent again.
///
/// Two generations of 16-byte digests: a generation is dropped once it is older than the window,
/// so an id is remembered for at least one window (requests older than that are stale anyway)
/// and memory stays bounded by the request rate times twice the window.
final class ReplayGuard: Sendable {
    private struct Key: Hashable {
        var high: UInt64
        var low: UInt64
    }

    private struct Generations {
        var current: Set<Key> = []
        var previous: Set<Key> = []
        var currentStart: Int64 = 0
    }

    private let window: Int64
    private let state = NIOLockedValueBox(Generations())

    /// A guard remembering ids for `windowSeconds`.
    init(windowSeconds: Int64) { window = max(1, windowSeconds) }

    /// Records the id; false when it was already seen inside the window.
    func firstUse(appID: String, transactionID: String, now: Int64) -> Bool {
        let key = Self.key(appID, transactionID)
        return state.withLockedValue { generations in
            if now - generations.currentStart >= window {
                generations.previous = now - generations.currentStart >= 2 * window ? [] : generations.current
                generations.current = []
                generations.currentStart = now
            }
            if generations.previous.contains(key) { return false }
            return generations.current.insert(key).inserted
        }
    }

    private static func key(_ appID: String, _ transactionID: String) -> Key {
        let digest = Array(SHA256.hash(data: Array("\(appID)\n\(transactionID)".utf8)))
        var high: UInt64 = 0
        var low: UInt64 = 0
        for index in 0..<8 {
            high = high << 8 | UInt64(digest[index])
            low = low << 8 | UInt64(digest[index + 8])
        }
        return Key(high: high, low: low)
    }
}
