import AuditLog
import Chronology

/// A report's time: microseconds since the epoch in Swift, ISO 8601 UTC text in JSON
/// (`2026-01-05T07:31:00Z`, with fractional seconds only when they are not zero).
///
/// Every time a query result carries is one of these, so every edge prints the same form.
@propertyWrapper
public struct ReportTime: Sendable, Hashable, Codable {
    /// Microseconds since the epoch.
    public var wrappedValue: Int64

    public init(wrappedValue: Int64) { self.wrappedValue = wrappedValue }

    /// The ISO 8601 UTC text.
    public var iso8601: String { Timestamp(microsecondsSinceEpoch: wrappedValue).iso8601 }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso8601)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let time = Timestamp(iso8601: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(text)' is not an ISO 8601 date-time")
        }
        wrappedValue = time.microsecondsSinceEpoch
    }
}

/// A report's time that may be missing: ISO 8601 UTC text or null in JSON.
@propertyWrapper
public struct OptionalReportTime: Sendable, Hashable, Codable {
    /// Microseconds since the epoch, nil when there is no such time.
    public var wrappedValue: Int64?

    public init(wrappedValue: Int64?) { self.wrappedValue = wrappedValue }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue {
            try container.encode(ReportTime(wrappedValue: wrappedValue).iso8601)
        } else {
            try container.encodeNil()
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try ReportTime(from: decoder).wrappedValue
    }
}
