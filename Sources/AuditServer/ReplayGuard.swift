import Crypto
import NIOConcurrencyHelpers

/// Remembers the transaction ids of signed requests, per app, for as long as each request's own
/// timestamp is inside the signature window, so a captured request cannot be sent again.
///
/// An id stamped at `t` is fresh until the clock passes `t + window`, so it is remembered until
/// then (a request stamped ahead is remembered longer than one stamped behind). Ids are 16-byte
/// digests kept with their expiry second, and dropped a second at a time as the clock passes
/// their expiry: memory is bounded by the request rate times twice the window, and by `capacity`,
/// past which a new id is refused rather than an old one forgotten.
final class ReplayGuard: Sendable {
    /// What ``firstUse(appID:transactionID:timestamp:now:)`` found.
    enum Verdict: Equatable {
        /// Not seen while fresh: remembered now.
        case first
        /// Already used, and its timestamp is still fresh.
        case replayed
        /// The table is full: refused without remembering (answer 503 and let the client retry).
        case full
    }

    private struct Key: Hashable {
        var high: UInt64
        var low: UInt64
    }

    private struct Table {
        /// Every remembered id.
        var keys: Set<Key> = []
        /// The ids by the second after which they are stale.
        var byExpiry: [Int64: [Key]] = [:]
        /// The latest clock seen: the ids expiring before it are already dropped.
        var sweptUpTo: Int64?

        /// Drops the ids whose expiry is before `now`, one second's bucket at a time.
        mutating func sweep(now: Int64, window: Int64) {
            // The latest clock seen only moves forward (a clock set back sweeps nothing).
            guard let start = sweptUpTo, now > start else {
                if sweptUpTo == nil { sweptUpTo = now }
                return
            }
            let (elapsed, overflow) = now.subtractingReportingOverflow(start)
            if overflow || elapsed > 2 * window {
                // Every id expires within two windows of the latest clock seen: all are stale.
                keys.removeAll(keepingCapacity: true)
                byExpiry.removeAll(keepingCapacity: true)
            } else {
                for second in start..<now {
                    for key in byExpiry.removeValue(forKey: second) ?? [] { keys.remove(key) }
                }
            }
            sweptUpTo = now
        }

        /// Remembers `key` until `expiry` has passed (filed no earlier than the next sweep's
        /// first second, so a bucket is never left behind it).
        mutating func insert(_ key: Key, expiry: Int64) {
            keys.insert(key)
            byExpiry[max(expiry, sweptUpTo ?? expiry), default: []].append(key)
        }
    }

    private let window: Int64
    private let capacity: Int
    private let table = NIOLockedValueBox(Table())

    /// A guard for signatures valid `windowSeconds` either side of the clock, remembering at most
    /// `capacity` ids (the default holds several thousand requests a second over a 300 s window).
    init(windowSeconds: Int64, capacity: Int = 2_000_000) {
        window = min(max(0, windowSeconds), Int64(Int32.max))
        self.capacity = capacity
    }

    /// Records the id of a request stamped `timestamp` (already checked to be within the window
    /// of `now`), unless it is remembered or the table is full.
    func firstUse(appID: String, transactionID: String, timestamp: Int64, now: Int64) -> Verdict {
        let key = Self.key(appID, transactionID)
        // Saturating: the timestamp is within the window of the clock, but this must not trap.
        let (sum, overflow) = timestamp.addingReportingOverflow(window)
        let expiry = overflow ? Int64.max : sum
        return table.withLockedValue { table in
            table.sweep(now: now, window: window)
            if table.keys.contains(key) { return .replayed }
            guard table.keys.count < capacity else { return .full }
            table.insert(key, expiry: expiry)
            return .first
        }
    }

    /// The number of ids remembered (for tests).
    var count: Int { table.withLockedValue { $0.keys.count } }

    /// SHA-256 of `app id \n transaction id`, first 16 bytes: the header checks allow no newline
    /// in either, so two different pairs never hash the same text.
    private static func key(_ appID: String, _ transactionID: String) -> Key {
        var hasher = SHA256()
        var appID = appID
        var transactionID = transactionID
        appID.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        withUnsafeBytes(of: UInt8(ascii: "\n")) { hasher.update(bufferPointer: $0) }
        transactionID.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        return hasher.finalize().withUnsafeBytes { digest in
            Key(
                high: UInt64(bigEndian: digest.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
                low: UInt64(bigEndian: digest.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        }
    }
}
