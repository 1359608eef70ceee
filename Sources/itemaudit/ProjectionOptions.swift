import ArgumentParser
import AuditLog
import AuditService
import Foundation
import Logging
import Projections

/// A point in the log given on the command line: an ISO 8601 date or date-time, or a position.
enum LogPoint: ExpressibleByArgument, Sendable {
    case position(UInt64)
    case time(Timestamp)

    init?(argument: String) {
        if let position = UInt64(argument) {
            self = .position(position)
        } else if let time = Timestamp(iso8601: argument) {
            self = .time(time)
        } else {
            return nil
        }
    }

    /// The last log position at or before this point.
    ///
    /// A point in the future — a position the log has not reached, or a time after now — is bad input
    /// (exit 2): the log cannot say what it will hold then, and an answer "as of" it would change
    /// with the next append. A past time after the last event is fine: the log held exactly that.
    func position(in log: EventLog, option: String, now: Timestamp = Timestamp(Date())) throws -> UInt64 {
        let end = log.lastPosition
        let endTime = end == 0 ? "the log is empty" : "the log ends at position \(end)" + lastRecorded(log)
        switch self {
        case .position(let position):
            guard position <= end else {
                throw CLIFailure.badInput(
                    "\(option) \(position) is beyond the end of the log: \(endTime) (give a position up to \(end), or omit \(option))"
                )
            }
            return position
        case .time(let time):
            guard time <= now else {
                throw CLIFailure.badInput(
                    "\(option) \(time.iso8601) is in the future: \(endTime) (give a time up to now, or omit \(option))")
            }
            return log.lastPosition(asOfRecordedAt: time)
        }
    }

    private func lastRecorded(_ log: EventLog) -> String {
        var recorded: Timestamp?
        try? log.forEachRecordView(from: log.lastPosition, upTo: log.lastPosition) { recorded = $0.recordedAt }
        return recorded.map { ", recorded \($0.iso8601)" } ?? ""
    }
}

/// Opening the log read-only and the projection database of a data directory, caught up.
enum ProjectionAccess {
    static let logger = Logger(label: "itemaudit.projections") { _ in SwiftLogNoOpLogHandler() }

    /// The data directory's log, opened read-only (a running writer may hold it).
    static func openLog(_ data: URL) throws -> EventLog {
        let directory = data.appendingPathComponent("log", isDirectory: true)
        guard FileManager.default.fileExists(atPath: directory.path) else {
            throw CLIFailure.badInput("no event log in \(data.path) (check --data or $ITEMAUDIT_DATA)")
        }
        do {
            return try EventLog.open(directory: directory, configuration: .init(readOnly: true), logger: logger)
        } catch {
            throw CLIFailure.badInput("cannot open the event log in \(data.path): \(error)")
        }
    }

    /// The projection database of `data`, caught up with the log (rebuilding what changed version).
    static func caughtUp(_ data: URL) throws -> (EventLog, ProjectionStore) {
        let log = try openLog(data)
        do {
            // A read-only directory builds them in a temporary place; a damaged database is set aside.
            let store = try ProjectionDatabase.caughtUp(dataDirectory: data, log: log, logger: logger) {
                FileHandle.standardError.write(Data("note: \($0)\n".utf8))
            }
            return (log, store)
        } catch let error as ProjectionError {
            throw CLIFailure.badInput(error.message)
        } catch {
            throw CLIFailure.badInput("cannot bring the projections up to date: \(error)")
        }
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
        if let problem = ReportPeriod(from: fromMicros, to: toMicros).problem(now: Timestamp(Date())) {
            throw ValidationError(problem)
        }
    }

    var fromMicros: Int64? { from.flatMap { Timestamp(iso8601: $0)?.microsecondsSinceEpoch } }
    var toMicros: Int64? { to.flatMap { Timestamp(iso8601: $0)?.microsecondsSinceEpoch } }
}
