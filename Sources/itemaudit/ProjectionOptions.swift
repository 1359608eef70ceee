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
        // A damaged projection database is set aside and rebuilt: say so in one line.
        try AuditQueries.open(DataDirectory(data)) { FileHandle.standardError.write(Data("note: \($0)\n".utf8)) }
    }

    /// The queries of `data`'s directory and log store (--store).
    static func queries(_ data: DataDirectoryOption) throws -> AuditQueries {
        let location = data.location
        guard location.isPostgres else { return try queries(data.url) }
        do {
            return try AuditQueries.open(DataDirectory(data.url), location: location) {
                FileHandle.standardError.write(Data("note: \($0)\n".utf8))
            }
        } catch let error as AuditServiceError {
            throw CLIFailure.badInput("cannot open the log at \(location): \(error.message)")
        }
    }

    /// `time` as an ISO 8601 UTC date-time (microseconds only when not zero), "-" when absent.
    static func time(_ time: Timestamp?) -> String { time?.iso8601 ?? "-" }
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
        if let problem = ReportPeriod(from: fromTime, to: toTime).problem(now: Timestamp(Date())) {
            throw ValidationError(problem)
        }
    }

    var fromTime: Timestamp? { from.flatMap { Timestamp(iso8601: $0) } }
    var toTime: Timestamp? { to.flatMap { Timestamp(iso8601: $0) } }
}

/// `--as-of TIME|POSITION` and `--projections FILE`: a report as the log stood at a point, or
/// read from a database `replay --until … --out FILE` built.
struct AsOfOptions: ParsableArguments {
    @Option(
        name: .customLong("as-of"),
        help: ArgumentHelp(
            "Report as of this ISO 8601 time (recorded-at) or log position (rebuilt in a temporary database).",
            valueName: "time|position"))
    var asOf: LogPoint?

    @Option(
        help: ArgumentHelp(
            "Read the projections from a database built by replay --until … --out FILE.", valueName: "file"))
    var projections: String?

    func validate() throws {
        if asOf != nil && projections != nil { throw ValidationError("give --as-of or --projections, not both") }
    }

    /// The queries of `data`, reading as of the point or from the database given.
    func queries(_ data: DataDirectoryOption) throws -> AuditQueries {
        let queries = try ProjectionAccess.queries(data)
        if let asOf {
            return try queries.reading(.asOf(try queries.position(of: asOf, option: "--as-of")))
        }
        if let projections {
            return try queries.reading(.database(URL(fileURLWithPath: projections)))
        }
        return queries
    }
}
