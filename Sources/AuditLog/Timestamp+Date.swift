import Chronology
import Foundation

/// The bridge from Foundation's `Date` to the log's time (Chronology imports nothing, so
/// it lives with the log, which reads the system clock).
extension Timestamp {
    /// A timestamp from a Foundation `Date`, rounded down to the microsecond.
    public init(_ date: Date) {
        self.init(microsecondsSinceEpoch: Int64((date.timeIntervalSince1970 * 1_000_000).rounded(.down)))
    }
}
