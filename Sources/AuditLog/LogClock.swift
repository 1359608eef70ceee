import Chronology
import Foundation

/// Where the log takes its recorded-at times from; inject a ``ManualClock`` in tests.
public protocol LogClock: Sendable {
    /// The current time.
    func now() -> Timestamp
}

/// The machine's wall clock (`CLOCK_REALTIME`).
public struct SystemClock: LogClock {
    public init() {}

    public func now() -> Timestamp {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Timestamp(microsecondsSinceEpoch: Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1000)
    }
}

/// A clock that moves only when told to: deterministic recorded-at times for tests and replays.
public final class ManualClock: LogClock, @unchecked Sendable {
    // @unchecked: `current` is only read and written while holding `lock`.
    private let lock = NSLock()
    private var current: Timestamp

    /// A clock standing at `start`.
    public init(_ start: Timestamp) { current = start }

    public func now() -> Timestamp { lock.withLock { current } }

    /// Moves the clock forward (or back, with a negative amount).
    public func advance(microseconds: Int64) {
        lock.withLock { current = current.adding(microseconds: microseconds) }
    }

    /// Sets the clock to `timestamp`.
    public func set(_ timestamp: Timestamp) { lock.withLock { current = timestamp } }
}
