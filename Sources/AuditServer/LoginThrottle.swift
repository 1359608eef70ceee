import Crypto
import NIOConcurrencyHelpers

/// Failed logins counted per (way in, user name, source), so that too many from one place slow
/// that place down, never the account: a stranger's guesses from the web form cannot stop the
/// user's device, nor one address's guesses another's. The table is bounded and forgets: an entry
/// expires with its throttle, and when it is full the oldest goes, so unknown names sent by the
/// thousand cost a fixed amount of memory. Names are kept only as a hash.
final class LoginThrottle: Sendable {
    /// Where a login came in: the signed device path and the browser's form are counted apart.
    enum Path: UInt8, Sendable {
        case device = 1
        case webForm = 2
    }

    private struct Key: Hashable {
        var high: UInt64
        var low: UInt64
    }

    private struct Entry {
        var failures: Int
        /// When the counting ends (microseconds): the last failure plus the throttle's length.
        var expiresAt: Int64
    }

    private let entries = NIOLockedValueBox([Key: Entry]())
    private let maxFailures: Int
    private let duration: Int64
    /// The most entries kept.
    let capacity: Int

    init(maxFailures: Int, duration: Duration, capacity: Int = 10_000) {
        self.maxFailures = max(1, maxFailures)
        self.duration = max(1, duration.microseconds)
        self.capacity = max(1, capacity)
    }

    /// Seconds until `username` may be tried again from `source` on `path`, or nil when it may now.
    func retryAfter(_ path: Path, username: String, source: String, now: Int64) -> Int? {
        let key = Self.key(path, username, source)
        return entries.withLockedValue { entries in
            guard let entry = entries[key] else { return nil }
            guard entry.expiresAt > now else {
                entries[key] = nil
                return nil
            }
            guard entry.failures >= maxFailures else { return nil }
            return Int((entry.expiresAt - now + 999_999) / 1_000_000)
        }
    }

    /// Counts a failure; returns the seconds to wait when this one reached the limit.
    @discardableResult
    func recordFailure(_ path: Path, username: String, source: String, now: Int64) -> Int? {
        let key = Self.key(path, username, source)
        return entries.withLockedValue { entries in
            var entry = entries[key].flatMap { $0.expiresAt > now ? $0 : nil } ?? Entry(failures: 0, expiresAt: now)
            entry.failures += 1
            entry.expiresAt = now + duration
            if entries[key] == nil, entries.count >= capacity { Self.makeRoom(&entries, now: now) }
            entries[key] = entry
            return entry.failures >= maxFailures ? Int(duration / 1_000_000) : nil
        }
    }

    /// Forgets the failures of a login that succeeded.
    func clear(_ path: Path, username: String, source: String) {
        let key = Self.key(path, username, source)
        _ = entries.withLockedValue { $0.removeValue(forKey: key) }
    }

    /// Entries kept (for tests).
    var count: Int { entries.withLockedValue { $0.count } }

    /// Drops the expired entries, and if none had expired the one that expires first.
    private static func makeRoom(_ entries: inout [Key: Entry], now: Int64) {
        let before = entries.count
        entries = entries.filter { $0.value.expiresAt > now }
        if entries.count == before, let oldest = entries.min(by: { $0.value.expiresAt < $1.value.expiresAt }) {
            entries[oldest.key] = nil
        }
    }

    private static func key(_ path: Path, _ username: String, _ source: String) -> Key {
        var hasher = SHA256()
        hasher.update(data: [path.rawValue])
        hasher.update(data: Array(username.utf8))
        hasher.update(data: [0])
        hasher.update(data: Array(source.utf8))
        let digest = Array(hasher.finalize())
        var high: UInt64 = 0
        var low: UInt64 = 0
        for index in 0..<8 {
            high = high << 8 | UInt64(digest[index])
            low = low << 8 | UInt64(digest[index + 8])
        }
        return Key(high: high, low: low)
    }
}
