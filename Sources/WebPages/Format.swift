import AuditService
import Foundation

/// How pages print numbers and times: as the CLI prints them.
enum Format {
    /// ISO 8601 UTC.
    static func time(_ time: Timestamp) -> String { time.iso8601 }

    /// ISO 8601 UTC, or "" when absent.
    static func time(_ time: Timestamp?) -> String { time?.iso8601 ?? "" }

    /// One decimal, as `coverage` prints percentages.
    static func decimal(_ value: Double) -> String { String(format: "%.1f", value) }

    /// An optional count, "" when absent (as the CSV's empty field).
    static func count(_ value: Int?) -> String { value.map(String.init) ?? "" }

    /// A signed change (`+3`, `-2`, `0`), "" when absent.
    static func change(_ value: Int?) -> String {
        guard let value else { return "" }
        return value > 0 ? "+\(value)" : String(value)
    }

    /// The period in words for a page's footer and headings.
    static func period(_ period: ReportPeriod) -> String {
        switch (period.from, period.to) {
        case (nil, nil): "the whole log"
        case (let from?, nil): "from \(time(from))"
        case (nil, let to?): "before \(time(to))"
        case (let from?, let to?): "from \(time(from)) to \(time(to)) (exclusive)"
        }
    }
}
