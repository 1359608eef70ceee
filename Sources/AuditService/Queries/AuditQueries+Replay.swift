import AuditLog
import Foundation
import Projections

/// What a replay did.
public struct ReplayReport: Sendable, Hashable {
    /// Events folded.
    public var events: Int
    /// The last position folded (the end asked for when nothing was behind).
    public var toPosition: UInt64
    /// Wall-clock seconds.
    public var seconds: Double
    /// The database written.
    public var database: URL
}

extension AuditQueries {
    /// Drops and refolds the projections named in `only` (all when nil) up to `end` (the last
    /// position when nil), into `database` or the data directory's own projection database when
    /// nil (a damaged one is set aside first).
    ///
    /// `database` must be a new file or one an earlier replay made (see ``ReplayOutput``): it is
    /// then replaced; anything else is refused untouched. `progress` is told (position, end)
    /// after each committed chunk.
    /// - Throws: ``AuditServiceError`` `.outputPath` for a `database` that may not be written,
    ///   `.projections` when the database cannot be written.
    public func replay(
        only: Set<String>? = nil, upTo end: UInt64? = nil, into database: URL? = nil,
        progress: (UInt64, UInt64) throws -> Void = { _, _ in }
    ) throws -> ReplayReport {
        let end = end ?? log.lastPosition
        let output = try database.map { try ReplayOutput.check(path: $0.path, dataDirectory: directory.url) }
        if output == nil, !ProjectionDatabase.isWritable(directory.projectionHome) {
            throw AuditServiceError(
                .projections,
                "\(directory.path) is read-only, and replay rebuilds its projections.sqlite in place "
                    + "(reports work as they are; to rebuild elsewhere use replay --until POINT --out FILE; nothing was changed)",
                context: ["directory": directory.path])
        }
        let storeURL = output?.url ?? directory.projections
        let runner = ProjectionRunner(logger: logger)
        do {
            if output == nil { try ProjectionDatabase.setAsideIfDamaged(directory.projectionHome, note: note) }
            let store = try output?.create() ?? ProjectionStore.open(at: storeURL)
            try runner.reset(store, only: only)
            let report = try runner.catchUp(store, log: log, upTo: end, only: only, progress: progress)
            return ReplayReport(
                events: report.events, toPosition: report.positions?.upperBound ?? end, seconds: report.seconds,
                database: storeURL)
        } catch let error as ProjectionError {
            throw AuditServiceError(.projections, error.message)
        }
    }
}

extension AuditQueries {
    /// Brings the data directory's projection database up to date with the log (rebuilding the
    /// projections whose version changed) and says what it folded.
    /// - Throws: ``AuditServiceError`` `.projections` when the database cannot be opened or written.
    @discardableResult
    public func refresh() throws -> ReplayReport {
        do {
            let store = try ProjectionStore.open(at: directory.projections)
            let report = try ProjectionRunner(logger: logger).catchUp(store, log: log)
            return ReplayReport(
                events: report.events, toPosition: report.positions?.upperBound ?? log.lastPosition,
                seconds: report.seconds, database: directory.projections)
        } catch let error as ProjectionError {
            throw AuditServiceError(.projections, error.message)
        }
    }
}
