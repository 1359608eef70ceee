/// A point in time: whole microseconds since 1970-01-01T00:00:00Z (the Unix epoch), in UTC.
///
/// The one time type of ItemAudit: the log stores recorded-at and occurred-at times in this form
/// (binary, eight bytes), events and commands carry it, and every report answer gives its times
/// as one. Times compare, sort and round-trip exactly; the domain takes time as a value and never
/// reads a clock. ``iso8601`` and ``init(iso8601:)`` show and read it.
///
///     let start = Timestamp(iso8601: "2026-01-05T08:00:00Z")!
///     start.adding(days: 1).iso8601  // "2026-01-06T08:00:00Z"
public struct Timestamp: Sendable, Hashable, Comparable {
    /// Microseconds since the Unix epoch; negative before 1970.
    public var microsecondsSinceEpoch: Int64

    /// A time from microseconds since the Unix epoch.
    public init(microsecondsSinceEpoch: Int64) {
        self.microsecondsSinceEpoch = microsecondsSinceEpoch
    }

    /// One second in microseconds.
    public static let microsecondsPerSecond: Int64 = 1_000_000
    /// One minute in microseconds.
    public static let microsecondsPerMinute: Int64 = 60_000_000
    /// One hour in microseconds.
    public static let microsecondsPerHour: Int64 = 3_600_000_000
    /// One day in microseconds (UTC days have no leap seconds here: see ``init(iso8601:)``).
    public static let microsecondsPerDay: Int64 = 86_400_000_000

    /// This time moved by `microseconds` (may be negative; wraps instead of trapping at the ends
    /// of `Int64`, which no real time reaches).
    public func adding(microseconds: Int64) -> Timestamp {
        Timestamp(microsecondsSinceEpoch: microsecondsSinceEpoch &+ microseconds)
    }

    /// This time plus `minutes` (may be negative).
    public func adding(minutes: Int64) -> Timestamp {
        adding(microseconds: minutes * Self.microsecondsPerMinute)
    }

    /// This time plus `days` whole days of 24 hours (may be negative).
    public func adding(days: Int) -> Timestamp {
        adding(microseconds: Int64(days) * Self.microsecondsPerDay)
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.microsecondsSinceEpoch < rhs.microsecondsSinceEpoch
    }
}

extension Timestamp: CustomStringConvertible {
    /// ``iso8601``: `2026-01-05T08:00:00Z`.
    public var description: String { iso8601 }
}
