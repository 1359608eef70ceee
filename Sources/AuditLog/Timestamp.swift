import Foundation

/// A point in time: whole microseconds since 1970-01-01T00:00:00Z (the Unix epoch), in UTC.
///
/// The log stores timestamps in this form, so they compare, sort and round-trip exactly.
/// Use ``iso8601`` and ``init(iso8601:)`` to show and read them.
public struct Timestamp: Comparable, Hashable, Sendable {
    /// Microseconds since the Unix epoch; negative before 1970.
    public var microsecondsSinceEpoch: Int64

    /// A timestamp from microseconds since the Unix epoch.
    public init(microsecondsSinceEpoch: Int64) {
        self.microsecondsSinceEpoch = microsecondsSinceEpoch
    }

    /// A timestamp from a Foundation `Date`, rounded down to the microsecond.
    public init(_ date: Date) {
        self.microsecondsSinceEpoch = Int64((date.timeIntervalSince1970 * 1_000_000).rounded(.down))
    }

    /// The same instant as a Foundation `Date` (sub-microsecond precision is not kept).
    public var date: Date { Date(timeIntervalSince1970: Double(microsecondsSinceEpoch) / 1_000_000) }

    /// This timestamp moved by a number of microseconds.
    public func adding(microseconds: Int64) -> Timestamp {
        Timestamp(microsecondsSinceEpoch: microsecondsSinceEpoch &+ microseconds)
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.microsecondsSinceEpoch < rhs.microsecondsSinceEpoch
    }
}

extension Timestamp: CustomStringConvertible {
    public var description: String { iso8601 }
}

extension Timestamp: Codable {
    /// Encodes as an ISO 8601 string such as `2024-05-01T12:34:56.123456Z`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso8601)
    }

    /// Decodes an ISO 8601 string, or a number of microseconds since the epoch.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let micros = try? container.decode(Int64.self) {
            self.init(microsecondsSinceEpoch: micros)
            return
        }
        let text = try container.decode(String.self)
        guard let parsed = Timestamp(iso8601: text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "'\(text)' is not an ISO 8601 timestamp (use 2024-05-01T12:34:56Z)"
            )
        }
        self = parsed
    }
}
