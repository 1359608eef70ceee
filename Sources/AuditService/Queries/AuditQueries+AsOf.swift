import AuditLog
import Chronology
import Foundation
import Projections

/// Where the reports of an ``AuditQueries`` read their projections from.
public enum ProjectionSource: Sendable, Hashable {
    /// The data directory's own database, caught up with the log first.
    case live
    /// The projections as of this log position: folded into a temporary database per report.
    case asOf(UInt64)
    /// A database `replay --until … --out FILE` built: read as it is, never caught up.
    case database(URL)
}

extension AuditQueries {
    /// These queries reading their reports from `source`.
    /// - Throws: ``AuditServiceError`` `.invalidRequest` for a database file that does not exist,
    ///   or a position past the end of the log.
    public func reading(_ source: ProjectionSource) throws -> AuditQueries {
        switch source {
        case .live: break
        case .asOf(let position):
            guard position <= log.lastPosition else {
                throw AuditServiceError(
                    .invalidRequest,
                    "position \(position) is beyond the end of the log at \(log.lastPosition) (give a position up to \(log.lastPosition))"
                )
            }
        case .database(let url):
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw AuditServiceError(
                    .invalidRequest,
                    "no projection database \(url.path) (build one with itemaudit replay --until TIME --out FILE)")
            }
        }
        var copy = self
        copy.source = source
        return copy
    }

    /// The time reports bounded by "now" use: the recorded-at time of the last event folded
    /// when reading as of a point, else `now`.
    func reportTime(_ now: Timestamp) throws -> Timestamp {
        switch source {
        case .live: return now
        case .asOf(let position): return recordedAt(position) ?? now
        case .database:
            let position = try withProjections { store in
                try store.database.read { db in
                    try Int64.fetchOne(db, sql: "SELECT max(position) FROM projection_checkpoint")
                }
            }
            return position.flatMap { recordedAt(UInt64($0)) } ?? now
        }
    }

    private func recordedAt(_ position: UInt64) -> Timestamp? {
        guard position > 0 else { return nil }
        var recorded: Timestamp?
        try? log.forEachRecordView(from: position, upTo: position) { recorded = $0.recordedAt }
        return recorded
    }

    /// Runs `body` on the projections ``source`` names; a temporary as-of database is removed after,
    /// with its lock file.
    func withProjections<Result>(_ body: (ProjectionStore) throws -> Result) throws -> Result {
        switch source {
        case .live:
            return try body(projections())
        case .database(let url):
            do {
                return try body(try ProjectionStore.open(at: url))
            } catch let error as ProjectionError {
                throw AuditServiceError(.projections, error.message)
            }
        case .asOf(let position):
            let url = FileManager.default.temporaryDirectory
                .appendingPathComponent("itemaudit-as-of-\(position)-\(UUID().uuidString).sqlite")
            defer { ProjectionStore.removeTemporary(at: url) }
            do {
                let store = try ProjectionStore.open(at: url)
                try ProjectionRunner(logger: logger).catchUp(store, log: log, upTo: position)
                return try body(store)
            } catch let error as ProjectionError {
                throw AuditServiceError(.projections, error.message)
            }
        }
    }
}
