import ArgumentParser
import AuditService
import Foundation
import Logging

/// A point in the log given on the command line: an ISO 8601 date or date-time, or a position.
extension LogPoint: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
}

/// The read-only queries of a data directory, for the report commands.
enum ProjectionAccess {
    /// The queries of `data`: its log opened read-only (a running writer may hold it).
    static func queries(_ data: URL) throws -> AuditQueries {
        try AuditQueries.open(DataDirectory(data))
    }

    /// `value` as an ISO 8601 UTC date-time (microseconds only when not zero).
    static func time(_ micros: Int64?) -> String {
        micros.map { Timestamp(microsecondsSinceEpoch: $0).iso8601 } ?? "-"
    }
}

extension OutputFormat {
    /// Prints `value` as JSON, or `table` as aligned text or CSV.
    func emit<Value: Encodable>(_ value: Value, table: () -> TextTable) {
        if self == .json {
            print(JSONOutput.text(value), terminator: "")
        } else {
            print(table().render(self), terminator: "")
        }
    }
}

/// Optional `--from` / `--to` bounds of a report period.
struct PeriodOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Start of the period (ISO 8601 date or date-time, inclusive).", valueName: "time"))
    var from: String?

    @Option(help: ArgumentHelp("End of the period (ISO 8601 date or date-time, exclusive).", valueName: "time"))
    var to: String?

    func validate() throws {
        for (name, value) in [("--from", from), ("--to", to)] {
            if let value, Timestamp(iso8601: value) == nil {
                throw ValidationError(
                    "\(name) '\(value)' is not an ISO 8601 date or date-time (use 2026-03-01 or 2026-03-01T08:00:00Z)")
            }
        }
    }

    var fromMicros: Int64? { from.flatMap { Timestamp(iso8601: $0)?.microsecondsSinceEpoch } }
    var toMicros: Int64? { to.flatMap { Timestamp(iso8601: $0)?.microsecondsSinceEpoch } }
}
